import {
  applyOutcome,
  holdsWaves,
  isResumable,
  isRetryableFailure,
  nextAttemptAt,
} from '../../../lambdas/core/dispatch/execution-record';
import { record, settings } from './fleet-fixtures';

const MIN = 60_000;
const fleet = settings({ retryBaseMs: 15 * MIN, retryMaxMs: 60 * MIN, freeResumes: 2 });

describe('applyOutcome', () => {
  const running = record({ name: 'u-1' });

  it('leaves a record alone while its execution runs or is not described', () => {
    expect(applyOutcome(running, { name: 'u-1', status: 'RUNNING' }, false, 5)).toBe(running);
    expect(applyOutcome(running, { name: 'u-1', status: 'PENDING_REDRIVE' }, false, 5)).toBe(running);
    expect(applyOutcome(running, undefined, false, 5)).toBe(running);
  });

  it('clears failures on a success that reached the target', () => {
    const retried = record({ failures: 2, lastFailure: { error: 'ConfigError', retryable: false, at: 1 } });
    expect(applyOutcome(retried, { name: 'u-1', status: 'SUCCEEDED', stoppedAt: 9 }, true, 10)).toEqual({
      ...record({ failures: 0 }),
      state: 'succeeded',
      endedAt: 9,
    });
  });

  it('takes a hand-over at a loop cap as a resume at once, never counted as a failure', () => {
    // Arrange: two dead executions already, as many as the free resumes
    const twice = record({ name: 'u-1', failures: 2, lastFailure: { error: 'TIMED_OUT', retryable: true, at: 1 } });

    // Act
    const handed = applyOutcome(twice, { name: 'u-1', status: 'SUCCEEDED', stoppedAt: 9, handedOver: true }, false, 10);
    const noProgress = applyOutcome(twice, { name: 'u-1', status: 'SUCCEEDED', stoppedAt: 9 }, false, 10);

    // Assert
    expect(handed).toMatchObject({
      state: 'succeeded',
      failures: 2,
      lastFailure: { error: 'HandedOver', retryable: true },
    });
    expect(nextAttemptAt(handed, fleet)).toBe(9);
    expect(noProgress).toMatchObject({ failures: 3, lastFailure: { error: 'NoProgress' } });
    expect(nextAttemptAt(noProgress, fleet)).toBe(9 + 15 * MIN);
  });

  it('counts a terminal failure with its error and cause', () => {
    const failed = applyOutcome(
      running,
      {
        name: 'u-1',
        status: 'FAILED',
        stoppedAt: 9,
        error: 'StackFailedError',
        cause: 'Stack kube-1 is UPDATE_ROLLBACK_COMPLETE',
      },
      false,
      10,
    );
    expect(failed).toMatchObject({
      state: 'failed',
      endedAt: 9,
      failures: 1,
      lastFailure: {
        error: 'StackFailedError',
        cause: 'Stack kube-1 is UPDATE_ROLLBACK_COMPLETE',
        retryable: false,
        at: 9,
      },
    });
  });

  it.each([
    ['TIMED_OUT', 'timed-out', 'TIMED_OUT'],
    ['ABORTED', 'aborted', 'ABORTED'],
    ['NOT_FOUND', 'failed', 'ExecutionNotFound'],
    ['SUCCEEDED', 'succeeded', 'NoProgress'],
  ] as const)('counts %s without reaching the target as a retryable failure', (status, state, error) => {
    expect(applyOutcome(running, { name: 'u-1', status }, false, 10)).toMatchObject({
      state,
      endedAt: 10,
      failures: 1,
      lastFailure: { error, retryable: true },
    });
  });

  it('counts a failure on a retryable error (retries exhausted inside the state machine) as retryable', () => {
    expect(applyOutcome(running, { name: 'u-1', status: 'FAILED', error: 'ThrottledError' }, false, 10)).toMatchObject({
      lastFailure: { retryable: true },
    });
    expect(isRetryableFailure('Lambda.ServiceException')).toBe(true);
    expect(isRetryableFailure('States.Timeout')).toBe(true);
    expect(isRetryableFailure('ConfigError')).toBe(false);
    expect(isRetryableFailure('States.Runtime')).toBe(false);
  });
});

describe('back-off', () => {
  const ended = (failures: number, retryable: boolean) =>
    record({
      state: 'failed',
      endedAt: 0,
      failures,
      lastFailure: { error: retryable ? 'TIMED_OUT' : 'ConfigError', retryable, at: 0 },
    });

  it('resumes dead executions at once a few times, then backs off', () => {
    expect([1, 2, 3, 4, 5].map((n) => nextAttemptAt(ended(n, true), fleet))).toEqual([
      0,
      0,
      15 * MIN,
      30 * MIN,
      60 * MIN,
    ]);
  });

  it('backs off terminal failures from the first, doubling up to the cap', () => {
    expect([1, 2, 3, 4, 9].map((n) => nextAttemptAt(ended(n, false), fleet))).toEqual([
      15 * MIN,
      30 * MIN,
      60 * MIN,
      60 * MIN,
      60 * MIN,
    ]);
  });

  it('has no next attempt while running or after a success', () => {
    expect(nextAttemptAt(record(), fleet)).toBeUndefined();
    expect(nextAttemptAt(record({ state: 'succeeded', endedAt: 5 }), fleet)).toBeUndefined();
  });

  it('holds the waves for terminal failures and for dead executions beyond the free resumes, at that target only', () => {
    expect(holdsWaves(ended(1, false), record().targetVersion, fleet)).toBe(true);
    expect(holdsWaves(ended(1, false), 'another#target', fleet)).toBe(false);
    expect(holdsWaves(ended(2, true), record().targetVersion, fleet)).toBe(false);
    expect(holdsWaves(ended(3, true), record().targetVersion, fleet)).toBe(true);
    expect(holdsWaves(undefined, 'x', fleet)).toBe(false);
  });

  it('redrives only dead executions', () => {
    expect(isResumable(ended(1, true))).toBe(true);
    expect(isResumable(ended(1, false))).toBe(false);
    expect(isResumable(record())).toBe(false);
  });
});
