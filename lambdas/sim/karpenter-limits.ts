import { NODEPOOL_LABEL } from '../core/karpenter/karpenter-objects';
import { resourcesOf } from '../core/kube/pod-resources';
import { parseQuantity } from '../core/template-helpers/quantities';
import { PINNED_INSTANCE_TYPES } from '../core/values/instance-types';
import { metaOf, specOf, storedOfKind } from './kube/stored';
import type { Json } from './kube/stored';
import type { SimContext } from './sim-context';
import type { KubeState, StoredObject } from './world-state';

/**
 * A NodePool's `spec.limits` as Karpenter keeps them: the capacity of the pool's NodeClaims (all that exist, those
 * being deleted included, until they are gone) is the pool's usage (`status.resources`: cpu, memory, nodes), and a
 * NodeClaim is launched only when the usage plus its instance type's capacity stays within every limit the pool
 * sets. A pool without limits is unbounded. Past a limit the pods stay Pending.
 */
export interface PoolUsage {
  cpuMillis: number;
  memoryBytes: number;
  nodes: number;
}

function capacityOf(instanceType: string): PoolUsage {
  const info = PINNED_INSTANCE_TYPES.get(instanceType);
  return {
    cpuMillis: (info?.vcpu ?? 0) * 1000,
    memoryBytes: (info?.memoryMiB ?? 0) * 1024 * 1024,
    nodes: 1,
  };
}

export const INSTANCE_TYPE_LABEL = 'node.kubernetes.io/instance-type';

/** The capacity of the pool's NodeClaims (their instance type's, which Karpenter labels each claim with). */
export function poolUsage(kube: KubeState, pool: string): PoolUsage {
  const usage: PoolUsage = { cpuMillis: 0, memoryBytes: 0, nodes: 0 };
  for (const [, claim] of storedOfKind(kube, 'karpenter.sh', 'NodeClaim')) {
    const labels = (metaOf(claim.obj).labels ?? {}) as Record<string, string>;
    if (labels[NODEPOOL_LABEL] !== pool) continue;
    const capacity = capacityOf(labels[INSTANCE_TYPE_LABEL] ?? '');
    usage.cpuMillis += capacity.cpuMillis;
    usage.memoryBytes += capacity.memoryBytes;
    usage.nodes += 1;
  }
  return usage;
}

/** Whether one more node of `instanceType` keeps the pool within its limits; the usage grows by it when it does. */
export function takeWithinLimits(pool: Json, usage: PoolUsage, instanceType: string): boolean {
  const limits = specOf(pool).limits as Record<string, unknown> | undefined;
  if (!limits || typeof limits !== 'object') return true;
  const add = capacityOf(instanceType);
  const bound = resourcesOf(limits);
  const nodes = limits.nodes !== undefined ? Number(limits.nodes) : undefined;
  if (limits.cpu !== undefined && usage.cpuMillis + add.cpuMillis > bound.cpuMillis) return false;
  if (limits.memory !== undefined && usage.memoryBytes + add.memoryBytes > bound.memoryBytes) return false;
  if (nodes !== undefined && Number.isFinite(nodes) && usage.nodes + 1 > nodes) return false;
  usage.cpuMillis += add.cpuMillis;
  usage.memoryBytes += add.memoryBytes;
  usage.nodes += 1;
  return true;
}

/** Karpenter's `status.resources` of the NodePool, written when it changed. */
export function recordUsage(ctx: SimContext, kube: KubeState, stored: StoredObject, usage: PoolUsage): void {
  const resources = {
    cpu: `${usage.cpuMillis / 1000}`,
    memory: `${Math.round(usage.memoryBytes / 1024)}Ki`,
    nodes: `${usage.nodes}`,
  };
  const status = (stored.obj.status ?? {}) as Json;
  if (JSON.stringify(status.resources) === JSON.stringify(resources)) return;
  stored.obj = { ...stored.obj, status: { ...status, resources } };
  ctx.dirty.add(kube.clusterId);
}

/**
 * What the API server refuses of a NodePool's `spec.limits` (Karpenter's CRD schema: a map of resource quantities,
 * int or string, each matching the quantity pattern): the message of its 422, or undefined when they are valid.
 */
export function invalidNodePoolLimits(object: Json): string | undefined {
  const limits = specOf(object).limits;
  if (limits === undefined) return undefined;
  const name = String(metaOf(object).name);
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits))
    return `NodePool.karpenter.sh "${name}" is invalid: spec.limits: Invalid value: must be a map of quantities`;
  for (const [resource, value] of Object.entries(limits as Record<string, unknown>)) {
    const valid =
      (typeof value === 'number' && Number.isInteger(value) && value >= 0) ||
      (typeof value === 'string' && isQuantity(value));
    if (!valid)
      return `NodePool.karpenter.sh "${name}" is invalid: spec.limits.${resource}: Invalid value: ${JSON.stringify(value)}: must be a quantity (e.g. 100, 500m, 64Gi)`;
  }
  return undefined;
}

function isQuantity(text: string): boolean {
  try {
    parseQuantity(text);
    return true;
  } catch {
    return false;
  }
}
