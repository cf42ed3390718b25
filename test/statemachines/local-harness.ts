// Test harness: runs the deployed ASL with aws-local-stepfunctions, every Task overridden by a fake keyed by
// state name, Waits and retry intervals set to 0, and the child rollout machine run by the same library in
// place of `states:startExecution.sync:2`. Only for tests; the real local executor lives in lambdas/adapters.
import '../../lambdas/shared/promise-with-resolvers';
import { StateMachine } from 'aws-local-stepfunctions';
import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import { loadSubstitutedAsl, walkStates } from './asl-graph';
import type { AslMachine } from './asl-graph';

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

const START_CHILD_SYNC = 'arn:aws:states:::states:startExecution.sync:2';

function zeroOverrides(machine: AslMachine): { waits: Record<string, number>; retries: Record<string, number> } {
  const all = walkStates(machine);
  return {
    waits: Object.fromEntries(all.filter((s) => s.state.Type === 'Wait').map((s) => [s.name, 0])),
    retries: Object.fromEntries(all.filter((s) => s.state.Retry).map((s) => [s.name, 0])),
  };
}

/** Validating a definition costs ~0.3 s (asl-validator compiles its schemas), so each machine is built once. */
const built = new Map<AslMachine, StateMachine>();

function build(machine: AslMachine): StateMachine {
  let sm = built.get(machine);
  if (!sm) {
    sm = new StateMachine(machine as unknown as StateMachineDefinition, {
      validationOptions: { checkArn: true, checkPaths: true },
    });
    built.set(machine, sm);
  }
  return sm;
}

/**
 * aws-local-stepfunctions 3.0.0 has no `$$.State` in its context object, so `$$.State.Name` resolves to the
 * constant passed in `context`. An override knows its state's name; it puts it where Step Functions would.
 */
function withStateName(name: string, fn: FakeTask): (payload: unknown) => Promise<never> {
  return async (payload: unknown) => {
    const named =
      payload && typeof payload === 'object' && (payload as { stateName?: unknown }).stateName === LOCAL_STATE_NAME
        ? { ...(payload as object), stateName: name }
        : payload;
    return fn(named) as never;
  };
}

const LOCAL_STATE_NAME = '(local)';

async function execute(
  machine: AslMachine,
  input: unknown,
  tasks: Record<string, FakeTask>,
  executionId: string,
): Promise<HarnessRun> {
  const { waits, retries } = zeroOverrides(machine);
  const execution = build(machine).run(input as never, {
    overrides: {
      taskResourceLocalHandlers: Object.fromEntries(
        Object.entries(tasks).map(([name, fn]) => [name, withStateName(name, fn)]),
      ),
      waitTimeOverrides: waits,
      retryIntervalOverrides: retries,
    },
    // The library fills only $$.Execution.Input/StartTime; the rest of the context object comes from here.
    context: { Execution: { Id: executionId, Name: executionId.split(':').pop() }, State: { Name: LOCAL_STATE_NAME } },
  });
  const entered: string[] = [];
  const retried: string[] = [];
  const collecting = (async () => {
    for await (const event of execution.eventLogs) {
      if (event.type === 'StateEntered') entered.push(event.state.name);
      if (event.type === 'StateRetried') retried.push(event.state.name);
    }
  })();
  try {
    const output = await execution.result;
    await collecting;
    return { output, entered, retried, children: [] };
  } catch (failure) {
    await collecting;
    const cause = (failure as { cause?: { name?: string; message?: string } }).cause;
    return {
      error: { name: cause?.name ?? String(failure), cause: cause?.message ?? '' },
      entered,
      retried,
      children: [],
    };
  }
}

/**
 * Run cluster-update with fakes. The `Start*PoolRollout` tasks run node-pool-rollout with `childTasks` and answer
 * like `startExecution.sync:2` (`{ Output, Status }`); a failed child fails the task with `States.TaskFailed` and a
 * JSON cause holding the child's error, as Step Functions does.
 */
const machines = {
  clusterUpdate: loadSubstitutedAsl('clusterUpdate'),
  nodePoolRollout: loadSubstitutedAsl('nodePoolRollout'),
};

export async function runClusterUpdate(input: unknown, options: HarnessOptions): Promise<HarnessRun> {
  const parent = machines.clusterUpdate;
  const child = machines.nodePoolRollout;
  const executionId =
    options.executionId ?? 'arn:aws:states:eu-central-1:123456789012:execution:clm-cluster-update:test-1';
  const children: HarnessRun[] = [];
  const tasks: Record<string, FakeTask> = { ...options.tasks };
  for (const { name, state } of walkStates(parent)) {
    if (state.Type !== 'Task' || state.Resource !== START_CHILD_SYNC) continue;
    tasks[name] = async (request: { StateMachineArn: string; Input: unknown }) => {
      const childId = `${executionId.replace(':execution:clm-cluster-update:', ':execution:clm-node-pool-rollout:')}-${children.length + 1}`;
      const run = await execute(child, request.Input, { ...(options.childTasks ?? {}) }, childId);
      children.push(run);
      if (run.error) {
        throw Object.assign(new Error(JSON.stringify({ Error: run.error.name, Cause: run.error.cause })), {
          name: 'States.TaskFailed',
        });
      }
      return {
        Status: 'SUCCEEDED',
        ExecutionArn: childId,
        StateMachineArn: request.StateMachineArn,
        Output: run.output,
      };
    };
  }
  const run = await execute(parent, input, tasks, executionId);
  return { ...run, children };
}

/** Run node-pool-rollout alone with fakes. */
export async function runNodePoolRollout(
  input: unknown,
  tasks: Readonly<Record<string, FakeTask>>,
): Promise<HarnessRun> {
  return execute(
    machines.nodePoolRollout,
    input,
    { ...tasks },
    'arn:aws:states:eu-central-1:123456789012:execution:clm-node-pool-rollout:test-1',
  );
}
