import type { Clock } from '../../ports/clock';
import type { LaunchBudget, LaunchScope } from '../../ports/launch-budget';
import { retryThrottled, type ThrottleBackoff } from '../throttling/retry-throttled';

/**
 * Auto Scaling calls AWS throttled (UpdateAutoScalingGroup, TerminateInstanceInAutoScalingGroup: "Rate exceeded",
 * after the SDK's own retries): tried again after 2 and 4 s in the step, then left to the next step, which backs off.
 */
export const SCALING_BACKOFF: ThrottleBackoff = { attempts: 3, baseMs: 2_000, maxMs: 8_000 };

/** What one roll step's launches came to, for its output, its metrics and its wait. */
export interface LaunchTally {
  /** Launches the step wanted and the budget held back (the surge shrank, or a termination decremented). */
  readonly deferred: number;
  /** Auto Scaling answers that were throttled (each tried again after a back-off). */
  readonly throttles: number;
  /** When the budget has more, if it held some back. */
  readonly nextAt?: number;
  /** A call still throttled after the back-off: what the step could not do. */
  readonly throttled?: string;
}

/**
 * The launches one roll step of an Auto Scaling pool may cause, taken from its account and region's budget as the
 * step needs them (a scale-out, then one per termination that makes the group launch a replacement), and the step's
 * Auto Scaling calls, tried again while AWS throttles them. Launches taken and not used go back at the end.
 */
export class LaunchAllowance {
  private held = 0;
  private tally: { deferred: number; throttles: number; nextAt?: number; throttled?: string } = {
    deferred: 0,
    throttles: 0,
  };

  constructor(
    private readonly budget: LaunchBudget,
    readonly scope: LaunchScope,
    private readonly clock: Clock,
    private readonly now: number,
  ) {}

  /** Where the budget applies, for messages. */
  get where(): string {
    return `account ${this.scope.account} in ${this.scope.region}`;
  }

  /** Take up to `want` launches for a scale-out; what is held back counts as deferred. */
  async take(want: number): Promise<{ granted: number; nextAt?: number }> {
    if (want <= 0) return { granted: 0 };
    const grant = await this.budget.take(this.scope, want, this.now);
    this.tally.deferred += want - grant.granted;
    if (grant.nextAt !== undefined) this.noteNext(grant.nextAt);
    return grant;
  }

  /**
   * One launch for a termination that makes the group launch a replacement: from what this step holds, else up to
   * `ahead` more taken at once (the terminations still to come in this step). False when the budget has none now.
   */
  async takeOne(ahead: number): Promise<boolean> {
    if (this.held > 0) {
      this.held--;
      return true;
    }
    const grant = await this.budget.take(this.scope, Math.max(1, ahead), this.now);
    if (grant.nextAt !== undefined) this.noteNext(grant.nextAt);
    if (grant.granted === 0) {
      this.tally.deferred++;
      return false;
    }
    this.held = grant.granted - 1;
    return true;
  }

  /** Launches taken for a call AWS refused go back. */
  async giveBack(count: number): Promise<void> {
    if (count > 0) await this.budget.giveBack(this.scope, count, this.now);
  }

  /** An Auto Scaling call, tried again while throttled; false when it still was after the back-off. */
  async call(what: string, fn: () => Promise<void>): Promise<boolean> {
    const result = await retryThrottled(this.clock, SCALING_BACKOFF, fn);
    this.tally.throttles += result.throttles;
    if (result.ok) return true;
    this.tally.throttled ??= `Auto Scaling throttled ${what} ${result.throttles} times (${result.error.message.split('\n')[0]})`;
    return false;
  }

  /** Give back what the step took and did not use; the step's tally. */
  async finish(): Promise<LaunchTally> {
    await this.giveBack(this.held);
    this.held = 0;
    return { ...this.tally };
  }

  private noteNext(at: number): void {
    this.tally.nextAt = this.tally.nextAt === undefined ? at : Math.min(this.tally.nextAt, at);
  }
}

/** A step's tally folded into its pool's running totals, and its figures for the step's output (metrics). */
export function tallied(
  progress: { readonly launchesDeferred?: number; readonly scalingThrottled?: number },
  tally: LaunchTally | undefined,
): {
  progress: { launchesDeferred?: number; scalingThrottled?: number };
  output: { launchesDeferred?: number; scalingThrottled?: number };
} {
  if (!tally || (tally.deferred === 0 && tally.throttles === 0)) return { progress: {}, output: {} };
  return {
    progress: {
      launchesDeferred: (progress.launchesDeferred ?? 0) + tally.deferred,
      scalingThrottled: (progress.scalingThrottled ?? 0) + tally.throttles,
    },
    output: {
      ...(tally.deferred ? { launchesDeferred: tally.deferred } : {}),
      ...(tally.throttles ? { scalingThrottled: tally.throttles } : {}),
    },
  };
}
