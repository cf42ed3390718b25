import '../../shared/promise-with-resolvers';
import type { StateMachine } from 'aws-local-stepfunctions';
import { LOCAL_TASK_TOKEN_PREFIX } from '../../contracts/cluster-update';
import type { StateMachineKey } from '../asl-files';
import { LOCAL_ARN_PREFIX, LOCAL_STATE_MACHINE_PREFIX, loadDefinition, walkStates } from './asl-definitions';
import type { AslDefinition } from './asl-definitions';
import { importCjs } from '../../shared/import-cjs';

/** Where a Lambda Task state is, for the handler that runs it. */
export interface TaskCall {
  readonly machine: StateMachineKey;
  readonly executionId: string;
  readonly stateName: string;
  /** The function the state invokes: a task of the catalogue (`${<Name>FunctionArn}`). */
  readonly functionName: string;
}

export type TaskHandler = (payload: unknown, call: TaskCall) => Promise<unknown>;

/** One execution, as the console would show it. */
export interface ExecutionRun {
  readonly output?: unknown;
  readonly error?: { readonly Error: string; readonly Cause?: string };
  /** States entered in order (Map iterations included): the billable transitions of this execution. */
  readonly entered: readonly string[];
  readonly retried: readonly string[];
  /** Child executions started with `startExecution.sync`, in order. */
  readonly children: readonly ExecutionRun[];
  /** Estimated history events (AWS caps an execution at 25,000). */
  readonly historyEvents: number;
}

const START_CHILD_SYNC = 'arn:aws:states:::states:startExecution.sync';
const INVOKE_WAIT_FOR_TOKEN = 'arn:aws:states:::lambda:invoke.waitForTaskToken';
const definitions = new Map<StateMachineKey, { definition: AslDefinition; machine: StateMachine }>();

/**
 * Run a state machine's ASL, exactly as deployed, in this process with aws-local-stepfunctions: every Lambda Task
 * state is handed to `handler`; a `startExecution.sync` state runs the child machine the same way and answers as
 * Step Functions does (`{ Output, Status }`, or `States.TaskFailed` with the child's error as JSON); Wait states
 * and retry intervals take no time (the handler advances a virtual clock if it has one). Shared by the CLI and the
 * tests, so both run what AWS runs.
 */
export async function runStateMachine(
  key: StateMachineKey,
  input: unknown,
  executionId: string,
  handler: TaskHandler,
): Promise<ExecutionRun> {
  const { definition, machine } = await machineFor(key);
  const children: ExecutionRun[] = [];
  const handlers: Record<string, (payload: unknown) => Promise<unknown>> = {};
  for (const { name, state } of walkStates(definition)) {
    if (state.Type !== 'Task' || !state.Resource) continue;
    const call = { machine: key, executionId, stateName: name };
    handlers[name] = state.Resource.startsWith(START_CHILD_SYNC)
      ? (payload) => startChild(payload, `${executionId}/${name}-${children.length + 1}`, handler, children)
      : state.Resource === INVOKE_WAIT_FOR_TOKEN
        ? waitForTokenState(call, handler)
        : taskState(state.Resource, call, handler);
  }
  const execution = machine.run(input as never, {
    overrides: {
      taskResourceLocalHandlers: handlers as never,
      waitTimeOverrides: Object.fromEntries(
        walkStates(definition)
          .filter((s) => s.state.Type === 'Wait')
          .map((s) => [s.name, 0]),
      ),
      retryIntervalOverrides: Object.fromEntries(walkStates(definition).map((s) => [s.name, 0])),
    },
    context: {
      Execution: { Id: executionId, Input: input as never, StartTime: new Date(0).toISOString() },
      State: { Name: 'local', EnteredTime: new Date(0).toISOString() },
      // Nobody sends a local token back: the handler sees the prefix and answers (or throws) at once.
      Task: { Token: `${LOCAL_TASK_TOKEN_PREFIX}${executionId}` },
    } as never,
  });
  const entered: string[] = [];
  const retried: string[] = [];
  let historyEvents = 2;
  const counting = (async () => {
    for await (const event of execution.eventLogs) {
      if (event.type === 'StateEntered') {
        entered.push(event.state.name);
        historyEvents += event.state.type === 'Task' ? 5 : 2;
      } else if (event.type === 'StateRetried') {
        retried.push(event.state.name);
        historyEvents += 3;
      }
    }
  })();
  const outcome = await execution.result.then(
    (output: unknown) => ({ output }),
    (failure: unknown) => ({ error: executionError(failure) }),
  );
  await counting.catch(() => undefined);
  return { ...outcome, entered, retried, children, historyEvents };
}

