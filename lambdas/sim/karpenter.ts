import {
  NODECLASS_HASH,
  NODECLASS_HASH_VERSION,
  NODEPOOL_HASH,
  NODEPOOL_HASH_VERSION,
  NODEPOOL_LABEL,
  conditionTrue,
  driftReason,
} from '../core/karpenter/karpenter-objects';
import type { KubeObject, Taint } from '../ports/kube-cluster';
import { accountKey, availabilityZones } from './aws/account';
import { launchKarpenterInstance } from './aws/karpenter-instances';
import { INSTANCE_TYPE_LABEL, poolUsage, recordUsage, takeWithinLimits } from './karpenter-limits';
import { VcpuLimitExceeded } from './aws/vcpu-quota';
import { filesBundles } from '../core/nodes/node-bootstrap';
import { hashOf, hashValue } from './hash';
import { objectKey } from './kube/kinds';
import { MAX_PODS_PER_NODE, tolerates } from './kube/scheduler';
import { podsByRequests } from './kube/node-capacity';
import { metaOf, serverMetadata, specOf, storedOfKind } from './kube/stored';
import type { Json } from './kube/stored';
import { workloadStatus } from './kube/workload-status';
import type { SimContext } from './sim-context';
import type { AccountState, KubeState, SimPod, StoredObject } from './world-state';

/**
 * A simulated Karpenter controller (karpenter.sh/v1, karpenter.k8s.aws/v1), running with the other controllers after
 * every change, once its CRDs are applied and its Deployment (`kube-system/karpenter`) has a Ready replica:
 * - it writes the hash annotations on NodePools (`karpenter.sh/nodepool-hash`, of `spec.template`) and EC2NodeClasses
 *   (`karpenter.k8s.aws/ec2nodeclass-hash`, of `spec`), and marks a NodeClaim `Drifted` when they no longer match the
 *   ones it was launched with;
 * - for pods that no node can take and that a NodePool fits (their nodeSelector within its template labels, its
 *   taints tolerated), it launches NodeClaims — an EC2 instance each, which joins as a Node after the world's boot
 *   time, with the NodePool's labels, taints and kubelet maxPods — as many as the pods need beyond the capacity
 *   already launching;
 * - when an instance is terminated, its Node and NodeClaim go (engine.ts calls `karpenterInstanceGone`).
 * Deterministic: names and ids come from the world's PRNG and counters.
 */

const KARPENTER_NS = 'kube-system';
const KARPENTER_DEPLOYMENT = 'karpenter';
const NODEPOOL_HASH_VERSION_VALUE = 'v3';
const NODECLASS_HASH_VERSION_VALUE = 'v4';

const obj = (stored: StoredObject): Json => stored.obj;
const annotations = (o: Json): Record<string, string> => (metaOf(o).annotations ?? {}) as Record<string, string>;
const asKube = (o: Json): KubeObject => o as unknown as KubeObject;

/** The CRDs are served and the controller Deployment has a Ready replica. */
export function karpenterRunning(kube: KubeState): boolean {
  if (!kube.customKinds.nodepool || !kube.customKinds.nodeclaim || !kube.customKinds.ec2nodeclass) return false;
  const stored = kube.objects[`apps/Deployment/${KARPENTER_NS}/${KARPENTER_DEPLOYMENT}`];
  const status = stored && workloadStatus(kube, 'Deployment', stored);
  return Number(status?.readyReplicas ?? 0) >= 1;
}

