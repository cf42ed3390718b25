import type { Cluster } from '../model/cluster';
import type { NodeInfo } from '../../ports/kube-cluster';
import type { RenewalReason } from '../rollout/pool-snapshot';
import { inheritConfigItems } from '../config/effective-config-items';
import { clusterRepairCap, renewalSettings } from './renewal-settings';
import { karpenterNote, renewalReason, repairHeldBack } from './renew-nodes';
import { poolOfNode } from './unhealthy-nodes';

/**
 * The cheap look the scheduled pass (and a run that finds its cluster up to date) takes: from one listing of the
 * cluster's nodes, which are due for repair or by age — the same rules and caps the roll applies
 * (renew-nodes.ts) — and why repairs are held back. Pools are told apart by their nodes' labels. Pure.
 */
export interface NodesDue {
  readonly due: readonly { readonly pool: string; readonly node: string; readonly reason: RenewalReason }[];
  /** A cap holds repairs back, or Karpenter repairs a pool itself: one line each. */
  readonly notes: readonly string[];
}

export function nodesDue(
  cluster: Pick<Cluster, 'id' | 'configItems' | 'nodePools'>,
  nodes: readonly NodeInfo[],
  now: number,
): NodesDue {
  const clusterCap = clusterRepairCap(cluster.configItems, cluster.id);
  const due: { pool: string; node: string; reason: RenewalReason }[] = [];
  const notes: string[] = [];
  for (const pool of cluster.nodePools) {
    const settings = renewalSettings(pool, inheritConfigItems(cluster.configItems, pool.configItems), cluster.id);
    const poolNodes = nodes.filter((n) => poolOfNode(n) === pool.name);
    const found = poolNodes.flatMap((n) => {
      const reason = renewalReason(n, settings, now);
      return reason ? [{ pool: pool.name, node: n.name, reason }] : [];
    });
    const repairs = found.some((f) => f.reason === 'repair');
    const held = repairs
      ? settings.leftToKarpenter
        ? karpenterNote(pool.name)
        : repairHeldBack(pool.name, poolNodes, { settings, clusterCap, clusterNodes: nodes }, now)
      : undefined;
    if (held) notes.push(held.startsWith('node repair') ? held : `node repair of pool ${pool.name}: ${held}`);
    due.push(...found.filter((f) => f.reason !== 'repair' || !held));
  }
  return { due, notes };
}

/** `3 node(s) due: 2 repair, 1 age (pools default-worker, stateful)`. */
export function describeDue(found: NodesDue['due']): string {
  const by = (reason: RenewalReason) => found.filter((f) => f.reason === reason).length;
  const kinds = (['repair', 'age'] as const).filter((r) => by(r) > 0).map((r) => `${by(r)} ${r}`);
  const pools = [...new Set(found.map((f) => f.pool))].join(', ');
  return `${found.length} node(s) due: ${kinds.join(', ')} (pools ${pools})`;
}
