import type { RegisteredTaint } from '../../core/nodes/kubelet-registration';
import type { KubeObject, NodeInfo, NodePatch } from '../../ports/kube-cluster';
import { NotFoundError } from '../../shared/errors';
import type { SimContext } from '../sim-context';
import type { KubeState, SimNode } from '../world-state';
import { withDisruption } from './pdb';
import { NODE_LOST_MESSAGE, NODE_LOST_REASON } from './node-incidents';
import { removePod } from './pods';
import { dropNodeAttachments } from './volume-attachments';
import { allocatableOf } from './node-capacity';
import type { Resources } from '../../core/kube/pod-resources';

/**
 * Nodes join when their instance is InService and leave when it is Terminated; everything on a node that
 * leaves is lost at once (the controllers recreate what they own).
 */

export const MASTER_TAINT = { key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' } as const;

export interface NodeJoin {
  readonly name: string;
  readonly instanceId: string;
  readonly zone: string;
  readonly region: string;
  readonly pool: string;
  readonly role: 'master' | 'worker';
  readonly instanceType: string;
  readonly kubeletVersion?: string;
  /** What its user data's kubelet flags add: labels over the well-known ones, and its taints (all of them). */
  readonly registration?: {
    readonly labels: Readonly<Record<string, string>>;
    readonly taints: readonly RegisteredTaint[] | undefined;
  };
  /** Its bootstrap failed: it registers, but stays NotReady with this reason. */
  readonly notReady?: { readonly reason: string; readonly message: string };
}

export function joinNode(ctx: SimContext, kube: KubeState, join: NodeJoin): SimNode {
  const node: SimNode = {
    name: join.name,
    instanceId: join.instanceId,
    providerId: `aws:///${join.zone}/${join.instanceId}`,
    zone: join.zone,
    pool: join.pool,
    role: join.role,
    labels: {
      'kubernetes.io/hostname': join.name,
      'kubernetes.io/os': 'linux',
      'node.kubernetes.io/instance-type': join.instanceType,
      'node.kubernetes.io/node-pool': join.pool,
      'node.kubernetes.io/role': join.role,
      'lifecycle-status': 'ready',
      'topology.kubernetes.io/region': join.region,
      'topology.kubernetes.io/zone': join.zone,
      ...join.registration?.labels,
    },
    annotations: {},
    taints: join.registration?.taints
      ? join.registration.taints.map((t) => ({ ...t }))
      : join.role === 'master'
        ? [{ ...MASTER_TAINT }]
        : [],
    unschedulable: false,
    ready: !join.notReady && ctx.timings.nodeReadySeconds <= 0,
    createdAt: ctx.now,
    seq: ctx.nextSeq(),
    ...(join.kubeletVersion ? { kubeletVersion: join.kubeletVersion } : {}),
    ...(join.notReady ? { notReady: join.notReady } : {}),
    ...withAllocatable(join.instanceType),
  };
  kube.nodes[node.name] = node;
  if (node.ready) node.readyAt = ctx.now;
  if (!node.ready && !node.notReady)
    ctx.schedule(ctx.timings.nodeReadySeconds, {
      type: 'node-ready',
      cluster: kube.clusterId,
      node: node.name,
      instanceId: node.instanceId,
    });
  ctx.dirty.add(kube.clusterId);
  return node;
}

/** The node-ready event: the Node of that instance (if it is still there) turns Ready, and pods may land on it. */
export function nodeBecameReady(ctx: SimContext, kube: KubeState, name: string, instanceId: string): void {
  const node = kube.nodes[name];
  if (!node || node.instanceId !== instanceId || node.notReady || node.lost) return;
  node.ready = true;
  node.readyAt = ctx.now;
  ctx.dirty.add(kube.clusterId);
}

/** The node's instance is gone: the node and all its pods disappear (counted against PDBs). */
export function removeNode(ctx: SimContext, kube: KubeState, name: string, cause: string): void {
  const node = kube.nodes[name];
  if (!node) return;
  const pods = Object.values(kube.pods).filter((pod) => pod.nodeName === name);
  withDisruption(ctx, kube, pods, cause, () => {
    for (const pod of pods) removePod(kube, pod);
    delete kube.nodes[name];
    dropNodeAttachments(kube, name);
  });
  ctx.dirty.add(kube.clusterId);
}

export function nodeForInstance(kube: KubeState, instanceId: string): SimNode | undefined {
  return Object.values(kube.nodes).find((node) => node.instanceId === instanceId);
}

/**
 * The nodes whose status.volumesAttached is not empty: a pod with volumes runs there, or a VolumeAttachment still
 * names the node. Computed once per listing (one pass over the pods), not once per node: listing N nodes of a cluster
 * with a pod on each was O(N²) (the simulation's CPU quadrupled from 100 to 200 nodes).
 */
export function nodesWithVolumes(kube: KubeState): ReadonlySet<string> {
  const names = new Set<string>();
  for (const pod of Object.values(kube.pods))
    if (pod.nodeName && (pod.volumes?.length ?? 0) > 0) names.add(pod.nodeName);
  for (const attachment of Object.values(kube.volumeAttachments ?? {})) names.add(attachment.nodeName);
  return names;
}

export function nodeInfo(
  ctx: SimContext,
  kube: KubeState,
  node: SimNode,
  withVolumes: ReadonlySet<string> = nodesWithVolumes(kube),
): NodeInfo {
  return {
    name: node.name,
    providerId: node.providerId,
    labels: { ...node.labels },
    annotations: { ...node.annotations },
    taints: node.taints.map((taint) => ({ ...taint })),
    unschedulable: node.unschedulable,
    ready: node.ready,
    ...notReadyOf(ctx, node),
    volumesAttached: withVolumes.has(node.name),
    zone: node.zone,
    createdAt: ctx.iso(node.createdAt),
    ...(node.kubeletVersion ? { kubeletVersion: node.kubeletVersion } : {}),
  };
}

/** The API server's version (sim): without a version the control plane's nodes report, this one. */
export const SIM_SERVER_VERSION = 'v1.31.0';

/**
 * GET /version of a simulated cluster: the API servers run on the master nodes, so the version is the oldest one a
 * master's kubelet reports (a load balancer may answer from any of them; the oldest is the one the skew rules bind).
 */
export function serverVersion(kube: KubeState): string {
  const masters = Object.values(kube.nodes)
    .filter((node) => node.role === 'master' && node.kubeletVersion)
    .map((node) => node.kubeletVersion!)
    .sort(compareVersions);
  return masters[0] ?? SIM_SERVER_VERSION;
}

function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.replace(/^v/, '').split(/[.+-]/).slice(0, 3).map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

export function nodeObject(
  ctx: SimContext,
  kube: KubeState,
  node: SimNode,
  withVolumes: ReadonlySet<string> = nodesWithVolumes(kube),
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: node.name,
      uid: `node-${node.instanceId}`,
      labels: { ...node.labels },
      annotations: { ...node.annotations },
      creationTimestamp: ctx.iso(node.createdAt),
    },
    spec: {
      providerID: node.providerId,
      unschedulable: node.unschedulable,
      taints: node.taints.map((taint) => ({ ...taint })),
    },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: node.ready ? 'True' : 'False',
          ...(node.ready && node.readyAt !== undefined ? { lastTransitionTime: ctx.iso(node.readyAt) } : {}),
          ...(node.notReady ? { reason: node.notReady.reason, message: node.notReady.message } : {}),
        },
      ],
      ...(node.kubeletVersion ? { nodeInfo: { kubeletVersion: node.kubeletVersion } } : {}),
      ...(node.allocatable ? { allocatable: quantities(node.allocatable) } : {}),
      volumesAttached: withVolumes.has(node.name)
        ? [{ name: 'kubernetes.io/aws-ebs/sim', devicePath: '/dev/xvdba' }]
        : [],
    },
  };
}

