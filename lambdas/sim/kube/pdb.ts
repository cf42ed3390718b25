import type { EvictionResult, LabelSelector, PdbInfo } from '../../ports/kube-cluster';
import type { SimContext } from '../sim-context';
import type { KubeState, SimPod, StoredObject } from '../world-state';
import { matchesSelector } from '../../core/kube/label-selector';
import { beginPodDeletion, isHealthy } from './pods';

/**
 * PodDisruptionBudgets (policy/v1) as the disruption controller and the Eviction API see them, and the
 * world's own PDB invariant: every time a disruption (eviction, forced delete, node loss) leaves a PDB
 * with fewer healthy pods than it requires, `pdbViolations` goes up.
 */

export interface PdbStatus extends PdbInfo {
  /** Virtual ms until which a scenario fault refuses evictions. */
  readonly blockedUntil?: number;
}

export function pdbObjects(kube: KubeState, namespace?: string): StoredObject[] {
  return Object.entries(kube.objects)
    .filter(
      ([key]) =>
        key.startsWith('policy/PodDisruptionBudget/') &&
        (!namespace || key.startsWith(`policy/PodDisruptionBudget/${namespace}/`)),
    )
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, stored]) => stored);
}

const meta = (stored: StoredObject): Record<string, unknown> => (stored.obj.metadata ?? {}) as Record<string, unknown>;
const spec = (stored: StoredObject): Record<string, unknown> => (stored.obj.spec ?? {}) as Record<string, unknown>;

function scaled(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+)%$/.exec(value);
  return match ? Math.ceil((Number(match[1]) * total) / 100) : Number(value);
}

function replicas(kube: KubeState, group: string, kind: string, namespace: string, name: string): number | undefined {
  const stored = kube.objects[`${group}/${kind}/${namespace}/${name}`];
  if (!stored) return undefined;
  const value = (stored.obj.spec as Record<string, unknown> | undefined)?.replicas;
  return typeof value === 'number' ? value : 1;
}

/** The scale of the controllers behind `pods` (a ReplicaSet counts as its Deployment), summed once each. */
function expectedScale(kube: KubeState, pods: readonly SimPod[]): number {
  const seen = new Map<string, number>();
  for (const pod of pods) {
    const owner = pod.owner;
    if (!owner) {
      seen.set(`pod/${pod.name}`, 1);
      continue;
    }
    if (owner.kind === 'ReplicaSet') {
      const rs = kube.objects[`apps/ReplicaSet/${pod.namespace}/${owner.name}`];
      const deployment = (
        (rs?.obj.metadata as Record<string, unknown> | undefined)?.ownerReferences as
          { kind: string; name: string }[] | undefined
      )?.find((ref) => ref.kind === 'Deployment');
      if (deployment)
        seen.set(
          `Deployment/${deployment.name}`,
          replicas(kube, 'apps', 'Deployment', pod.namespace, deployment.name) ?? 0,
        );
      else seen.set(`ReplicaSet/${owner.name}`, replicas(kube, 'apps', 'ReplicaSet', pod.namespace, owner.name) ?? 0);
    } else if (owner.kind === 'StatefulSet') {
      seen.set(`StatefulSet/${owner.name}`, replicas(kube, 'apps', 'StatefulSet', pod.namespace, owner.name) ?? 0);
    } else {
      seen.set(`${owner.kind}/${owner.name}/${pod.name}`, 1);
    }
  }
  return [...seen.values()].reduce((sum, n) => sum + n, 0);
}

function blockedUntil(ctx: SimContext, clusterId: string, namespace: string, name: string): number | undefined {
  const scenario = ctx.state.scenario;
  const seconds = [
    ...scenario.faults.blockedEvictions
      .filter((b) => (!b.cluster || b.cluster === clusterId) && b.namespace === namespace && b.pdb === name)
      .map((b) => b.untilSeconds),
    ...(scenario.clusters[clusterId]?.pdbs ?? [])
      .filter((p) => p.namespace === namespace && p.name === name && p.blockEvictionsUntilSeconds !== undefined)
      .map((p) => p.blockEvictionsUntilSeconds!),
  ];
  if (seconds.length === 0) return undefined;
  return ctx.state.startTime + Math.max(...seconds) * 1000;
}