export function reconcileKarpenter(ctx: SimContext, kube: KubeState): void {
  if (!karpenterRunning(kube)) return;
  const pools = storedOfKind(kube, 'karpenter.sh', 'NodePool').map(([, s]) => s);
  const classes = storedOfKind(kube, 'karpenter.k8s.aws', 'EC2NodeClass').map(([, s]) => s);
  for (const stored of classes)
    setAnnotations(ctx, kube, stored, {
      [NODECLASS_HASH]: hashValue(specOf(obj(stored))),
      [NODECLASS_HASH_VERSION]: NODECLASS_HASH_VERSION_VALUE,
    });
  for (const stored of pools)
    setAnnotations(ctx, kube, stored, {
      [NODEPOOL_HASH]: hashValue(specOf(obj(stored)).template ?? {}),
      [NODEPOOL_HASH_VERSION]: NODEPOOL_HASH_VERSION_VALUE,
    });
  const byName = (list: StoredObject[], name: string) => list.find((s) => metaOf(obj(s)).name === name);
  for (const [, claim] of storedOfKind(kube, 'karpenter.sh', 'NodeClaim')) {
    const poolName = String((metaOf(obj(claim)).labels as Record<string, string> | undefined)?.[NODEPOOL_LABEL] ?? '');
    const pool = byName(pools, poolName);
    const nodeClass = byName(classes, nodeClassOf(pool ? obj(pool) : undefined, poolName));
    const drifted =
      driftReason(
        { ...asKube(obj(claim)), status: {} },
        pool && asKube(obj(pool)),
        nodeClass && asKube(obj(nodeClass)),
      ) !== undefined;
    if (drifted !== conditionTrue(asKube(obj(claim)), 'Drifted')) setDrifted(ctx, kube, claim, drifted);
  }
  provision(ctx, kube, pools, classes);
  for (const stored of pools) recordUsage(ctx, kube, stored, poolUsage(kube, String(metaOf(obj(stored)).name)));
}

function nodeClassOf(pool: Json | undefined, poolName: string): string {
  const ref = (specOf((specOf(pool ?? {}).template ?? {}) as Json).nodeClassRef ?? {}) as Json;
  return typeof ref.name === 'string' && ref.name ? ref.name : poolName;
}

function setAnnotations(ctx: SimContext, kube: KubeState, stored: StoredObject, wanted: Record<string, string>): void {
  const current = annotations(obj(stored));
  if (Object.entries(wanted).every(([k, v]) => current[k] === v)) return;
  stored.obj = { ...stored.obj, metadata: { ...metaOf(stored.obj), annotations: { ...current, ...wanted } } };
  ctx.dirty.add(kube.clusterId);
}

function setDrifted(ctx: SimContext, kube: KubeState, claim: StoredObject, drifted: boolean): void {
  const status = (claim.obj.status ?? {}) as Json;
  const conditions = (Array.isArray(status.conditions) ? status.conditions : []) as Json[];
  const others = conditions.filter((c) => c.type !== 'Drifted');
  const next = drifted
    ? [...others, { type: 'Drifted', status: 'True', reason: 'Drifted', lastTransitionTime: ctx.iso() }]
    : others;
  claim.obj = { ...claim.obj, status: { ...status, conditions: next } };
  ctx.dirty.add(kube.clusterId);
}

export interface PoolShape {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly taints: Taint[];
  readonly maxPods: number;
  readonly zones?: readonly string[];
  readonly instanceType: string;
}

export function poolShape(stored: StoredObject): PoolShape {
  const o = obj(stored);
  const name = String(metaOf(o).name);
  const template = (specOf(o).template ?? {}) as Json;
  const spec = specOf(template);
  const labels = { ...((metaOf(template).labels ?? {}) as Record<string, string>), [NODEPOOL_LABEL]: name };
  const taints = (Array.isArray(spec.taints) ? spec.taints : []) as Taint[];
  const kubelet = (spec.kubelet ?? {}) as Json;
  const requirements = (Array.isArray(spec.requirements) ? spec.requirements : []) as Json[];
  const zoneReq = requirements.find((r) => r.key === 'topology.kubernetes.io/zone' && r.operator === 'In');
  const typeReq = requirements.find((r) => r.key === 'node.kubernetes.io/instance-type' && r.operator === 'In');
  return {
    name,
    labels,
    taints,
    maxPods: typeof kubelet.maxPods === 'number' && kubelet.maxPods > 0 ? kubelet.maxPods : MAX_PODS_PER_NODE,
    ...(Array.isArray(zoneReq?.values) ? { zones: zoneReq.values.map(String) } : {}),
    instanceType: Array.isArray(typeReq?.values) && typeReq.values.length ? String(typeReq.values[0]) : 'm6i.large',
  };
}

