import { RETRYABLE_ERROR_NAMES } from '../../shared/errors';
import type { FleetSettings } from './fleet-settings';
import type { ExecutionOutcome, ExecutionRecord, ExecutionState } from './fleet-state';

/** Errors after which the same execution, resumed unchanged, may well succeed. */
const RETRYABLE_EXECUTION_ERRORS = new Set<string>([
  ...RETRYABLE_ERROR_NAMES,
  'States.Timeout',
  'States.HeartbeatTimeout',
  'TIMED_OUT',
  'ABORTED',
  'ExecutionNotFound',
  'NoProgress',
]);

/** True for throttling, timeouts, aborts and Lambda service errors; false for config, render and stack failures. */
export function isRetryableFailure(error: string): boolean {
  return RETRYABLE_EXECUTION_ERRORS.has(error) || error.startsWith('Lambda.');
}

const ENDED: Record<Exclude<ExecutionOutcome['status'], 'RUNNING' | 'PENDING_REDRIVE'>, ExecutionState> = {
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
  TIMED_OUT: 'timed-out',
  ABORTED: 'aborted',
  NOT_FOUND: 'failed',
};

/**
 * The record after what the execution service reports. A running record whose execution ended becomes
 * succeeded (cluster at its target: failures cleared) or one failure more, with why. `reachedTarget` says
 * whether the cluster is where the execution was to take it (for a decommission: decommissioned or gone);
 * an execution that succeeded without getting there (Prepare skipped: a lease, a pause) counts as a
 * retryable failure, so it is resumed a few times and then backed off like any other.
 */
export function applyOutcome(
  record: ExecutionRecord,
  outcome: ExecutionOutcome | undefined,
  reachedTarget: boolean,
  now: number,
): ExecutionRecord {
  if (record.state !== 'running' || !outcome || outcome.status === 'RUNNING' || outcome.status === 'PENDING_REDRIVE') {
    return record;
  }
  const endedAt = outcome.stoppedAt ?? now;
  const state = ENDED[outcome.status];
  if (state === 'succeeded' && reachedTarget) {
    const { lastFailure: _cleared, ...rest } = record;
    return { ...rest, state, endedAt, failures: 0 };
  }
  if (outcome.status === 'SUCCEEDED' && outcome.handedOver) {
    // Not a failure: the update goes on in the next execution, at once and without counting towards a back-off.
    const cause = `execution ${record.name} handed over at a loop cap; the next one continues`;
    return { ...record, state, endedAt, lastFailure: { error: 'HandedOver', cause, retryable: true, at: endedAt } };
  }
  const error =
    outcome.status === 'SUCCEEDED'
      ? 'NoProgress'
      : outcome.status === 'NOT_FOUND'
        ? 'ExecutionNotFound'
        : (outcome.error ?? outcome.status);
  const cause =
    outcome.status === 'SUCCEEDED'
      ? `execution ${record.name} ended without bringing the cluster to ${record.targetVersion}`
      : outcome.status === 'NOT_FOUND'
        ? `execution ${record.name} does not exist`
        : outcome.cause;
  return {
    ...record,
    state,
    endedAt,
    failures: record.failures + 1,
    lastFailure: { error, ...(cause ? { cause } : {}), retryable: isRetryableFailure(error), at: endedAt },
  };
}

/**
 * When the next attempt at the record's target may start: at once for the first `freeResumes` dead
 * executions, else after `retryBaseMs × 2^(n-1)` (capped at `retryMaxMs`), n counting the failures that
 * are not free. Undefined while it runs or after a success.
 */
export function nextAttemptAt(record: ExecutionRecord, settings: FleetSettings): number | undefined {
  if (record.state === 'running' || !record.lastFailure) return undefined;
  const ended = record.endedAt ?? record.lastFailure.at;
  const free = record.lastFailure.retryable ? settings.freeResumes : 0;
  const counted = record.failures - free;
  if (counted <= 0) return ended;
  const delay = Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.min(counted - 1, 40));
  return ended + delay;
}

/**
 * A failure that holds the later waves back: a terminal error, or dead executions beyond the free
 * resumes, at the target the cluster still has.
 */
export function holdsWaves(
  record: ExecutionRecord | undefined,
  targetVersion: string,
  settings: FleetSettings,
): boolean {
  if (!record?.lastFailure || record.targetVersion !== targetVersion) return false;
  return !record.lastFailure.retryable || record.failures > settings.freeResumes;
}

/** A dead execution Step Functions can redrive from where it stopped (else a new one resumes from the stored progress). */
export function isResumable(record: ExecutionRecord): boolean {
  return record.state !== 'running' && record.state !== 'succeeded' && record.lastFailure?.retryable === true;
}
