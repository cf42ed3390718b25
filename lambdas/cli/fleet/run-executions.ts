import { causeMessage } from '../../tasks/record-problem';
import { runClusterUpdate } from '../../runtime/local/run-cluster-update';
import type { LocalExecution } from '../../runtime/local/local-executions';
import { progressLine, rollEta } from '../provision/progress-line';
import type { FleetSession } from './fleet-session';

export interface RunnerOptions {
  /** Asked after every task: true stops the execution there (a safe point), its lease released. */
  shouldStop(): boolean;
  log(line: string): void;
  /** Print every task's progress line (else only the start and the end). */
  readonly verbose?: boolean;
  /** Told when an execution starts running (`clm serve` reports it to the forge, as Step Functions' event would). */
  onStart?(execution: LocalExecution): Promise<void>;
}

export type RunOutcome =
  | { readonly kind: 'idle' }
  | {
      readonly kind: 'ran';
      readonly execution: LocalExecution;
      readonly status: 'SUCCEEDED' | 'FAILED';
      readonly error?: string;
      /** The execution's output (its final state), as Step Functions reports it. */
      readonly output?: unknown;
    }
  | { readonly kind: 'stopped'; readonly execution: LocalExecution };

const STOP_CAUSE = 'clm was stopped (Ctrl-C) between two tasks; the next pass resumes it';

/**
 * Run the oldest queued execution to its end, in process, on the same ASL as Step Functions (its lease holder is
 * `local:<execution name>`, so a resume takes the lease back at once). The world is saved after every task. When
 * `shouldStop` says so after a task, the run is left there: the lease is released, the execution recorded ABORTED
 * (a pass resumes it from the stored progress), and the abandoned run never continues.
 */
export async function runNextExecution(session: FleetSession, options: RunnerOptions): Promise<RunOutcome> {
  const execution = session.executions.take();
  if (!execution) return { kind: 'idle' };
  const { world } = session;
  const { clusterId, action } = execution.input;
  const executionId = `local:${execution.name}`;
  if (action === 'decommission') world.decommissioning(clusterId);
  options.log(`${clusterId}: ${action} started as ${execution.name}`);
  await options.onStart?.(execution);
  const started = world.ports.clock.now();
  const eta = rollEta();
  let stop: (() => void) | undefined;
  const stopped = new Promise<'stopped'>((resolve) => (stop = () => resolve('stopped')));
  const run = runClusterUpdate(execution.input, {
    ports: world.ports,
    executionId,
    advanceClock: (seconds) => world.advanceClock(seconds),
    onTask: async (event) => {
      world.save();
      if (options.verbose) options.log(progressLine(event, world.ports.clock.now() - started, eta));
      if (!options.shouldStop()) return;
      await world.ports.progress.releaseLease(clusterId, executionId);
      world.save();
      session.executions.finish(execution.name, 'ABORTED', { error: 'ABORTED', cause: STOP_CAUSE });
      stop!();
      await new Promise<never>(() => undefined); // this run goes no further
    },
  });
  const result = await Promise.race([run, stopped]);
  if (result === 'stopped') {
    options.log(`${clusterId}: ${execution.name} stopped at a safe point, lease released`);
    return { kind: 'stopped', execution };
  }
  world.save();
  const error = result.error ? `${result.error.Error}: ${causeMessage(result.error)}` : undefined;
  session.executions.finish(
    execution.name,
    result.status,
    result.error ? { error: result.error.Error, cause: causeMessage(result.error) } : undefined,
    (result.output as { run?: { targetVersion?: string } } | undefined)?.run?.targetVersion,
  );
  options.log(
    `${clusterId}: ${execution.name} ${result.status === 'SUCCEEDED' ? 'succeeded' : `failed (${error})`} after ${result.stats.stateTransitions} state transitions`,
  );
  return {
    kind: 'ran',
    execution,
    status: result.status,
    ...(error ? { error } : {}),
    ...(result.output !== undefined ? { output: result.output } : {}),
  };
}