export function pdbStatus(ctx: SimContext, kube: KubeState, stored: StoredObject): PdbStatus {
  const namespace = String(meta(stored).namespace ?? 'default');
  const name = String(meta(stored).name);
  const { selector, minAvailable, maxUnavailable } = spec(stored) as {
    selector?: LabelSelector;
    minAvailable?: number | string;
    maxUnavailable?: number | string;
  };
  const pods = Object.values(kube.pods).filter(
    (pod) => pod.namespace === namespace && matchesSelector(selector, pod.labels),
  );
  const currentHealthy = pods.filter(isHealthy).length;
  let expectedPods = 0;
  let desiredHealthy = 0;
  if (maxUnavailable !== undefined) {
    expectedPods = expectedScale(kube, pods);
    desiredHealthy = Math.max(0, expectedPods - scaled(maxUnavailable, expectedPods));
  } else if (typeof minAvailable === 'number') {
    expectedPods = pods.length;
    desiredHealthy = minAvailable;
  } else if (minAvailable !== undefined) {
    expectedPods = expectedScale(kube, pods);
    desiredHealthy = scaled(minAvailable, expectedPods);
  }
  const until = blockedUntil(ctx, kube.clusterId, namespace, name);
  const blocked = until !== undefined && ctx.now < until;
  const allowed = expectedPods <= 0 || blocked ? 0 : Math.max(0, currentHealthy - desiredHealthy);
  return {
    namespace,
    name,
    selector: selector ?? {},
    ...(minAvailable !== undefined ? { minAvailable } : {}),
    ...(maxUnavailable !== undefined ? { maxUnavailable } : {}),
    disruptionsAllowed: allowed,
    currentHealthy,
    desiredHealthy,
    expectedPods,
    ...(blocked ? { blockedUntil: until } : {}),
  };
}

export function pdbsForPod(kube: KubeState, pod: SimPod): StoredObject[] {
  return pdbObjects(kube, pod.namespace).filter((stored) =>
    matchesSelector(spec(stored).selector as LabelSelector | undefined, pod.labels),
  );
}

/**
 * Run `mutate` (which disrupts `pods`) and count a violation for each PDB that ends up with fewer healthy
 * pods than it requires because of it. A cluster being decommissioned is torn down on purpose: not counted.
 */
export function withDisruption(
  ctx: SimContext,
  kube: KubeState,
  pods: readonly SimPod[],
  cause: string,
  mutate: () => void,
): void {
  if (ctx.state.clusters[kube.clusterId]?.decommissioning) {
    mutate();
    return;
  }
  const pdbs = new Map<string, StoredObject>();
  for (const pod of pods.filter(isHealthy))
    for (const stored of pdbsForPod(kube, pod))
      pdbs.set(`${String(meta(stored).namespace)}/${String(meta(stored).name)}`, stored);
  const before = new Map([...pdbs].map(([key, stored]) => [key, pdbStatus(ctx, kube, stored)]));
  mutate();
  for (const [key, stored] of pdbs) {
    const was = before.get(key)!;
    const now = pdbStatus(ctx, kube, stored);
    if (now.currentHealthy < was.currentHealthy && now.currentHealthy < was.desiredHealthy) {
      ctx.pdbViolation(
        `cluster ${kube.clusterId}: PDB ${key} has ${now.currentHealthy} healthy pods, needs ${was.desiredHealthy}, after ${cause}`,
      );
    }
  }
}

/** The Eviction API: refused (429) when a PDB covering the pod allows no disruption. */
export function evictPod(
  ctx: SimContext,
  kube: KubeState,
  pod: SimPod | undefined,
  graceSeconds?: number,
): EvictionResult {
  if (!pod) return 'not-found';
  if (pod.deletingAt !== undefined) return 'evicted';
  for (const stored of pdbsForPod(kube, pod)) {
    const status = pdbStatus(ctx, kube, stored);
    // An unhealthy pod may go while the budget is met (unhealthyPodEvictionPolicy IfHealthyBudget).
    const allowed =
      status.blockedUntil === undefined &&
      (isHealthy(pod) ? status.disruptionsAllowed > 0 : status.currentHealthy >= status.desiredHealthy);
    if (!allowed) return 'blocked-by-pdb';
  }
  withDisruption(ctx, kube, [pod], `eviction of ${pod.namespace}/${pod.name}`, () =>
    beginPodDeletion(ctx, kube, pod, graceSeconds),
  );
  return 'evicted';
}
