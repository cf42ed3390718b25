import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  ExecutionNotRedrivable,
  ListExecutionsCommand,
  RedriveExecutionCommand,
  StartExecutionCommand,
  type ExecutionStatus as SfnExecutionStatus,
  type SFNClient,
} from '@aws-sdk/client-sfn';
import type { ExecutionOutcome } from '../../core/dispatch/fleet-state';
import type { ExecutionRequest, StartAttempt, UpdateExecutions } from '../../ports/update-executions';
import { ConfigError } from '../../shared/errors';
import { toClmError } from './aws-errors';

export interface SfnUpdateExecutionsOptions {
  readonly client: SFNClient;
  /** The cluster-update state machine. */
  readonly stateMachineArn: string;
  /** DescribeExecution calls in flight at once. @default 10 */
  readonly describeConcurrency?: number;
  /**
   * From this many executions on, describe lists the running ones first (ListExecutions, 1,000 a page) and describes
   * only the others. @default DESCRIBE_LIST_FROM
   */
  readonly listFrom?: number;
}

/** describe lists the running executions first from this many on (SfnUpdateExecutionsOptions.listFrom). */
export const DESCRIBE_LIST_FROM = 20;

const STATE_MACHINE_ARN = /^(arn:[^:]+:states:[^:]+:\d{12}):stateMachine:([^:]+)$/;

/**
 * Cluster-update executions in AWS Step Functions (Standard workflows).
 *
 * - start: StartExecution with the deterministic name. ExecutionAlreadyExists is harmless when that
 *   execution still runs (`already-running`); when it has ended the name is `name-taken`.
 * - resume: RedriveExecution (continues from the failed state, within Step Functions' 14-day window);
 *   when it is not redrivable, a new execution (which continues from the stored progress) is started.
 * - countRunning: ListExecutions RUNNING and PENDING_REDRIVE.
 * - describe: DescribeExecution, a few at a time; a missing execution is NOT_FOUND. Many at once (a pass while
 *   thousands run) would go over DescribeExecution's quota (refill 15/s in the largest regions, 10/s elsewhere;
 *   docs/scale.md): from `listFrom` on, the running ones come from ListExecutions pages, 1,000 each, and only the
 *   others (ended since the last pass, or waiting for a redrive) are described.
 */
export class SfnUpdateExecutions implements UpdateExecutions {
  private readonly client: SFNClient;
  private readonly stateMachineArn: string;
  private readonly executionPrefix: string;
  private readonly describeConcurrency: number;
  private readonly listFrom: number;

  constructor(options: SfnUpdateExecutionsOptions) {
    const match = STATE_MACHINE_ARN.exec(options.stateMachineArn);
    if (!match) throw new ConfigError(`not a Step Functions state machine ARN: ${options.stateMachineArn}`);
    this.client = options.client;
    this.stateMachineArn = options.stateMachineArn;
    this.executionPrefix = `${match[1]}:execution:${match[2]}:`;
    this.describeConcurrency = options.describeConcurrency ?? 10;
    this.listFrom = options.listFrom ?? DESCRIBE_LIST_FROM;
  }

  /** The ARN Step Functions gives the execution `name` of this state machine. */
  executionArn(name: string): string {
    return `${this.executionPrefix}${name}`;
  }

  async start(request: ExecutionRequest): Promise<StartAttempt> {
    try {
      const result = await this.client.send(
        new StartExecutionCommand({
          stateMachineArn: this.stateMachineArn,
          name: request.name,
          input: JSON.stringify(request.input),
        }),
      );
      return { how: 'started', name: request.name, arn: result.executionArn ?? this.executionArn(request.name) };
    } catch (error) {
      if (!(error instanceof ExecutionAlreadyExists))
        throw toClmError(error, `Step Functions StartExecution ${request.name}`);
      return this.existing(request.name);
    }
  }

  async resume(execution: { name: string; arn?: string }, fallback: ExecutionRequest): Promise<StartAttempt> {
    const arn = execution.arn ?? this.executionArn(execution.name);
    try {
      await this.client.send(new RedriveExecutionCommand({ executionArn: arn }));
      return { how: 'redriven', name: execution.name, arn };
    } catch (error) {
      if (error instanceof ExecutionNotRedrivable) {
        const existing = await this.existing(execution.name);
        if (existing.how === 'already-running') return existing;
      } else if (!(error instanceof ExecutionDoesNotExist)) {
        throw toClmError(error, `Step Functions RedriveExecution ${execution.name}`);
      }
      return this.start(fallback);
    }
  }

