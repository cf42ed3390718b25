import type { ClusterUpdateInput } from '../../contracts/cluster-update';
import { RenderConfigOutput, RollStepOutput, StepOutput } from '../../contracts/cluster-update';
import type { Ports } from '../../ports/ports';
import { TASK_CATALOGUE, findTask } from '../../tasks/catalogue';
import type { AnyTask, TaskContext } from '../../tasks/define-task';
import { factoriesOf, restrictPorts } from '../restrict-ports';
import { runTask } from '../run-task';
import { runStateMachine, type ExecutionRun, type TaskCall } from './asl-runner';

/** What one task reported, for live progress and for persisting the world after every step. */
export interface TaskEvent {
  readonly executionId: string;
  readonly stateName: string;
  readonly task: AnyTask;
  /** The task's output, checked against `task.output`. */
  readonly output: unknown;
}

export interface ExecutionStats {
  /** Billable state transitions (every state entered), parent and children together. */
  readonly stateTransitions: number;
  /** Estimated history events of the largest single execution (AWS caps at 25,000). */
  readonly maxHistoryEvents: number;
  readonly executions: number;
}

export interface ClusterUpdateRunOptions {
  readonly ports: Ports;
  /** Execution id (and lease holder). */
  readonly executionId: string;
  /** Virtual time: called with the seconds a Wait state would sleep after a task said IN_PROGRESS. */
  readonly advanceClock?: (seconds: number) => Promise<void> | void;
  readonly onTask?: (event: TaskEvent) => Promise<void> | void;
  /** @default TASK_CATALOGUE */
  readonly catalogue?: readonly AnyTask[];
  /**
   * Each call's deadline, as Lambda's context gives it. @default - the task's Lambda timeout from the call's start,
   * less the safety margin (runtime/task-deadline.ts localDeadline)
   */
  readonly taskContext?: (task: AnyTask, call: TaskCall) => TaskContext;
}

export interface ExecutionResult {
  readonly status: 'SUCCEEDED' | 'FAILED';
  readonly output?: unknown;
  readonly error?: { readonly Error: string; readonly Cause?: string };
  readonly stats: ExecutionStats;
  readonly run: ExecutionRun;
}

/**
 * One cluster-update execution in process: the deployed ASL, each Lambda task run from the catalogue with only
 * the ports it declares (the same restriction as in Lambda), the rollout children run the same way.
 */
export async function runClusterUpdate(
  input: ClusterUpdateInput,
  options: ClusterUpdateRunOptions,
): Promise<ExecutionResult> {
  const catalogue = options.catalogue ?? TASK_CATALOGUE;
  const restricted = new Map<string, Ports>();
  const portsFor = (task: AnyTask): Ports => {
    let ports = restricted.get(task.name);
    if (!ports) {
      ports = restrictPorts(task.name, task.ports, factoriesOf(options.ports));
      restricted.set(task.name, ports);
    }
    return ports;
  };
  const handler = async (payload: unknown, call: TaskCall): Promise<unknown> => {
    const task = findTask(call.functionName, catalogue);
    if (!task)
      throw new Error(`State ${call.stateName} calls ${call.functionName}, which is not in the task catalogue`);
    const output = await runTask(task, payload, portsFor(task), options.taskContext?.(task, call));
    await options.onTask?.({ executionId: call.executionId, stateName: call.stateName, task, output });
    const step = StepOutput.safeParse(output);
    if (step.success && step.data.status === 'IN_PROGRESS') await options.advanceClock?.(step.data.waitSeconds);
    // A rollout outside its maintenance windows waits (Wait TimestampPath) until the next one opens.
    const window = RollStepOutput.safeParse(output);
    // So does an update outside them before its first write (RenderConfig's resumeAt, WaitForMaintenanceWindow).
    const render = task.name === 'RenderConfig' ? RenderConfigOutput.safeParse(output) : undefined;
    const resumeAt =
      window.success && window.data.status === 'WINDOW'
        ? window.data.resumeAt
        : render?.success
          ? render.data.resumeAt
          : undefined;
    if (resumeAt) await options.advanceClock?.(Math.max(1, (Date.parse(resumeAt) - options.ports.clock.now()) / 1000));
    return output;
  };
  const run = await runStateMachine('clusterUpdate', input, options.executionId, handler);
  const stats = statsOf(run);
  return run.error
    ? { status: 'FAILED', error: run.error, stats, run }
    : { status: 'SUCCEEDED', output: run.output, stats, run };
}

function statsOf(run: ExecutionRun): ExecutionStats {
  const all = (r: ExecutionRun): ExecutionRun[] => [r, ...r.children.flatMap(all)];
  const runs = all(run);
  return {
    stateTransitions: runs.reduce((n, r) => n + r.entered.length, 0),
    maxHistoryEvents: Math.max(...runs.map((r) => r.historyEvents)),
    executions: runs.length,
  };
}
