import type { FleetEvent } from '../../contracts/fleet-events';
import type { Problem } from '../model/cluster';
import { BLOCKING_REASONS } from './assess-cluster';
import { blockedEvent } from './fleet-events';
import type { ClusterFleetState } from './fleet-state';
import type { Assessed, DispatchInput, SkippedCluster } from './plan-dispatch';

/**
 * ClusterUpdateBlocked (and, for a target error, a problem on the cluster) once per new reason and target;
 * an in-scope cluster no longer blocked forgets its reason.
 */
export function announceBlocks(
  input: Pick<DispatchInput, 'scope'>,
  states: ReadonlyMap<string, ClusterFleetState>,
  skipped: readonly SkippedCluster[],
  assessed: readonly Assessed[],
): { changed: ClusterFleetState[]; events: FleetEvent[]; problems: { clusterId: string; problem: Problem }[] } {
  const blockedNow = new Map(skipped.filter((s) => BLOCKING_REASONS.has(s.reason)).map((s) => [s.clusterId, s]));
  const changed: ClusterFleetState[] = [];
  const events: FleetEvent[] = [];
  const problems: { clusterId: string; problem: Problem }[] = [];
  for (const { cluster, assessment } of assessed) {
    const state = states.get(cluster.id) ?? { clusterId: cluster.id, revision: 0 };
    const skip = blockedNow.get(cluster.id);
    const key = skip ? `${skip.reason}@${skip.targetVersion ?? ''}` : undefined;
    if (key === state.blocked) continue;
    if (skip) {
      changed.push({ ...state, blocked: key });
      events.push(blockedEvent(cluster, skip));
      if (assessment.kind === 'skip' && assessment.problem)
        problems.push({ clusterId: cluster.id, problem: assessment.problem });
    } else if (!input.scope || input.scope.has(cluster.id)) {
      const { blocked: _cleared, ...rest } = state;
      changed.push(rest);
    }
  }
  return { changed, events, problems };
}
