import { TAG_MAIN_STACK, TAG_NODE_POOL_PROFILE, clusterTagKey } from '../core/cloudformation/stack-names';
import { SERVING_STACK_STATES } from './aws/stack-states';
import { accountKey, privateDnsName } from './aws/account';
import { instanceBooted, instanceGone, poolOfAsg, reconcileAsg } from './aws/autoscaling';
import { completeStackOperation } from './aws/cloudformation';
import { describeEksCluster } from './aws/eks';
import { cniInterfaceAttached, cniInterfaceDetached } from './aws/vpc-cni';
import { applyIncidents, nextIncidentAt } from './kube/node-incidents';
import { joinNode, nodeBecameReady, nodeForInstance, removeNode } from './kube/nodes';
import { newKubeState } from './kube/objects';
import { podStarted, podTerminated } from './kube/pods';
import { volumeDetached } from './kube/volume-attachments';
import { liveEditDue } from './kube/live-edits';
import { reconcileWorkloads } from './kube/workloads';
import { reconcileKarpenter } from './karpenter';
import { karpenterInstanceBooted, karpenterInstanceGone } from './karpenter-nodes';
import { NODEPOOL_LABEL } from '../core/karpenter/karpenter-objects';
import type { SimContext } from './sim-context';
import { bootstrapInstance } from './aws/instance-bootstrap';
import { BOOTSTRAP_FAILED_REASON } from '../core/nodes/node-bootstrap';
import { KUBELET_REFUSED_REASON } from '../core/nodes/kubelet-registration';
import type { AccountState, InstanceRecord, KubeState, SimEvent } from './world-state';

/**
 * Glue between the AWS and Kubernetes halves: events in time order, nodes joining when instances come up
 * and leaving when they are gone, controllers settling after every change, and API-server readiness.
 */

const CLUSTER_TAG_PREFIX = 'kubernetes.io/cluster/';

export function kubeFor(ctx: SimContext, clusterId: string): KubeState {
  const existing = ctx.state.kube[clusterId];
  if (existing) return existing;
  const kube = newKubeState(ctx, clusterId);
  ctx.state.kube[clusterId] = kube;
  return kube;
}

/** The cluster id behind a `kubernetes.io/cluster/<name>` tag (the name is the alias for EKS clusters). */
function clusterIdForName(ctx: SimContext, account: AccountState, name: string): string {
  const info = Object.values(ctx.state.clusters).find(
    (c) => c.name === name && accountKey(c.accountId, c.region) === account.key,
  );
  return info?.id ?? name;
}

/**
 * An instance came up: it runs its bootstrap (aws/instance-bootstrap.ts), and its node registers — NotReady for good,
 * its Ready condition saying why, when the bootstrap failed.
 */
function nodeJoins(ctx: SimContext, account: AccountState, instance: InstanceRecord): void {
  const boot = bootstrapInstance(ctx, account, instance);
  instance.bootstrap = boot;
  const registration = instance.registration;
  const notReady = !boot.ok
    ? { reason: BOOTSTRAP_FAILED_REASON, message: boot.detail }
    : registration && !registration.ok
      ? { reason: KUBELET_REFUSED_REASON, message: registration.reason }
      : undefined;
  if (instance.tags[NODEPOOL_LABEL] !== undefined && instance.cluster) {
    karpenterInstanceBooted(ctx, kubeFor(ctx, instance.cluster), account, instance, notReady);
    return;
  }
  const asg = account.asgs[instance.asg];
  const tag =
    asg && Object.keys(asg.tags).find((key) => key.startsWith(CLUSTER_TAG_PREFIX) && asg.tags[key].value === 'owned');
  if (!asg || !tag) return;
  const clusterId = clusterIdForName(ctx, account, tag.slice(CLUSTER_TAG_PREFIX.length));
  const info = ctx.state.clusters[clusterId];
  if (info?.eks) {
    // The kubelet registers with the EKS API server; without an active one the instance runs but never joins.
    if (describeEksCluster(account, info.name)?.status !== 'ACTIVE') return;
    cniInterfaceAttached(account, info, instance);
  }
  const pool = poolOfAsg(asg) ?? asg.name;
  const master =
    (asg.tags[TAG_NODE_POOL_PROFILE]?.value ?? '').includes('master') ||
    (ctx.state.clusters[clusterId]?.masterPools ?? []).includes(pool);
  joinNode(ctx, kubeFor(ctx, clusterId), {
    name: privateDnsName(instance.privateIp, account.region),
    instanceId: instance.id,
    zone: instance.az,
    region: account.region,
    pool,
    role: master ? 'master' : 'worker',
    instanceType: instance.instanceType,
    ...launchedKubelet(account, instance),
    ...(registration?.ok ? { registration: { labels: registration.labels, taints: registration.taints } } : {}),
    ...(notReady ? { notReady } : {}),
  });
}

/** The kubelet version of the launch template version the instance was launched from. */
function launchedKubelet(account: AccountState, instance: InstanceRecord): { kubeletVersion?: string } {
  const template = instance.launchTemplateId ? account.launchTemplates[instance.launchTemplateId] : undefined;
  const version = template?.versions.find((v) => String(v.number) === instance.launchTemplateVersion);
  return version?.kubeletVersion ? { kubeletVersion: version.kubeletVersion } : {};
}

