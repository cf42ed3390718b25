// Error handling in both ASL files: the error names they catch and retry, Retry and Catch on every task, failing
// with the original error.
import { ERROR_NAMES, RETRYABLE_ERROR_NAMES } from '../../lambdas/shared/errors';
import { MACHINES, lambdaTasks, ofType, states } from './asl-graph';

import { LAMBDA_SERVICE_ERRORS, LAMBDA_TIMEOUT_ERRORS, SFN_SERVICE_ERRORS, STATES_ERRORS } from './asl-vocabulary';

describe.each(MACHINES)('ASL %s', (key) => {
  it('names only exported errors, States.*, Lambda.* or StepFunctions.* in ErrorEquals', () => {
    const ours = new Set<string>(Object.values(ERROR_NAMES));
    const names = states(key).flatMap(({ state }) =>
      [...(state.Retry ?? []), ...(state.Catch ?? [])].flatMap((r) => r.ErrorEquals),
    );
    expect(names.length).toBeGreaterThan(0);
    const unknown = names.filter(
      (name) =>
        !ours.has(name) &&
        !STATES_ERRORS.includes(name) &&
        !LAMBDA_SERVICE_ERRORS.includes(name) &&
        !LAMBDA_TIMEOUT_ERRORS.includes(name) &&
        !SFN_SERVICE_ERRORS.includes(name),
    );
    expect(unknown).toEqual([]);
  });

  it('retries only retryable errors of ours and Lambda timeouts, never a catch-all', () => {
    const ours = new Set<string>(Object.values(ERROR_NAMES));
    for (const { name, state } of states(key)) {
      // A Lambda timeout's retrier (States.Timeout included) is checked apart, below.
      for (const retrier of (state.Retry ?? []).filter((r) => !r.ErrorEquals.includes('Sandbox.Timedout'))) {
        const offending = retrier.ErrorEquals.filter(
          (e) => (ours.has(e) && !RETRYABLE_ERROR_NAMES.includes(e as never)) || e.startsWith('States.'),
        );
        expect({ state: name, offending }).toEqual({ state: name, offending: [] });
      }
    }
  });

  it('retries a Lambda task that ran out of time a few times (tasks are reentrant), never the approval wait', () => {
    for (const { name, state } of lambdaTasks(key)) {
      const timeouts = state.Retry!.find((r) => r.ErrorEquals.includes('Sandbox.Timedout'));
      expect({ state: name, errors: timeouts?.ErrorEquals, attempts: timeouts?.MaxAttempts }).toEqual({
        state: name,
        errors: LAMBDA_TIMEOUT_ERRORS,
        attempts: 2,
      });
    }
    // AwaitApproval's States.Timeout is the approval lapsing: caught, never retried.
    for (const { state } of states(key).filter((s) => s.name === 'AwaitApproval'))
      expect((state.Retry ?? []).flatMap((r) => r.ErrorEquals)).not.toContain('States.Timeout');
  });

  it('gives every Task a Retry and a Catch on itself or its enclosing Map, into the failure path', () => {
    const tasks = ofType(key, 'Task');
    expect(tasks.length).toBeGreaterThan(0);
    for (const { name, state, enclosingMap } of tasks) {
      expect({ state: name, retriers: (state.Retry ?? []).length > 0 }).toEqual({ state: name, retriers: true });
      const catchers = state.Catch ?? enclosingMap?.state.Catch ?? [];
      const catchAll = catchers.find((c) => c.ErrorEquals.includes('States.ALL'));
      expect({ state: name, catchAll: Boolean(catchAll) }).toEqual({ state: name, catchAll: true });
    }
  });

  it('retries Lambda service errors with FULL jitter and our retryable errors with backoff on every Lambda task', () => {
    for (const { name, state } of lambdaTasks(key)) {
      const service = state.Retry!.find((r) => LAMBDA_SERVICE_ERRORS.every((e) => r.ErrorEquals.includes(e)));
      expect({
        state: name,
        service: service && { jitter: service.JitterStrategy, backoff: (service.BackoffRate ?? 2) > 1 },
      }).toEqual({ state: name, service: { jitter: 'FULL', backoff: true } });
      const ours = state.Retry!.find((r) => RETRYABLE_ERROR_NAMES.every((e) => r.ErrorEquals.includes(e)));
      expect({ state: name, ours: ours && (ours.BackoffRate ?? 2) > 1 && (ours.MaxAttempts ?? 3) > 0 }).toEqual({
        state: name,
        ours: true,
      });
    }
  });

  it('fails with the original error name and cause', () => {
    const fails = ofType(key, 'Fail');
    expect(fails.length).toBeGreaterThan(0);
    for (const { name, state } of fails) {
      // A held rollout ends its Map iteration with UpdateHeldError and the child's message (caught: not a failure).
      const held = state.Error === ERROR_NAMES.UpdateHeldError;
      // A pool that handed over as often as one execution allows ends it with UpdateHandedOverError (caught too).
      if (state.Error === ERROR_NAMES.UpdateHandedOverError) {
        expect({ name, Cause: typeof state.Cause }).toEqual({ name, Cause: 'string' });
        continue;
      }
      expect({ name, ErrorPath: state.ErrorPath, CausePath: state.CausePath }).toEqual({
        name,
        ErrorPath: held ? undefined : '$.error.Error',
        CausePath: held ? '$.rollout.message' : '$.error.Cause',
      });
    }
    for (const { name, state } of states(key)) {
      for (const catcher of state.Catch ?? []) {
        // RecordProblem's own failure must not overwrite the error being recorded; an approval decided meanwhile is no
        // error (AwaitApproval goes back to ReviewUpdate); every other catcher stores it at $.error.
        const expected =
          name === 'RecordProblem'
            ? '$.recordProblemError'
            : catcher.ErrorEquals.includes(ERROR_NAMES.ApprovalChangedError)
              ? '$.approvalChanged'
              : '$.error';
        expect({ state: name, ResultPath: catcher.ResultPath }).toEqual({ state: name, ResultPath: expected });
      }
    }
  });
});