/** Would a node of this pool take the pod (labels, hard taints; the pod's volumes pin its zone)? */
function podFits(pod: SimPod, shape: PoolShape): boolean {
  const labels: Record<string, string> = { ...shape.labels, 'node.kubernetes.io/node-pool': shape.name };
  if (!Object.entries(pod.nodeSelector ?? {}).every(([k, v]) => labels[k] === v || k === 'topology.kubernetes.io/zone'))
    return false;
  return shape.taints.every((t) => t.effect === 'PreferNoSchedule' || tolerates(pod.tolerations, t));
}

function provision(ctx: SimContext, kube: KubeState, pools: StoredObject[], classes: StoredObject[]): void {
  const pending = Object.values(kube.pods)
    .filter((pod) => !pod.nodeName && pod.deletingAt === undefined)
    .sort((a, b) => a.seq - b.seq);
  if (pending.length === 0) return;
  const info = ctx.state.clusters[kube.clusterId];
  const account = info && ctx.state.accounts[accountKey(info.accountId, info.region)];
  if (!info || !account) return;
  const taken = new Set<string>();
  const shapes = pools.map(poolShape).sort((a, b) => a.name.localeCompare(b.name));
  const daemonSets = storedOfKind(kube, 'apps', 'DaemonSet').length;
  for (const shape of shapes) {
    const pool = pools.find((s) => metaOf(obj(s)).name === shape.name)!;
    const nodeClass = classes.find((s) => metaOf(obj(s)).name === nodeClassOf(obj(pool), shape.name));
    if (!nodeClass) continue;
    const pods = pending.filter((pod) => !taken.has(pod.uid) && podFits(pod, shape));
    if (pods.length === 0) continue;
    for (const pod of pods) taken.add(pod.uid);
    const perNode = Math.max(1, Math.min(shape.maxPods - daemonSets, podsByRequests(pods, shape.instanceType)));
    // Capacity on its way: claims of this pool whose node is not there (or not Ready) yet.
    const launching = storedOfKind(kube, 'karpenter.sh', 'NodeClaim').filter(([, c]) => {
      const meta = metaOf(obj(c));
      const nodeName = String(((c.obj.status ?? {}) as Json).nodeName ?? '');
      return (
        (meta.labels as Record<string, string>)[NODEPOOL_LABEL] === shape.name &&
        meta.deletionTimestamp === undefined &&
        !(nodeName && kube.nodes[nodeName]?.ready)
      );
    }).length;
    const needed = Math.ceil(pods.length / perNode) - launching;
    const usage = poolUsage(kube, shape.name);
    for (let i = 0; i < needed && takeWithinLimits(obj(pool), usage, shape.instanceType); i++) {
      const zone = zoneFor(pods[i * perNode] ?? pods[0], kube, shape, info.region, i);
      // Over the account's vCPU quota, CreateFleet launches nothing: no NodeClaim, the pods stay Pending until
      // Karpenter's next pass finds room (capacity freed, the quota raised).
      if (!launchClaim(ctx, kube, account, info, shape, obj(pool), obj(nodeClass), zone)) {
        retryProvisioning(ctx, kube);
        break;
      }
    }
  }
}

function zoneFor(pod: SimPod, kube: KubeState, shape: PoolShape, region: string, index: number): string {
  const pinned = (pod.volumes ?? []).map((v) => kube.volumes[v]).find(Boolean);
  if (pinned) return pinned;
  const zones = shape.zones?.length ? shape.zones : availabilityZones(region);
  const existing = Object.values(kube.nodes).filter((n) => n.labels[NODEPOOL_LABEL] === shape.name);
  // The least used zone of the pool (ties: the zone order), so a pool spreads as Karpenter's topology does.
  const counts = zones.map((z) => existing.filter((n) => n.zone === z).length);
  const least = Math.min(...counts);
  const candidates = zones.filter((_, i) => counts[i] === least);
  return candidates[index % candidates.length]!;
}

