import type { RunRecord, StackOperation } from '../model/run';

/**
 * How long a CloudFormation operation on one of the cluster's stacks is expected to take, so the poll loop checks
 * once when it should be done (core/schedule/operation-wait.ts) instead of every 15 s.
 *
 * Until a stack has history, the typical durations of CLM's stacks on AWS: a create 10 minutes (the main stack's
 * VPC, etcd and load balancers dominate), an update 5 minutes. Afterwards the stack's own last duration of that
 * operation, learned by the previous run (and inherited through runs that did not change the stack).
 */
export const DEFAULT_STACK_SECONDS: Readonly<Record<StackOperation, number>> = { create: 600, update: 300 };

/** Learned durations per stack name and operation (ms). */
export type LearnedStackDurations = Readonly<Record<string, Partial<Record<StackOperation, number>>>>;

export function expectedStackMs(name: string, operation: StackOperation, learned?: LearnedStackDurations): number {
  return learned?.[name]?.[operation] ?? DEFAULT_STACK_SECONDS[operation] * 1000;
}

/**
 * The durations a finished run observed (start to the check that saw the stack done, an upper bound), over the ones
 * it inherited: what the next run of this cluster expects.
 */
export function learnStackDurations(run: Pick<RunRecord, 'stacks' | 'learnedStackMs'>): LearnedStackDurations {
  const learned: Record<string, Partial<Record<StackOperation, number>>> = {};
  for (const [name, known] of Object.entries(run.learnedStackMs ?? {})) learned[name] = { ...known };
  for (const [name, stack] of Object.entries(run.stacks)) {
    if (stack.status !== 'done' || stack.noChanges || !stack.operation || stack.completedAt === undefined) continue;
    learned[name] = { ...learned[name], [stack.operation]: stack.completedAt - stack.startedAt };
  }
  return learned;
}
