import type { FleetEvent } from '../../contracts/fleet-events';
import type { Cluster, Problem } from '../model/cluster';
import { GENERAL_ERROR_TYPE } from '../status/problems';
import { applyOutcome, nextAttemptAt } from './execution-record';
import type { FleetSettings } from './fleet-settings';
import type { ClusterFleetState, ExecutionOutcome, ExecutionRecord } from './fleet-state';

export interface Reconciled {
  /** Every cluster's state after the outcomes (unchanged ones included). */
  readonly states: ReadonlyMap<string, ClusterFleetState>;
  readonly changed: readonly ClusterFleetState[];
  readonly events: readonly FleetEvent[];
  readonly problems: readonly { readonly clusterId: string; readonly problem: Problem }[];
  /** Records still running afterwards. */
  readonly stillRunning: number;
}

/**
 * Fold what the execution service reports into the records of running executions: a success clears the
 * failures, an ending short of the target counts one more with its cause, and each ending is announced
 * (ClusterUpdateSucceeded / ClusterUpdateFailed, the latter also as a problem on the cluster naming when
 * the next attempt comes).
 */
export function reconcileFleet(input: {
  readonly clusters: readonly Cluster[];
  readonly fleet: { readonly clusters: ReadonlyMap<string, ClusterFleetState> };
  readonly outcomes: ReadonlyMap<string, ExecutionOutcome>;
  readonly settings: FleetSettings;
  readonly now: number;
}): Reconciled {
  const byId = new Map(input.clusters.map((c) => [c.id, c]));
  const states = new Map(input.fleet.clusters);
  const changed: ClusterFleetState[] = [];
  const events: FleetEvent[] = [];
  const problems: { clusterId: string; problem: Problem }[] = [];
  let stillRunning = 0;
  for (const state of input.fleet.clusters.values()) {
    const record = state.execution;
    if (record?.state !== 'running') continue;
    const cluster = byId.get(state.clusterId);
    const outcome = input.outcomes.get(record.name);
    // An execution that took the cluster to a newer version than it was started for (a push landed meanwhile, and
    // its Prepare resolved the channel to it) got the cluster where it should be: that is no failure.
    const current = cluster?.status.currentVersion;
    const reached =
      record.action === 'decommission'
        ? !cluster || cluster.lifecycleStatus === 'decommissioned'
        : current === record.targetVersion || (outcome?.ranTo !== undefined && current === outcome.ranTo);
    const next = applyOutcome(record, outcome, reached, input.now);
    if (next === record) {
      stillRunning++;
      continue;
    }
    const updated = { ...state, execution: next };
    states.set(state.clusterId, updated);
    changed.push(updated);
    if (next.state === 'succeeded' && !next.lastFailure) {
      events.push({ type: 'ClusterUpdateSucceeded', detail: executionDetail(state.clusterId, next) });
      continue;
    }
    const due = nextAttemptAt(next, input.settings);
    events.push(failedEvent(state.clusterId, next, due));
    problems.push({ clusterId: state.clusterId, problem: failureProblem(next, due) });
  }
  return { states, changed, events, problems, stillRunning };
}

export function executionDetail(clusterId: string, record: ExecutionRecord) {
  return {
    clusterId,
    action: record.action,
    targetVersion: record.targetVersion,
    previousVersion: record.previousVersion,
    executionName: record.name,
    ...(record.arn ? { executionArn: record.arn } : {}),
    attempt: record.attempt,
  };
}

function failedEvent(clusterId: string, record: ExecutionRecord, due: number | undefined): FleetEvent {
  const failure = record.lastFailure!;
  return {
    type: 'ClusterUpdateFailed',
    detail: {
      ...executionDetail(clusterId, record),
      error: failure.error,
      ...(failure.cause ? { cause: failure.cause } : {}),
      retryable: failure.retryable,
      failures: record.failures,
      ...(due !== undefined ? { nextAttemptAt: due } : {}),
    },
  };
}

function failureProblem(record: ExecutionRecord, due: number | undefined): Problem {
  const failure = record.lastFailure!;
  const when =
    due === undefined
      ? ''
      : due <= failure.at
        ? '; resuming at once'
        : `; next attempt after ${new Date(due).toISOString()}`;
  return {
    type: GENERAL_ERROR_TYPE,
    title: `${record.action} to ${record.targetVersion} ended with ${failure.error} (execution ${record.name}, failure ${record.failures})${when}`,
    ...(failure.cause ? { detail: failure.cause } : {}),
    instance: record.arn ?? record.name,
  };
}
