import type { ExecutionStatusChange, PassRequest } from '../../contracts/triggers';
import { localStatusChange } from './local-status-change';
import { formatDispatchReport } from '../../core/dispatch/fleet-report';
import type { FleetSession } from './fleet-session';
import { runNextExecution } from './run-executions';

export interface ControllerOptions {
  readonly log: (line: string) => void;
  readonly verbose?: boolean;
  /** Before a scheduled pass (`clm serve --simulate` moves the simulated clock by the interval). */
  readonly beforeScheduledPass?: () => Promise<void> | void;
  /** An update starts running or ends (`clm serve` reports it to the forge, as the deployed rule does). */
  readonly onExecution?: (change: ExecutionStatusChange) => Promise<void>;
}

export interface ControllerStatus {
  readonly passes: number;
  readonly passesQueued: number;
  readonly updatesQueued: number;
  readonly updatesRun: number;
  readonly stopping: boolean;
  /** A pass or an update is running now (idle: false, nothing queued and nothing running). */
  readonly busy: boolean;
}

/**
 * `clm serve`'s loop, CLM's controller mode on one thread: passes first (asked for by a push, the interval, or an
 * update that ended — as the deployed rules ask DispatchFleet), then the updates they started, one at a time, in
 * process; idle until asked again. Everything runs here, in order, so a pass never sees an update half-way through a
 * task. `stop()` ends it at the next safe point: after the current pass, or after the current task of an update.
 */
export class FleetController {
  private readonly requests: PassRequest[] = [];
  /** Work asked for besides passes (a pull request's plans to queue), run first. */
  private readonly jobs: (() => Promise<void>)[] = [];
  private wake: (() => void) | undefined;
  private stopping = false;
  private passes = 0;
  private updatesRun = 0;
  private busy = false;

  constructor(
    private readonly session: FleetSession,
    private readonly options: ControllerOptions,
  ) {}

  /** Ask for a pass. A whole-fleet pass already waiting covers any other; a push waiting is not asked for twice. */
  request(request: PassRequest): void {
    const wholeFleetWaiting = this.requests.some((r) => r.trigger === 'schedule' || r.trigger === 'execution');
    const samePushWaiting =
      request.trigger === 'webhook' &&
      this.requests.some(
        (r) =>
          r.trigger === 'webhook' && r.push.ref === request.push.ref && r.push.repository === request.push.repository,
      );
    if (!wholeFleetWaiting && !samePushWaiting) this.requests.push(request);
    this.wake?.();
  }

  /** Run `job` on the loop (before the next pass or update); a failure is logged. */
  later(job: () => Promise<void>): void {
    this.jobs.push(job);
    this.wake?.();
  }

  stop(): void {
    this.stopping = true;
    this.wake?.();
  }

  status(): ControllerStatus {
    return {
      passes: this.passes,
      passesQueued: this.requests.length + this.jobs.length,
      updatesQueued: this.session.executions.queued(),
      updatesRun: this.updatesRun,
      stopping: this.stopping,
      busy: this.busy,
    };
  }

  /** Until stopped. */
  async run(): Promise<void> {
    while (!this.stopping) {
      this.busy = true;
      const job = this.jobs.shift();
      if (job) {
        await job().catch((error: Error) => this.options.log(`failed: ${error.message}`));
        continue;
      }
      const request = this.requests.shift();
      if (request) {
        await this.pass(request);
        continue;
      }
      if (await this.runUpdate()) continue;
      this.busy = false;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  private async pass(request: PassRequest): Promise<void> {
    try {
      if (request.trigger === 'schedule') await this.options.beforeScheduledPass?.();
      const report = await this.session.pass(request);
      this.passes++;
      this.options.log(`pass (${describe(request)}): ${formatDispatchReport(report)}`);
    } catch (error) {
      this.options.log(`pass (${describe(request)}) failed: ${(error as Error).message}`);
    }
  }

  /** Run the next queued update; false when there is none. */
  private async runUpdate(): Promise<boolean> {
    const report = this.options.onExecution;
    const outcome = await runNextExecution(this.session, {
      shouldStop: () => this.stopping,
      log: this.options.log,
      ...(this.options.verbose ? { verbose: true } : {}),
      ...(report ? { onStart: (execution) => report(localStatusChange(execution, 'RUNNING')) } : {}),
    });
    if (outcome.kind === 'idle') return false;
    // A run stopped at a safe point stays pending: the next pass resumes it.
    if (report && outcome.kind === 'ran') {
      await report(localStatusChange(outcome.execution, outcome.status, outcome.output));
    }
    if (outcome.kind === 'ran') {
      this.updatesRun++;
      this.request({ trigger: 'execution', execution: { name: outcome.execution.name, status: outcome.status } });
    }
    return true;
  }
}

function describe(request: PassRequest): string {
  switch (request.trigger) {
    case 'webhook':
      return `push to ${request.push.ref} of ${request.push.repository}`;
    case 'execution':
      return `${request.execution.name} ${request.execution.status.toLowerCase()}`;
    default:
      return request.trigger;
  }
}
