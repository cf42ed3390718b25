import type { NodeInfo } from '../../ports/kube-cluster';
import type { PoolNode, PoolSnapshot, RenewalReason } from '../rollout/pool-snapshot';
import { formatAge } from './age-duration';
import { capExceeded, type RepairCap } from './repair-cap';
import type { RenewalSettings } from './renewal-settings';
import { isUnhealthy, nodeAge } from './unhealthy-nodes';

/**
 * Which nodes of a pool a roll replaces although their launch template is current: a forced roll's (registered before
 * it was asked for), those older than `node_max_age`, and unhealthy ones (`node_repair`) while the caps hold. They are
 * marked outdated in the snapshot, so the one safe roll (surge, drain, terminate, replacement in the same zone, health
 * gate) replaces them. Pure.
 */

export interface RenewalInputs {
  readonly pool: string;
  readonly settings: RenewalSettings;
  /** The cluster's own cap, over every node of the cluster. */
  readonly clusterCap: RepairCap;
  /** Every node of the cluster (the cluster-wide cap counts them). */
  readonly clusterNodes: readonly NodeInfo[];
  /** A forced roll of this pool asked for at this time: every node registered before it goes, once. */
  readonly forcedBefore?: number;
  /** Nodes this roll already took in (they stay outdated, even when a repaired node turns Ready again). */
  readonly inRoll?: (instanceId: string) => boolean;
}

export interface Renewal {
  readonly snapshot: PoolSnapshot;
  /** Why unhealthy nodes are not repaired (a cap exceeded), or that Karpenter repairs them: for the problems. */
  readonly notes: readonly string[];
}

/** Why one node is due, before the caps: forced, too old, or unhealthy. */
export function renewalReason(
  node: NodeInfo,
  settings: RenewalSettings,
  now: number,
  forcedBefore?: number,
): RenewalReason | undefined {
  const created = Date.parse(node.createdAt);
  if (forcedBefore !== undefined && !Number.isNaN(created) && created < forcedBefore) return 'forced';
  const age = nodeAge(node, now);
  if (settings.maxAgeMs !== undefined && age !== undefined && age >= settings.maxAgeMs) return 'age';
  if (settings.repair && isUnhealthy(node, settings.repairAfterMs, now)) return 'repair';
  return undefined;
}

/** The repair is held back: why (a cap), or undefined. */
export function repairHeldBack(
  pool: string,
  poolNodes: readonly NodeInfo[],
  inputs: Pick<RenewalInputs, 'settings' | 'clusterCap' | 'clusterNodes'>,
  now: number,
): string | undefined {
  const after = inputs.settings.repairAfterMs;
  const unhealthy = (nodes: readonly NodeInfo[]) => nodes.filter((n) => isUnhealthy(n, after, now)).length;
  return capExceeded([
    { name: `pool ${pool}`, unhealthy: unhealthy(poolNodes), total: poolNodes.length, cap: inputs.settings.cap },
    {
      name: 'cluster',
      unhealthy: unhealthy(inputs.clusterNodes),
      total: inputs.clusterNodes.length,
      cap: inputs.clusterCap,
    },
  ]);
}

export function renewNodes(snapshot: PoolSnapshot, inputs: RenewalInputs, now: number): Renewal {
  const { settings } = inputs;
  const poolNodes = snapshot.nodes.flatMap((n) => (n.node ? [n.node] : []));
  const reasons = new Map<string, RenewalReason>();
  for (const n of snapshot.nodes) {
    if (n.outdated || !n.node) continue;
    const reason = renewalReason(n.node, settings, now, inputs.forcedBefore);
    if (reason) reasons.set(n.instanceId, reason);
  }
  const notes: string[] = [];
  const wantsRepair = [...reasons.values()].includes('repair');
  if (wantsRepair && settings.leftToKarpenter) notes.push(karpenterNote(inputs.pool));
  const capped =
    wantsRepair && !settings.leftToKarpenter ? repairHeldBack(inputs.pool, poolNodes, inputs, now) : undefined;
  if (capped) notes.push(`node repair of pool ${inputs.pool}: ${capped}`);
  const skipRepair = settings.leftToKarpenter || capped !== undefined;
  const nodes = snapshot.nodes.map((n): PoolNode => {
    const reason = reasons.get(n.instanceId);
    const kept = !n.outdated && inputs.inRoll?.(n.instanceId) === true;
    if (reason && !(reason === 'repair' && skipRepair)) return { ...n, outdated: true, renewal: reason };
    return kept ? { ...n, outdated: true } : n;
  });
  return { snapshot: { ...snapshot, nodes }, notes };
}

export function karpenterNote(pool: string): string {
  return `node repair of pool ${pool} is left to Karpenter (NodeRepair=true in karpenter_feature_gates): CLM does not replace its unhealthy nodes`;
}

/** `age 31d2h > node_max_age 30d` and the like, for the roll's message. */
export function describeRenewal(reason: RenewalReason, node: NodeInfo, settings: RenewalSettings, now: number): string {
  if (reason === 'forced') return `${node.name}: forced roll`;
  if (reason === 'age')
    return `${node.name}: age ${formatAge(nodeAge(node, now) ?? 0)} ≥ node_max_age ${formatAge(settings.maxAgeMs ?? 0)}`;
  return `${node.name}: NotReady (${node.notReadyReason ?? 'no reason'}) ≥ node_repair_after ${formatAge(settings.repairAfterMs)}`;
}
