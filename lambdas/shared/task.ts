import type { z } from 'zod';
import { InvalidTaskInputError } from './errors';
import type { Logger } from './logger';

/** What a task knows about the state machine it runs in (for logs, lease holders, problems). */
export interface TaskMeta {
  readonly executionId: string;
  readonly stateName: string;
  readonly logger: Logger;
}

/**
 * One state machine task: a zod contract in, one core function, a zod contract out. The same definition
 * runs in Lambda (handlers/*.ts wrap it with the real ports) and in-process (the local executor passes
 * the simulated or real ports), so there is exactly one code path.
 */
export interface TaskDefinition<In, Out, P> {
  readonly name: string;
  readonly input: z.ZodType<In>;
  readonly output: z.ZodType<Out>;
  run(input: In, ports: P, meta: TaskMeta): Promise<Out>;
}

export function defineTask<In, Out, P>(definition: TaskDefinition<In, Out, P>): TaskDefinition<In, Out, P> {
  return definition;
}

/** Parse the payload, run the task, check what it returns against its own contract. */
export async function invokeTask<In, Out, P>(
  task: TaskDefinition<In, Out, P>,
  payload: unknown,
  ports: P,
  meta: TaskMeta,
): Promise<Out> {
  const parsed = task.input.safeParse(payload);
  if (!parsed.success) {
    throw new InvalidTaskInputError(`${task.name}: invalid input: ${formatIssues(parsed.error.issues)}`);
  }
  const result = await task.run(parsed.data, ports, meta);
  const checked = task.output.safeParse(result);
  if (!checked.success) {
    throw new InvalidTaskInputError(`${task.name}: produced an invalid result: ${formatIssues(checked.error.issues)}`);
  }
  return checked.data;
}

function formatIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`).join('; ');
}
