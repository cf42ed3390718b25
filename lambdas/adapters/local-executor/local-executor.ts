import '../../shared/promise-with-resolvers';
import { StateMachine } from 'aws-local-stepfunctions';
import type { ClusterUpdateInput, RolloutOutput } from '../../contracts/cluster-update';
import type { Ports } from '../../ports/ports';
import { createLogger, type Logger } from '../../shared/logger';
import { invokeTask } from '../../shared/task';
import { TASKS, type AnyTask } from '../../tasks/cluster-update-tasks';
import { LOCAL_ARN_PREFIX, loadDefinition, taskStates, waitStates, type AslDefinition } from './asl-definitions';

/** What one task reported, for live progress and for persisting the world after every step. */
export interface TaskEvent {
  readonly executionId: string;
  readonly stateName: string;
  readonly task: string;
  readonly output: unknown;
}

export interface ExecutionStats {
  /** Billable state transitions (every state entered), parent and children together. */
  stateTransitions: number;
  /** Estimated history events of the largest single execution (AWS caps at 25,000). */
  maxHistoryEvents: number;
  executions: number;
}

export interface LocalExecutorOptions {
  readonly ports: Ports;
  /** Execution id (and lease holder). A stable id lets a re-run resume its own lease. */
  readonly executionId: string;
  /** Virtual time: called with the seconds a Wait state would sleep. Default: nothing (Waits take 0 s). */
  readonly advanceClock?: (seconds: number) => Promise<void> | void;
  readonly onTask?: (event: TaskEvent) => Promise<void> | void;
  readonly logger?: Logger;
}

export interface ExecutionResult {
  readonly status: 'SUCCEEDED' | 'FAILED';
  readonly output?: Record<string, unknown>;
  readonly error?: { readonly Error: string; readonly Cause?: string };
  readonly stats: ExecutionStats;
}

/**
 * Runs the deployed ASL in process with aws-local-stepfunctions: every Lambda task is mapped to its task
 * definition (same contracts, same core), the rollout child started with `.sync` runs as a nested local
 * execution, Wait states take no real time but advance the virtual clock by what the polling task asked
 * for, and retries do not sleep.
 */
export async function runClusterUpdate(
  input: ClusterUpdateInput,
  options: LocalExecutorOptions,
): Promise<ExecutionResult> {
  const stats: ExecutionStats = { stateTransitions: 0, maxHistoryEvents: 0, executions: 0 };
  try {
    const output = await runMachine(loadDefinition('cluster-update'), input, options.executionId, options, stats);
    return { status: 'SUCCEEDED', output: output as Record<string, unknown>, stats };
  } catch (error) {
    return { status: 'FAILED', error: executionError(error), stats };
  }
}

async function runMachine(
  definition: AslDefinition,
  input: unknown,
  executionId: string,
  options: LocalExecutorOptions,
  stats: ExecutionStats,
): Promise<unknown> {
  stats.executions++;
  const logger = options.logger ?? createLogger();
  const handlers: Record<string, (payload: unknown) => Promise<unknown>> = {};
  let children = 0;
  for (const { name, resource } of taskStates(definition)) {
    if (resource.startsWith(LOCAL_ARN_PREFIX)) {
      const taskName = resource.slice(LOCAL_ARN_PREFIX.length) as keyof typeof TASKS;
      const task: AnyTask | undefined = TASKS[taskName];
      if (!task) throw new Error(`State ${name} calls ${taskName}, which has no task definition`);
      handlers[name] = async (payload) => {
        const output = await invokeTask(task, withStateName(payload, name), options.ports, {
          executionId,
          stateName: name,
          logger,
        });
        await options.onTask?.({ executionId, stateName: name, task: taskName, output });
        const step = output as { status?: unknown; waitSeconds?: unknown };
        if (step.status === 'IN_PROGRESS' && typeof step.waitSeconds === 'number')
          await options.advanceClock?.(step.waitSeconds);
        return output as never;
      };
    } else if (resource.startsWith('arn:aws:states:::states:startExecution.sync')) {
      handlers[name] = async (payload) => {
        const request = payload as { Input: Record<string, unknown> };
        const { AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID: _parent, ...childInput } = request.Input;
        const childId = `${executionId}/rollout-${String(childInput.pool)}-${++children}`;
        const output = (await runMachine(
          loadDefinition('node-pool-rollout'),
          childInput,
          childId,
          options,
          stats,
        )) as RolloutOutput;
        return { Output: output, ExecutionArn: childId, Status: 'SUCCEEDED' } as never;
      };
    } else {
      throw new Error(`State ${name} has resource ${resource}, which the local executor cannot run`);
    }
  }
  const machine = new StateMachine(definition as never, { validationOptions: { checkArn: false } });
  const execution = machine.run(input as never, {
    overrides: {
      taskResourceLocalHandlers: handlers as never,
      waitTimeOverrides: Object.fromEntries(waitStates(definition).map((name) => [name, 0])),
      retryIntervalOverrides: Object.fromEntries(taskStates(definition).map(({ name }) => [name, 0])),
    },
    context: {
      Execution: { Id: executionId, Input: input as never, StartTime: new Date(0).toISOString() },
      State: { Name: 'local', EnteredTime: new Date(0).toISOString() },
    } as never,
  });
  let history = 2;
  const counting = (async () => {
    for await (const event of execution.eventLogs) {
      if (event.type === 'StateEntered') {
        stats.stateTransitions++;
        history += event.state.type === 'Task' ? 5 : 2;
      } else if (event.type === 'StateRetried') {
        history += 3;
      }
    }
  })();
  try {
    return await execution.result;
  } finally {
    await counting.catch(() => undefined);
    stats.maxHistoryEvents = Math.max(stats.maxHistoryEvents, history);
    logger.debug('Local execution finished', { executionId, history });
  }
}

/** `$$.State.Name` is not part of the local runner's context object; the executor knows it. */
function withStateName(payload: unknown, stateName: string): unknown {
  if (payload && typeof payload === 'object' && !Array.isArray(payload)) return { ...(payload as object), stateName };
  return payload;
}

function executionError(error: unknown): { Error: string; Cause?: string } {
  const cause = (error as { cause?: { name?: string; message?: string } }).cause;
  const inner = cause ?? (error as Error);
  return { Error: inner?.name ?? 'Error', ...(inner?.message ? { Cause: inner.message } : {}) };
}
