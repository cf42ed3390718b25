import type { Cluster, ConfigItems, NodePool } from '../../core/model/cluster';
import type { PoolProgress, RunRecord } from '../../core/model/run';
import { renewNodes, type Renewal } from '../../core/node-renewal/renew-nodes';
import { isRepairRoll } from '../../core/node-renewal/repair-roll';
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

/**
 * The pool may repair outside the maintenance windows and its roll is a repair roll (core/node-renewal/repair-roll.ts:
 * every node it replaces is replaced for repair; its own extra nodes are taken back as part of it).
 */
export function repairOutsideWindows(
  snapshot: PoolSnapshot,
  progress: PoolProgress | undefined,
  settings: RenewalSettings,
): boolean {
  return settings.outsideWindows && isRepairRoll(snapshot, progress);
}