function nodeLeaves(ctx: SimContext, account: AccountState, instance: InstanceRecord): void {
  cniInterfaceDetached(account, instance);
  for (const kube of Object.values(ctx.state.kube)) {
    const node = nodeForInstance(kube, instance.id);
    if (node) removeNode(ctx, kube, node.name, `termination of instance ${instance.id} (node ${node.name})`);
    if (instance.tags[NODEPOOL_LABEL] !== undefined) karpenterInstanceGone(ctx, kube, instance.id);
  }
}

export function handleEvent(ctx: SimContext, event: SimEvent): void {
  switch (event.type) {
    case 'stack-done': {
      const account = ctx.state.accounts[event.account];
      if (account) completeStackOperation(ctx, account, event.stack, event.token);
      return;
    }
    case 'instance-boot': {
      const account = ctx.state.accounts[event.account];
      const instance = account && instanceBooted(account, event.instanceId);
      if (instance) nodeJoins(ctx, account, instance);
      return;
    }
    case 'instance-gone': {
      const account = ctx.state.accounts[event.account];
      const instance = account && instanceGone(account, event.instanceId);
      if (instance) nodeLeaves(ctx, account, instance);
      return;
    }
    case 'node-ready': {
      const kube = ctx.state.kube[event.cluster];
      if (kube) nodeBecameReady(ctx, kube, event.node, event.instanceId);
      return;
    }
    case 'pod-ready': {
      const kube = ctx.state.kube[event.cluster];
      if (kube) podStarted(ctx, kube, event.pod, event.uid);
      return;
    }
    case 'pod-gone': {
      const kube = ctx.state.kube[event.cluster];
      if (kube) podTerminated(ctx, kube, event.pod, event.uid);
      return;
    }
    case 'karpenter-retry':
      // Karpenter's next provisioning pass after a launch EC2 refused (sim/karpenter.ts).
      ctx.dirty.add(event.cluster);
      return;
    case 'asg-retry': {
      const account = ctx.state.accounts[event.account];
      const asg = account?.asgs[event.asg];
      if (!account || !asg) return;
      delete asg.launchRetryAt;
      reconcileAsg(ctx, account, asg);
      return;
    }
    case 'live-edit': {
      liveEditDue(ctx, kubeFor(ctx, event.cluster), event.index);
      return;
    }
    case 'volume-detached': {
      const kube = ctx.state.kube[event.cluster];
      if (kube) volumeDetached(kube, event.attachment, event.node);
      return;
    }
  }
}

/** Run the controllers of every cluster that changed until nothing more changes. */
export function settle(ctx: SimContext): void {
  for (let round = 0; ctx.dirty.size > 0 && round < 20; round += 1) {
    const ids = [...ctx.dirty].sort();
    ctx.dirty.clear();
    for (const id of ids) {
      const kube = ctx.state.kube[id];
      if (kube) {
        reconcileWorkloads(ctx, kube);
        reconcileKarpenter(ctx, kube);
      }
    }
  }
  ctx.dirty.clear();
}

/**
 * Process every event due up to `time`, in (time, sequence) order, then set the clock to `time`; the scenario's node
 * incidents happen at their times among them (kube/node-incidents.ts).
 */
export function advanceTo(ctx: SimContext, time: number): void {
  for (let at = nextIncidentAt(ctx, time); at !== undefined; at = nextIncidentAt(ctx, time)) {
    runEvents(ctx, at);
    applyIncidents(ctx, at);
  }
  runEvents(ctx, time);
}

function runEvents(ctx: SimContext, time: number): void {
  settle(ctx);
  for (let event = ctx.popDue(time); event; event = ctx.popDue(time)) {
    ctx.state.now = Math.max(ctx.state.now, event.at);
    handleEvent(ctx, event);
    settle(ctx);
  }
  ctx.state.now = Math.max(ctx.state.now, time);
}

/**
 * GET /readyz: a Ready master node exists; for a zalando-eks cluster its EKS cluster is ACTIVE; for another cluster
 * without master pools the main stack (tagged as such for this cluster) has been created.
 */
export function apiReady(ctx: SimContext, clusterId: string): boolean {
  const info = ctx.state.clusters[clusterId];
  if (info?.eks) {
    const account = ctx.state.accounts[accountKey(info.accountId, info.region)];
    return account !== undefined && describeEksCluster(account, info.name)?.status === 'ACTIVE';
  }
  if (info && info.masterPools.length === 0) {
    const account = ctx.state.accounts[accountKey(info.accountId, info.region)];
    return Object.values(account?.stacks ?? {}).some(
      (stack) =>
        stack.tags[TAG_MAIN_STACK] === 'true' &&
        stack.tags[clusterTagKey(clusterId)] === 'owned' &&
        SERVING_STACK_STATES.has(stack.status),
    );
  }
  return Object.values(ctx.state.kube[clusterId]?.nodes ?? {}).some((node) => node.role === 'master' && node.ready);
}
