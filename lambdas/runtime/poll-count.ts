/**
 * `$.step.polls`: every call of a task whose output is a poll (`$.step`: a StepOutput, with `status` and
 * `waitSeconds`) counts one more than the `$.step` it received. `$.step` is written only by such tasks, so the count
 * never goes back within an execution (a fresh execution starts without `$.step`); the cluster-update Choices compare
 * it with LOOP_CAPS.polls to bound every poll loop of the execution at once. Both runtimes count through runTask.
 */
export function withPollCount(payload: unknown, output: unknown): unknown {
  if (!isRecord(output) || typeof output.status !== 'string' || typeof output.waitSeconds !== 'number') return output;
  const state = isRecord(payload) && isRecord(payload.state) ? payload.state : {};
  const before = isRecord(state.step) && typeof state.step.polls === 'number' ? state.step.polls : 0;
  return { ...output, polls: before + 1 };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