async function machineFor(key: StateMachineKey): Promise<{ definition: AslDefinition; machine: StateMachine }> {
  let found = definitions.get(key);
  if (!found) {
    const definition = withoutTokenTimeouts(loadDefinition(key));
    // Loaded on first use: the runner and its validator (asl-validator, jsonata, the Lambda client) are a large part
    // of the CLI, and only provision/decommission/plan/dispatch/serve run a state machine.
    const { StateMachine } = await importCjs(import('aws-local-stepfunctions'));
    // Validating a definition costs ~0.3 s (asl-validator compiles its schemas): once per process.
    const machine = new StateMachine(definition as never, { validationOptions: { checkArn: false, checkPaths: true } });
    found = { definition, machine };
    definitions.set(key, found);
  }
  return found;
}

/**
 * A `.waitForTaskToken` state answers at once here, so its TimeoutSecondsPath has nothing to time; and
 * aws-local-stepfunctions 3.0.0 reads that path from the input after Parameters (Step Functions reads it from the
 * state's input), where it is not. Dropped for local runs only.
 */
function withoutTokenTimeouts(definition: AslDefinition): AslDefinition {
  for (const { state } of walkStates(definition)) {
    if (state.Resource === INVOKE_WAIT_FOR_TOKEN) delete (state as { TimeoutSecondsPath?: string }).TimeoutSecondsPath;
  }
  return definition;
}

function taskState(resource: string, call: Omit<TaskCall, 'functionName'>, handler: TaskHandler) {
  if (!resource.startsWith(LOCAL_ARN_PREFIX)) {
    throw new Error(`State ${call.stateName} has resource ${resource}, which the local runner cannot run`);
  }
  const functionName = resource.slice(LOCAL_ARN_PREFIX.length);
  // `$$.State.Name` is not part of the local runner's context object; the runner knows it.
  return (payload: unknown) => handler(withStateName(payload, call.stateName), { ...call, functionName });
}

/**
 * `lambda:invoke.waitForTaskToken`: the function named by `FunctionName` gets `Payload` (with the local token); what
 * it returns is the state's result, as if the token had been sent back at once, and what it throws fails the state.
 */
function waitForTokenState(call: Omit<TaskCall, 'functionName'>, handler: TaskHandler) {
  return (parameters: unknown) => {
    const { FunctionName: functionArn, Payload: payload } = parameters as { FunctionName: string; Payload: unknown };
    return taskState(functionArn, call, handler)(payload);
  };
}

async function startChild(
  payload: unknown,
  childId: string,
  handler: TaskHandler,
  children: ExecutionRun[],
): Promise<unknown> {
  const request = payload as { StateMachineArn: string; Input: unknown };
  const key = request.StateMachineArn.slice(LOCAL_STATE_MACHINE_PREFIX.length) as StateMachineKey;
  const run = await runStateMachine(key, request.Input, childId, handler);
  children.push(run);
  if (run.error) {
    throw Object.assign(new Error(JSON.stringify(run.error)), { name: 'States.TaskFailed' });
  }
  return { Status: 'SUCCEEDED', ExecutionArn: childId, StateMachineArn: request.StateMachineArn, Output: run.output };
}

function withStateName(payload: unknown, stateName: string): unknown {
  if (payload && typeof payload === 'object' && !Array.isArray(payload)) return { ...(payload as object), stateName };
  return payload;
}

function executionError(error: unknown): { Error: string; Cause?: string } {
  const cause = (error as { cause?: { name?: string; message?: string } }).cause;
  const inner = cause ?? (error as Error);
  return { Error: inner?.name ?? 'Error', ...(inner?.message ? { Cause: inner.message } : {}) };
}
