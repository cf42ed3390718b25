import type { FleetEvent } from '../../contracts/fleet-events';
import { executionName } from './execution-name';
import type { ClusterFleetState, ExecutionRecord } from './fleet-state';
import type { PlannedStart } from './plan-dispatch';
import { executionDetail } from './reconcile-fleet';

/** What starting (or redriving) one planned execution gave. */
export interface StartResult {
  readonly name: string;
  readonly arn?: string;
  /** `already-running`: another pass started the same name first; nothing new runs. */
  readonly how: 'started' | 'redriven' | 'already-running';
}

/**
 * The cluster's state after its planned execution started, and the ClusterUpdateStarted event. Failures
 * at the same target are kept (they count towards back-off and hold the waves until a success clears them);
 * a new target starts the count afresh.
 */
export function recordStart(
  start: PlannedStart,
  result: StartResult,
  state: ClusterFleetState | undefined,
  now: number,
): { state: ClusterFleetState; event: FleetEvent } {
  const previous = state?.execution;
  const sameTarget = previous?.targetVersion === start.targetVersion && previous.action === start.action;
  const record: ExecutionRecord = {
    action: start.action,
    targetVersion: start.targetVersion,
    previousVersion: start.previousVersion,
    name: result.name,
    ...(result.arn ? { arn: result.arn } : {}),
    attempt: start.attempt,
    startedAt: now,
    state: 'running',
    failures: sameTarget ? previous.failures : 0,
    ...(sameTarget && previous.lastFailure ? { lastFailure: previous.lastFailure } : {}),
  };
  const { blocked: _cleared, ...rest } = state ?? { clusterId: start.clusterId, revision: 0 };
  return {
    state: { ...rest, execution: record },
    event: {
      type: 'ClusterUpdateStarted',
      detail: {
        ...executionDetail(start.clusterId, record),
        wave: start.wave,
        trigger: start.input.trigger,
        resumed: result.how === 'redriven',
      },
    },
  };
}

/**
 * The same start under the next attempt's name, for when Step Functions says the name is taken by an
 * execution that has already ended (names cannot be reused for 90 days): e.g. a cluster that went back to
 * a version it had before.
 */
export function withNextAttempt(start: PlannedStart): PlannedStart {
  const attempt = start.attempt + 1;
  const { resume: _dropped, ...rest } = start;
  return {
    ...rest,
    attempt,
    executionName: executionName({
      clusterId: start.clusterId,
      localId: start.localId,
      action: start.action,
      targetVersion: start.targetVersion,
      attempt,
    }),
  };
}