  async countRunning(): Promise<number> {
    const [running, redriving] = await Promise.all([this.count('RUNNING'), this.count('PENDING_REDRIVE')]);
    return running + redriving;
  }

  async describe(executions: readonly { name: string; arn?: string }[]): Promise<ExecutionOutcome[]> {
    const running = executions.length >= this.listFrom ? await this.runningArns() : new Set<string>();
    const known = new Map<string, ExecutionOutcome>();
    const rest = executions.filter((e) => !running.has(e.arn ?? this.executionArn(e.name)));
    for (let i = 0; i < rest.length; i += this.describeConcurrency) {
      const batch = rest.slice(i, i + this.describeConcurrency);
      const outcomes = await Promise.all(
        batch.map((e) => this.describeOne(e.name, e.arn ?? this.executionArn(e.name))),
      );
      for (const outcome of outcomes) known.set(outcome.name, outcome);
    }
    return executions.map((e) => known.get(e.name) ?? { name: e.name, status: 'RUNNING' });
  }

  private async existing(name: string): Promise<StartAttempt> {
    const outcome = await this.describeOne(name, this.executionArn(name));
    const running = outcome.status === 'RUNNING' || outcome.status === 'PENDING_REDRIVE';
    return running ? { how: 'already-running', name, arn: this.executionArn(name) } : { how: 'name-taken', name };
  }

  private async describeOne(name: string, arn: string): Promise<ExecutionOutcome> {
    try {
      const result = await this.client.send(new DescribeExecutionCommand({ executionArn: arn }));
      return {
        name,
        status: result.status ?? 'RUNNING',
        ...(result.stopDate ? { stoppedAt: result.stopDate.getTime() } : {}),
        ...(result.error ? { error: result.error } : {}),
        ...(result.cause ? { cause: result.cause } : {}),
        ...(result.status === 'SUCCEEDED' && handedOver(result.output) ? { handedOver: true } : {}),
        ...ranTo(result.status === 'SUCCEEDED' ? result.output : undefined),
      };
    } catch (error) {
      if (error instanceof ExecutionDoesNotExist) return { name, status: 'NOT_FOUND' };
      throw toClmError(error, `Step Functions DescribeExecution ${name}`);
    }
  }

  private async count(statusFilter: SfnExecutionStatus): Promise<number> {
    return (await this.list(statusFilter)).length;
  }

  /** The ARNs of this state machine's running executions. */
  private async runningArns(): Promise<Set<string>> {
    return new Set(await this.list('RUNNING'));
  }

  /** ListExecutions with `statusFilter`, every page: the executions' ARNs. */
  private async list(statusFilter: SfnExecutionStatus): Promise<string[]> {
    const arns: string[] = [];
    let nextToken: string | undefined;
    do {
      try {
        const page = await this.client.send(
          new ListExecutionsCommand({
            stateMachineArn: this.stateMachineArn,
            statusFilter,
            maxResults: 1000,
            nextToken,
          }),
        );
        for (const execution of page.executions ?? []) arns.push(execution.executionArn ?? '');
        nextToken = page.nextToken;
      } catch (error) {
        throw toClmError(error, `Step Functions ListExecutions ${statusFilter}`);
      }
    } while (nextToken);
    return arns;
  }
}

/** The target its Prepare worked towards (`$.run.targetVersion`), from a succeeded execution's output. */
function ranTo(output: string | undefined): { ranTo?: string } {
  try {
    const target = (JSON.parse(output ?? 'null') as { run?: { targetVersion?: unknown } } | null)?.run?.targetVersion;
    return typeof target === 'string' && target ? { ranTo: target } : {};
  } catch {
    return {};
  }
}

/** The execution's output says HANDED_OVER (`$.held.status`, contracts/cluster-update.ts). */
function handedOver(output: string | undefined): boolean {
  if (!output) return false;
  try {
    return (JSON.parse(output) as { held?: { status?: unknown } } | null)?.held?.status === 'HANDED_OVER';
  } catch {
    return false;
  }
}
