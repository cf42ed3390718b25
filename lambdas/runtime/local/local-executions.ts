import type { ClusterUpdateInput } from '../../contracts/cluster-update';
import type { ExecutionOutcome, ExecutionStatus } from '../../core/dispatch/fleet-state';
import { openJsonStateFile } from '../../adapters/state-file/json-state-file';
import type { ExecutionRequest, StartAttempt, UpdateExecutions } from '../../ports/update-executions';

export const EXECUTIONS_FILE = 'executions.json';
const ARN_PREFIX = 'local:execution:cluster-update:';

/** One cluster-update execution the local dispatcher started, as Step Functions would describe it. */
export interface LocalExecution {
  readonly name: string;
  readonly input: ClusterUpdateInput;
  status: ExecutionStatus;
  readonly startedAt: number;
  stoppedAt?: number;
  error?: string;
  cause?: string;
  /** Succeeded: the version its Prepare worked towards (ExecutionOutcome.ranTo). */
  ranTo?: string;
  /** Started or redriven, and not yet picked up by the runner. */
  queued: boolean;
}

type Ended = 'SUCCEEDED' | 'FAILED' | 'ABORTED';
const RESUMABLE: ReadonlySet<ExecutionStatus> = new Set(['FAILED', 'TIMED_OUT', 'ABORTED']);

/**
 * The dispatcher's execution service for `clm dispatch` and `clm serve`: Step Functions' rules for named executions
 * (a name is used once; a running one is "already running", an ended one "name taken"; ended ones can be redriven),
 * kept in `<state>/executions.json` after every change. Starting only queues: the command runs the queue in process
 * (lambdas/runtime/local/run-cluster-update.ts), one execution at a time. Executions a stopped or killed process
 * left running are ABORTED when the file is opened again, so the next pass resumes them from the stored progress.
 */
export class LocalUpdateExecutions implements UpdateExecutions {
  private readonly executions: Map<string, LocalExecution>;
  private readonly persist: () => void;

  constructor(
    stateDir: string,
    private readonly now: () => number,
  ) {
    const file = openJsonStateFile<Record<string, LocalExecution>>(stateDir, EXECUTIONS_FILE);
    this.executions = new Map(Object.entries(file.data ?? {}));
    this.persist = () => file.save(Object.fromEntries(this.executions));
    let orphaned = false;
    for (const execution of this.executions.values()) {
      if (execution.status !== 'RUNNING') continue;
      this.end(execution, 'ABORTED', { error: 'ABORTED', cause: 'the clm process running it stopped' });
      orphaned = true;
    }
    if (orphaned) this.persist();
  }

  async start(request: ExecutionRequest): Promise<StartAttempt> {
    const existing = this.executions.get(request.name);
    if (existing) {
      return existing.status === 'RUNNING'
        ? { how: 'already-running', name: existing.name, arn: arnOf(existing.name) }
        : { how: 'name-taken', name: existing.name };
    }
    const input = request.input as unknown as ClusterUpdateInput;
    this.executions.set(request.name, {
      name: request.name,
      input: { ...input, options: input.options ?? { applyOnly: false } },
      status: 'RUNNING',
      startedAt: this.now(),
      queued: true,
    });
    this.persist();
    return { how: 'started', name: request.name, arn: arnOf(request.name) };
  }

  async resume(execution: { name: string }, fallback: ExecutionRequest): Promise<StartAttempt> {
    const existing = this.executions.get(execution.name);
    if (existing?.status === 'RUNNING')
      return { how: 'already-running', name: existing.name, arn: arnOf(existing.name) };
    if (!existing || !RESUMABLE.has(existing.status)) return this.start(fallback);
    existing.status = 'RUNNING';
    existing.queued = true;
    delete existing.stoppedAt;
    delete existing.error;
    delete existing.cause;
    this.persist();
    return { how: 'redriven', name: existing.name, arn: arnOf(existing.name) };
  }

  async countRunning(): Promise<number> {
    return [...this.executions.values()].filter((e) => e.status === 'RUNNING').length;
  }

  async describe(executions: readonly { name: string }[]): Promise<ExecutionOutcome[]> {
    return executions.map(({ name }) => {
      const e = this.executions.get(name);
      if (!e) return { name, status: 'NOT_FOUND' };
      return {
        name,
        status: e.status,
        ...(e.stoppedAt !== undefined ? { stoppedAt: e.stoppedAt } : {}),
        ...(e.error ? { error: e.error } : {}),
        ...(e.cause ? { cause: e.cause } : {}),
        ...(e.ranTo ? { ranTo: e.ranTo } : {}),
      };
    });
  }

  /** The oldest queued execution, taken off the queue (the runner runs it next). */
  take(): LocalExecution | undefined {
    const next = [...this.executions.values()].find((e) => e.queued && e.status === 'RUNNING');
    if (!next) return undefined;
    next.queued = false;
    this.persist();
    return { ...next };
  }

  /** Queued executions waiting for the runner. */
  queued(): number {
    return [...this.executions.values()].filter((e) => e.queued && e.status === 'RUNNING').length;
  }

  /** How an execution the runner ran (or stopped) ended; a succeeded one with the version it worked towards. */
  finish(name: string, status: Ended, failure?: { error: string; cause?: string }, ranTo?: string): void {
    const execution = this.executions.get(name);
    if (!execution) throw new Error(`no local execution ${name}`);
    this.end(execution, status, failure);
    if (ranTo) execution.ranTo = ranTo;
    this.persist();
  }

  private end(execution: LocalExecution, status: Ended, failure?: { error: string; cause?: string }): void {
    execution.status = status;
    execution.queued = false;
    execution.stoppedAt = this.now();
    if (failure) {
      execution.error = failure.error;
      if (failure.cause) execution.cause = failure.cause;
    }
  }
}

/** The ARN a local execution goes by (no AWS console behind it). */
export function arnOf(name: string): string {
  return `${ARN_PREFIX}${name}`;
}