function applyMap(target: Record<string, string>, changes: Readonly<Record<string, string | null>> | undefined): void {
  for (const [key, value] of Object.entries(changes ?? {})) {
    if (value === null) delete target[key];
    else target[key] = value;
  }
}

export function patchNode(ctx: SimContext, kube: KubeState, name: string, patch: NodePatch): void {
  const node = kube.nodes[name];
  if (!node) throw new NotFoundError(`nodes "${name}" not found`, { location: { clusterId: kube.clusterId } });
  if (patch.unschedulable !== undefined) node.unschedulable = patch.unschedulable;
  applyMap(node.labels, patch.labels);
  applyMap(node.annotations, patch.annotations);
  if (patch.taints) node.taints = patch.taints.map((taint) => ({ ...taint }));
  ctx.dirty.add(kube.clusterId);
}

/** The Ready condition's reason and since when, of a node not Ready: lost (an incident), failed to boot, or starting. */
function notReadyOf(ctx: SimContext, node: SimNode): Pick<NodeInfo, 'notReadyReason' | 'notReadySince'> {
  if (node.ready) return {};
  if (node.lost)
    return { notReadyReason: `${NODE_LOST_REASON}: ${NODE_LOST_MESSAGE}`, notReadySince: ctx.iso(node.lost.since) };
  return {
    ...(node.notReady ? { notReadyReason: `${node.notReady.reason}: ${node.notReady.message}` } : {}),
    notReadySince: ctx.iso(node.createdAt),
  };
}

function withAllocatable(instanceType: string): { allocatable?: Resources } {
  const allocatable = allocatableOf(instanceType);
  return allocatable ? { allocatable } : {};
}

/** Resources in the API's words: `1930m`, `6790828032`. */
function quantities(resources: Resources): Record<string, string> {
  return { cpu: `${resources.cpuMillis}m`, memory: String(resources.memoryBytes), pods: '110' };
}
