import { clusterTagKey } from '../core/cloudformation/stack-names';
import { accountKey } from './aws/account';
import { asgInstances, isOutdated, poolOfAsg } from './aws/autoscaling';
import { apiReady } from './engine';
import { pdbObjects, pdbStatus } from './kube/pdb';
import type { SimContext } from './sim-context';
import type { AccountState, AsgRecord, KubeState, SimPod } from './world-state';

/** What `clm status --simulate` prints about one cluster: stacks, pools, nodes, pods and PDBs. */
export interface ClusterSnapshot {
  readonly clusterId: string;
  readonly time: string;
  readonly elapsedSeconds: number;
  readonly apiReady: boolean;
  readonly stacks: readonly { readonly name: string; readonly status: string; readonly reason?: string }[];
  readonly pools: readonly {
    readonly name: string;
    readonly desired: number;
    readonly min: number;
    readonly max: number;
    readonly instances: readonly {
      readonly id: string;
      readonly az: string;
      readonly state: string;
      readonly outdated: boolean;
      readonly node?: string;
    }[];
  }[];
  readonly nodes: readonly {
    readonly name: string;
    readonly pool: string;
    readonly zone: string;
    readonly role: string;
    readonly ready: boolean;
    readonly unschedulable: boolean;
    readonly outdated: boolean;
    readonly pods: number;
    readonly taints: readonly string[];
  }[];
  readonly pods: {
    readonly total: number;
    readonly ready: number;
    readonly pending: number;
    readonly terminating: number;
  };
  readonly pdbs: readonly {
    readonly namespace: string;
    readonly name: string;
    readonly disruptionsAllowed: number;
    readonly currentHealthy: number;
    readonly desiredHealthy: number;
    readonly expectedPods: number;
  }[];
}

type PoolSnapshot = ClusterSnapshot['pools'][number];
type NodeSnapshot = ClusterSnapshot['nodes'][number];

export function describeCluster(ctx: SimContext, clusterId: string): ClusterSnapshot {
  const info = ctx.state.clusters[clusterId];
  const account = info ? ctx.state.accounts[accountKey(info.accountId, info.region)] : undefined;
  const kube = ctx.state.kube[clusterId];
  const tags = info ? [clusterTagKey(info.name), clusterTagKey(info.id)] : [];
  const owned = (t: Record<string, string>): boolean => tags.some((tag) => t[tag] === 'owned');
  const outdatedInstances = new Set<string>();
  const pools = account ? describePools(account, kube, owned, outdatedInstances) : [];
  const pods = Object.values(kube?.pods ?? {});
  return {
    clusterId,
    time: ctx.iso(),
    elapsedSeconds: ctx.elapsedSeconds,
    apiReady: apiReady(ctx, clusterId),
    stacks: Object.values(account?.stacks ?? {})
      .filter((stack) => owned(stack.tags) || stack.name === info?.localId)
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((stack) => ({ name: stack.name, status: stack.status, ...(stack.reason ? { reason: stack.reason } : {}) })),
    pools,
    nodes: describeNodes(kube, pods, outdatedInstances),
    pods: {
      total: pods.length,
      ready: pods.filter((p) => p.ready).length,
      pending: pods.filter((p) => !p.nodeName).length,
      terminating: pods.filter((p) => p.deletingAt !== undefined).length,
    },
    pdbs: kube
      ? pdbObjects(kube).map((stored) => {
          const s = pdbStatus(ctx, kube, stored);
          return {
            namespace: s.namespace,
            name: s.name,
            disruptionsAllowed: s.disruptionsAllowed,
            currentHealthy: s.currentHealthy,
            desiredHealthy: s.desiredHealthy,
            expectedPods: s.expectedPods,
          };
        })
      : [],
  };
}

/**
 * The cluster's node pools, each the sum of its Auto Scaling groups (a group without a pool tag is a pool of its own),
 * with their instances; adds the outdated instances to `outdatedInstances`.
 */
function describePools(
  account: AccountState,
  kube: KubeState | undefined,
  owned: (tags: Record<string, string>) => boolean,
  outdatedInstances: Set<string>,
): PoolSnapshot[] {
  const nodesByInstance = new Map(Object.values(kube?.nodes ?? {}).map((node) => [node.instanceId, node]));
  const asgs = Object.values(account.asgs).filter((asg) =>
    owned(Object.fromEntries(Object.entries(asg.tags).map(([k, v]) => [k, v.value]))),
  );
  const poolNames = [...new Set(asgs.map((asg) => poolOfAsg(asg) ?? asg.name))].sort();
  return poolNames.map((name) => {
    const groups = asgs.filter((asg) => (poolOfAsg(asg) ?? asg.name) === name);
    const instances = groups.flatMap((asg) =>
      asgInstances(account, asg.name).map((instance) => {
        const outdated = isOutdated(account, asg, instance);
        if (outdated) outdatedInstances.add(instance.id);
        const node = nodesByInstance.get(instance.id)?.name;
        return { id: instance.id, az: instance.az, state: instance.state, outdated, ...(node ? { node } : {}) };
      }),
    );
    const sum = (pick: (g: AsgRecord) => number): number => groups.reduce((total, g) => total + pick(g), 0);
    return { name, desired: sum((g) => g.desired), min: sum((g) => g.min), max: sum((g) => g.max), instances };
  });
}

/** The cluster's nodes by name, with their pod counts and whether their instance is outdated. */
function describeNodes(
  kube: KubeState | undefined,
  pods: readonly SimPod[],
  outdatedInstances: ReadonlySet<string>,
): NodeSnapshot[] {
  const podsPerNode = new Map<string, number>();
  for (const pod of pods) if (pod.nodeName) podsPerNode.set(pod.nodeName, (podsPerNode.get(pod.nodeName) ?? 0) + 1);
  return Object.values(kube?.nodes ?? {})
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((node) => ({
      name: node.name,
      pool: node.pool,
      zone: node.zone,
      role: node.role,
      ready: node.ready,
      unschedulable: node.unschedulable,
      outdated: outdatedInstances.has(node.instanceId),
      pods: podsPerNode.get(node.name) ?? 0,
      taints: node.taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`),
    }));
}