function launchClaim(
  ctx: SimContext,
  kube: KubeState,
  account: AccountState,
  info: { readonly id: string; readonly name: string },
  shape: PoolShape,
  pool: Json,
  nodeClass: Json,
  zone: string,
): boolean {
  const claimName = `${shape.name}-${hashOf([info.id, shape.name, String(ctx.nextSeq())], 5)}`;
  const amis = (specOf(nodeClass).amiSelectorTerms ?? []) as Json[];
  const imageId = typeof amis[0]?.id === 'string' ? amis[0].id : undefined;
  const instance = launchOrRefuse(ctx, account, nodeClass, {
    clusterId: info.id,
    clusterName: info.name,
    pool: shape.name,
    nodeClaim: claimName,
    az: zone,
    instanceType: shape.instanceType,
    ...(imageId ? { imageId } : {}),
  });
  if (!instance) return false;
  const nodeClaimInfo = kube.customKinds.nodeclaim!;
  const poolAnn = annotations(pool);
  const classAnn = annotations(nodeClass);
  const claim: Json = {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name: claimName,
      labels: { ...shape.labels, 'topology.kubernetes.io/zone': zone, [INSTANCE_TYPE_LABEL]: shape.instanceType },
      annotations: Object.fromEntries(
        [
          [NODEPOOL_HASH, poolAnn[NODEPOOL_HASH]],
          [NODEPOOL_HASH_VERSION, poolAnn[NODEPOOL_HASH_VERSION]],
          [NODECLASS_HASH, classAnn[NODECLASS_HASH]],
          [NODECLASS_HASH_VERSION, classAnn[NODECLASS_HASH_VERSION]],
        ].filter(([, v]) => v !== undefined),
      ),
      ownerReferences: [{ apiVersion: 'karpenter.sh/v1', kind: 'NodePool', name: shape.name, uid: metaOf(pool).uid }],
      ...serverMetadata(ctx),
    },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: String(metaOf(nodeClass).name) },
      taints: shape.taints,
    },
    status: {
      providerID: `aws:///${zone}/${instance.id}`,
      ...(imageId ? { imageID: imageId } : {}),
      conditions: [{ type: 'Launched', status: 'True', lastTransitionTime: ctx.iso() }],
    },
  };
  kube.objects[objectKey(nodeClaimInfo, undefined, claimName)] = { seq: ctx.nextSeq(), obj: claim };
  ctx.dirty.add(kube.clusterId);
  return true;
}

/** When each cluster's Karpenter tries a refused launch again (one pass queued at a time; not persisted). */
const retries = new WeakMap<KubeState, number>();

function retryProvisioning(ctx: SimContext, kube: KubeState): void {
  if ((retries.get(kube) ?? 0) > ctx.now) return;
  retries.set(kube, ctx.now + KARPENTER_RETRY_SECONDS * 1000);
  ctx.schedule(KARPENTER_RETRY_SECONDS, { type: 'karpenter-retry', cluster: kube.clusterId });
}

/** How long Karpenter waits before it tries a launch EC2 refused again. */
export const KARPENTER_RETRY_SECONDS = 60;

/** The instance, or undefined when EC2 refused it over the account's vCPU quota (counted by the quota). */
function launchOrRefuse(
  ctx: SimContext,
  account: AccountState,
  nodeClass: Json,
  launch: Parameters<typeof launchKarpenterInstance>[2],
): ReturnType<typeof launchKarpenterInstance> | undefined {
  const classSpec = specOf(nodeClass);
  const bundles = typeof classSpec.userData === 'string' ? filesBundles(classSpec.userData) : [];
  try {
    return launchKarpenterInstance(ctx, account, {
      ...(typeof classSpec.instanceProfile === 'string' ? { instanceProfile: classSpec.instanceProfile } : {}),
      ...(typeof classSpec.role === 'string' ? { role: classSpec.role } : {}),
      ...(bundles.length ? { bundles } : {}),
      ...launch,
    });
  } catch (error) {
    if (error instanceof VcpuLimitExceeded) return undefined;
    throw error;
  }
}
