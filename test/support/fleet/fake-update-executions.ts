import type { ExecutionOutcome, ExecutionStatus } from '../../../lambdas/core/dispatch/fleet-state';
import type { ExecutionRequest, StartAttempt, UpdateExecutions } from '../../../lambdas/ports/update-executions';
import { takeFromBucket, type BucketState } from '../../../lambdas/core/capacity/launch-bucket';
import { ThrottledError } from '../../../lambdas/shared/errors';

/** Step Functions' StartExecution token bucket (per account and region): `burst` at once, refilled `perSecond`. */
export interface StartQuota {
  readonly burst: number;
  readonly perSecond: number;
}

export interface FakeExecution {
  readonly name: string;
  readonly arn: string;
  readonly clusterId: string;
  readonly input: Readonly<Record<string, unknown>>;
  status: ExecutionStatus;
  readonly startedAt: number;
  stoppedAt?: number;
  error?: string;
  cause?: string;
  /** Succeeded: the version its Prepare worked towards (`$.run.targetVersion` of its output). */
  ranTo?: string;
  redrives: number;
}

const ENDED: ReadonlySet<ExecutionStatus> = new Set(['FAILED', 'TIMED_OUT', 'ABORTED']);

/**
 * Step Functions' rules for named executions, in memory: a name is used once (a second start of a running
 * one is harmless, of an ended one refused), ended executions can be redriven, and every call is counted. With a
 * `quota`, StartExecution and RedriveExecution beyond its token bucket are throttled, as the adapter reports AWS's
 * ThrottlingException once the SDK's retries are spent (ThrottledError); every refusal is counted.
 */
export class FakeUpdateExecutions implements UpdateExecutions {
  readonly executions = new Map<string, FakeExecution>();
  /** Every execution that was ever started, in order (redrives are not new executions). */
  readonly started: FakeExecution[] = [];
  readonly calls = { start: 0, resume: 0, describe: 0, countRunning: 0 };
  /** Calls refused by the quota, and when each call that was let through came (ms). */
  throttled = 0;
  readonly admitted: number[] = [];
  private bucket: BucketState | undefined;

  constructor(
    private readonly now: () => number,
    private readonly quota?: StartQuota,
  ) {}

  /** One token of the StartExecution bucket, or ThrottledError. */
  private admit(what: string): void {
    if (!this.quota) return;
    const take = takeFromBucket(this.bucket, 1, this.now(), this.quota);
    this.bucket = take.state;
    if (take.granted === 0) {
      this.throttled++;
      throw new ThrottledError(`Step Functions ${what}: throttled by AWS (ThrottlingException: Rate exceeded)`);
    }
    this.admitted.push(this.now());
  }

  async start(request: ExecutionRequest): Promise<StartAttempt> {
    this.calls.start++;
    this.admit(`StartExecution ${request.name}`);
    const existing = this.executions.get(request.name);
    if (existing) {
      return existing.status === 'RUNNING'
        ? { how: 'already-running', name: existing.name, arn: existing.arn }
        : { how: 'name-taken', name: existing.name };
    }
    const execution: FakeExecution = {
      name: request.name,
      arn: `arn:aws:states:eu-central-1:123456789012:execution:clm-cluster-update:${request.name}`,
      clusterId: String(request.input.clusterId),
      input: request.input,
      status: 'RUNNING',
      startedAt: this.now(),
      redrives: 0,
    };
    this.executions.set(request.name, execution);
    this.started.push(execution);
    return { how: 'started', name: execution.name, arn: execution.arn };
  }

  async resume(execution: { name: string }, fallback: ExecutionRequest): Promise<StartAttempt> {
    this.calls.resume++;
    this.admit(`RedriveExecution ${execution.name}`);
    const existing = this.executions.get(execution.name);
    if (existing && ENDED.has(existing.status)) {
      existing.status = 'RUNNING';
      existing.redrives++;
      delete existing.stoppedAt;
      return { how: 'redriven', name: existing.name, arn: existing.arn };
    }
    if (existing?.status === 'RUNNING') return { how: 'already-running', name: existing.name, arn: existing.arn };
    return this.start(fallback);
  }

  async countRunning(): Promise<number> {
    this.calls.countRunning++;
    return this.running().length;
  }

  async describe(executions: readonly { name: string }[]): Promise<ExecutionOutcome[]> {
    this.calls.describe += executions.length;
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

  running(): FakeExecution[] {
    return [...this.executions.values()].filter((e) => e.status === 'RUNNING');
  }

  end(
    name: string,
    status: 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED',
    error?: { error: string; cause?: string },
    ranTo?: string,
  ): void {
    const execution = this.executions.get(name);
    if (!execution) throw new Error(`no execution ${name}`);
    execution.status = status;
    execution.stoppedAt = this.now();
    execution.error = error?.error;
    execution.cause = error?.cause;
    execution.ranTo = ranTo;
  }
}
