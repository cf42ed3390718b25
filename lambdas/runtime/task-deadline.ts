/**
 * The deadline a task's step sees (TaskContext.outOfTime): the Lambda timeout minus a safety margin, so that a step
 * stopping between objects still has the time to record its cursor and return before Lambda kills it. In Lambda the
 * remaining time comes from the invocation's context (`getRemainingTimeInMillis()`); the local runner counts from the
 * start of the call with the task's configured timeout, the same budget.
 */
import type { AnyTask, TaskContext } from '../tasks/define-task';

/** Lambda's timeout when a task sets none (define-task.ts LambdaSizing). */
export const DEFAULT_TIMEOUT_SECONDS = 60;

/** The time kept back: a quarter of the timeout, at least 10 s (one more chunk of work, the cursor's write). */
export function safetyMarginMs(task: Pick<AnyTask, 'lambda'>): number {
  const timeoutMs = (task.lambda?.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
  return Math.max(10_000, timeoutMs / 4);
}

/** In Lambda: out of time once less than the margin remains. */
export function lambdaDeadline(task: Pick<AnyTask, 'lambda'>, remainingMs: () => number): TaskContext {
  const margin = safetyMarginMs(task);
  return { outOfTime: () => remainingMs() < margin };
}

/** Locally: the task's timeout counted from now, less the same margin. */
export function localDeadline(task: Pick<AnyTask, 'lambda'>, now: () => number = Date.now): TaskContext {
  const end = now() + (task.lambda?.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000 - safetyMarginMs(task);
  return { outOfTime: () => now() >= end };
}

/** A step run with no deadline (tests of a single step, one-off calls). */
export const NO_DEADLINE: TaskContext = { outOfTime: () => false };
