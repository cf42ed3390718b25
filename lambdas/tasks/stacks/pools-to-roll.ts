import type { Cluster } from '../../core/model/cluster';
import { clusterRef } from '../../core/model/cluster-ref';
import type { RunRecord } from '../../core/model/run';
import { isGoneInstance } from '../../core/rollout/pool-snapshot';
import type { ClusterPorts } from '../../ports/ports';
import { renewalConfigured } from '../../core/node-renewal/renewal-settings';

/**
 * Of the pools RenderClusterResources would roll, those with something to roll once their stacks are deployed: an
 * outdated instance (a node a human cordoned is rolled only when outdated, core/rollout/plan-roll-step.ts), a group
 * still marked by an unfinished roll (its surge to take back, core/rollout/pre-roll-size.ts), or a roll of this run
 * not finished (nodes added for same-zone pairing still to take back). The others get no rollout child: for a pool
 * with nothing to roll the Map iteration and the child execution cost six state transitions for one look that finds
 * nothing. Reads the Auto Scaling groups only (no Kubernetes access, so no cluster token). A pool this run's node roll
 * names (a forced roll, or a run renewing nodes) or whose nodes may be due by age or for repair is rolled without that
 * look: its roll step decides from the nodes (core/node-renewal). `cluster` carries its effective config items (the
 * rendered ones, config-defaults.yaml's included), so a default asking for repair or an age counts.
 */
export async function poolsToRoll(
  cp: Pick<ClusterPorts, 'pools'>,
  cluster: Cluster,
  candidates: readonly string[],
  run: Pick<RunRecord, 'pools' | 'nodeRoll'>,
): Promise<string[]> {
  const roll: string[] = [];
  for (const name of candidates) {
    const progress = run.pools[name];
    if ((progress && progress.status !== 'done') || renewsNodes(cluster, name, run)) {
      roll.push(name);
      continue;
    }
    const state = await cp.pools.getPool(clusterRef(cluster), name);
    const outdated = state?.instances.some((i) => i.outdated && !isGoneInstance(i));
    // A group still marked by a roll (of an earlier run) carries its surge: the roll takes it back.
    if (outdated || state?.groups.some((g) => g.preRoll)) roll.push(name);
  }
  return roll;
}

/** The run's forced roll names the pool, or the pool asks for node repair or a maximum age. */
function renewsNodes(cluster: Cluster, name: string, run: Pick<RunRecord, 'nodeRoll'>): boolean {
  const forced = run.nodeRoll?.kind === 'force' && (!run.nodeRoll.pools || run.nodeRoll.pools.includes(name));
  const pool = cluster.nodePools.find((p) => p.name === name);
  return forced || (pool !== undefined && renewalConfigured(cluster.configItems, [pool]));
}
