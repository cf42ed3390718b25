import type { Cluster, ConfigItems, NodePool } from '../../core/model/cluster';
import type { RunRecord } from '../../core/model/run';
import { renewNodes, type Renewal } from '../../core/node-renewal/renew-nodes';
import { clusterRepairCap, renewalSettings, type RenewalSettings } from '../../core/node-renewal/renewal-settings';
import type { PoolSnapshot } from '../../core/rollout/pool-snapshot';
import type { NodeInfo } from '../../ports/kube-cluster';

/**
 * The pool as the roll sees it once node renewal is folded in (core/node-renewal/renew-nodes.ts): a forced roll of
 * this run, `node_max_age` and `node_repair` mark nodes outdated. A pool being removed goes as a whole anyway.
 */
export function renewPool(
  observed: PoolSnapshot,
  context: {
    readonly cluster: Pick<Cluster, 'id'>;
    readonly clusterItems: ConfigItems;
    readonly pool: NodePool;
    readonly items: ConfigItems;
    readonly nodes: readonly NodeInfo[];
    readonly run: Pick<RunRecord, 'nodeRoll' | 'pools'>;
  },
  now: number,
): Renewal & { readonly settings: RenewalSettings } {
  const { cluster, pool, run } = context;
  const settings = renewalSettings(pool, context.items, cluster.id);
  const forced = run.nodeRoll?.kind === 'force' && (!run.nodeRoll.pools || run.nodeRoll.pools.includes(pool.name));
  const stored = run.pools[pool.name]?.nodes ?? {};
  const renewal = renewNodes(
    observed,
    {
      pool: pool.name,
      settings,
      clusterCap: clusterRepairCap(context.clusterItems, cluster.id),
      clusterNodes: context.nodes,
      ...(forced ? { forcedBefore: run.nodeRoll!.requestedAt } : {}),
      inRoll: (id) => stored[id] !== undefined && stored[id]!.state !== 'terminated' && stored[id]!.surplus !== true,
    },
    now,
  );
  return { ...renewal, settings };
}

/** Every node the roll replaces is replaced for repair, and the pool may repair outside the maintenance windows. */
export function repairOutsideWindows(snapshot: PoolSnapshot, settings: RenewalSettings): boolean {
  const outdated = snapshot.nodes.filter((n) => n.outdated);
  return settings.outsideWindows && outdated.length > 0 && outdated.every((n) => n.renewal === 'repair');
}
