import { booleanItem } from '../config/boolean-item';
import type { Cluster, ConfigItems } from '../model/cluster';
import type { NodeRollRequest } from '../model/run';

/**
 * Does a run skip the maintenance-window wait before its first write? Only a renewal run (nodes found due by the
 * scheduled pass, at the version the cluster already runs) of a cluster where some pool may be repaired outside the
 * windows (`node_repair_outside_windows: "true"`, the cluster's item or a pool's). Such a run changes no stack; its roll
 * gate then lets only repair-only rolls of those pools go on and holds every other replacement (aged nodes, pools
 * without the item) until a window opens.
 */
export function repairRunsAnytime(
  nodeRoll: NodeRollRequest | undefined,
  cluster: Pick<Cluster, 'id' | 'nodePools'>,
  items: ConfigItems,
): boolean {
  if (nodeRoll?.kind !== 'renew') return false;
  const levels = [items, ...cluster.nodePools.map((pool) => ({ ...items, ...pool.configItems }))];
  return levels.some((level) => booleanItem(level, 'node_repair_outside_windows', cluster.id));
}
