import type { Cluster } from '../../core/model/cluster';
import { clusterRef } from '../../core/model/cluster-ref';
import type { RunRecord } from '../../core/model/run';
import { isGoneInstance } from '../../core/rollout/pool-snapshot';
import type { ClusterPorts } from '../../ports/ports';

/**
 * Of the pools RenderClusterResources would roll, those with something to roll once their stacks are deployed: an
 * outdated instance (a node a human cordoned is rolled only when outdated, core/rollout/plan-roll-step.ts), a group
 * still marked by an unfinished roll (its surge to take back, core/rollout/pre-roll-size.ts), or a roll of this run
 * not finished (nodes added for same-zone pairing still to take back). The others get no rollout child: for a pool
 * with nothing to roll the Map iteration and the child execution cost six state transitions for one look that finds
 * nothing. Reads the Auto Scaling groups only (no Kubernetes access, so no cluster token).
 */
export async function poolsToRoll(
  cp: Pick<ClusterPorts, 'pools'>,
  cluster: Cluster,
  candidates: readonly string[],
  run: Pick<RunRecord, 'pools'>,
): Promise<string[]> {
  const roll: string[] = [];
  for (const name of candidates) {
    const progress = run.pools[name];
    if (progress && progress.status !== 'done') {
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
