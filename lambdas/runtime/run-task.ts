import type { Ports } from '../ports/ports';
import * as z from '../shared/zod';
import { InvalidTaskInputError } from '../shared/errors';
import { redactError } from '../shared/redact';
import type { AnyTask, TaskContext } from '../tasks/define-task';
import { withPollCount } from './poll-count';
import { localDeadline } from './task-deadline';

/**
 * Parse the payload with the task's contract, run its step, check what it returns against its output contract.
 * `context` carries the deadline (the Lambda runtime passes its invocation's; by default the task's timeout from now).
 */
export async function runTask(
  task: AnyTask,
  payload: unknown,
  ports: Ports,
  context: TaskContext = localDeadline(task),
): Promise<unknown> {
  try {
    return await checkedStep(task, payload, ports, context);
  } catch (error) {
    // A task's error becomes the execution's error and cause, a recorded problem and a log line: no secret in it.
    throw redactError(error);
  }
}

async function checkedStep(task: AnyTask, payload: unknown, ports: Ports, context: TaskContext): Promise<unknown> {
  const parsed = z.safeParse(task.input, payload);
  if (!parsed.success) {
    throw new InvalidTaskInputError(`${task.name}: invalid input: ${formatIssues(parsed.error.issues)}`);
  }
  const result: unknown = withPollCount(parsed.data, await task.step(parsed.data, ports, context));
  const checked = z.safeParse(task.output, result);
  if (!checked.success) {
    throw new InvalidTaskInputError(`${task.name}: produced an invalid result: ${formatIssues(checked.error.issues)}`);
  }
  return checked.data;
}

function formatIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`).join('; ');
}
