// Test harness over the one in-process runner (lambdas/runtime/local/asl-runner.ts): the deployed ASL with every
// Lambda task answered by a fake keyed by state name, the child rollout machine run the same way.
import { runStateMachine, type ExecutionRun } from '../../lambdas/runtime/local/asl-runner';
import type { StateMachineKey } from '../../lambdas/runtime/asl-files';

export type FakeTask = (payload: any) => unknown;

export interface HarnessRun {
  readonly output?: unknown;
  /** The execution's error name and cause when it failed (what a Fail state reports). */
  readonly error?: { readonly name: string; readonly cause: string };
  /** States entered in order (Map iterations included): the billable transitions of this execution. */
  readonly entered: readonly string[];
  readonly retried: readonly string[];
  readonly children: readonly HarnessRun[];
}

export interface HarnessOptions {
  /** Fakes for the parent's Task states, by state name. */
  readonly tasks: Readonly<Record<string, FakeTask>>;
  /** Fakes for the child's Task states (node-pool-rollout), by state name. */
  readonly childTasks?: Readonly<Record<string, FakeTask>>;
  readonly executionId?: string;
}

const EXECUTION = 'arn:aws:states:eu-central-1:123456789012:execution:clm-cluster-update:test-1';

function harnessRun(run: ExecutionRun): HarnessRun {
  return {
    ...(run.output !== undefined ? { output: run.output } : {}),
    ...(run.error ? { error: { name: run.error.Error, cause: run.error.Cause ?? '' } } : {}),
    entered: run.entered,
    retried: run.retried,
    children: run.children.map(harnessRun),
  };
}

async function run(
  key: StateMachineKey,
  input: unknown,
  fakes: Partial<Record<StateMachineKey, Readonly<Record<string, FakeTask>>>>,
  executionId: string,
) {
  const result = await runStateMachine(key, input, executionId, async (payload, call) => {
    const fake = fakes[call.machine]?.[call.stateName];
    if (!fake) throw new Error(`no fake for ${call.machine} state ${call.stateName}`);
    return fake(payload);
  });
  return harnessRun(result);
}

/**
 * Run cluster-update with fakes. The `Start*PoolRollout` tasks run node-pool-rollout with `childTasks` and answer
 * like `startExecution.sync:2` (`{ Output, Status }`); a failed child fails the task with `States.TaskFailed` and a
 * JSON cause holding the child's error, as Step Functions does.
 */
export async function runClusterUpdate(input: unknown, options: HarnessOptions): Promise<HarnessRun> {
  return run(
    'clusterUpdate',
    input,
    { clusterUpdate: options.tasks, nodePoolRollout: options.childTasks ?? {} },
    options.executionId ?? EXECUTION,
  );
}

export async function runNodePoolRollout(
  input: unknown,
  tasks: Readonly<Record<string, FakeTask>>,
): Promise<HarnessRun> {
  return run(
    'nodePoolRollout',
    input,
    { nodePoolRollout: tasks },
    'arn:aws:states:eu-central-1:123456789012:execution:clm-node-pool-rollout:test-1',
  );
}
