import type { LaunchLimits } from '../core/capacity/launch-bucket';

/** Whose budget a roll takes from: one infrastructure account in one region, and which roll asks. */
export interface LaunchScope {
  /** The cluster's infrastructure account (`aws:123456789012`). */
  readonly account: string;
  readonly region: string;
  /** `<cluster id>/<pool>`: which shard it takes from first. */
  readonly claimant: string;
}

/** What a take gave. */
export interface LaunchGrant {
  /** Launches the roll may cause now, 0 … want. */
  readonly granted: number;
  /** When at least one more is available, if fewer than wanted were granted. */
  readonly nextAt?: number;
}

/**
 * The launch budget all rolls of one account and region share (core/capacity/launch-bucket.ts): a token bucket per
 * account and region, kept where every execution sees it (the progress table in AWS, `--state DIR` locally), each
 * take an atomic read-modify-write, so rolls running at once never grant more than the budget together.
 */
export interface LaunchBudget {
  /** The budget of every account and region (fleet settings launchesPerSecond, launchBurst, launchShards). */
  readonly limits: LaunchLimits;
  /** Take up to `want` launches at `now`. */
  take(scope: LaunchScope, want: number, now: number): Promise<LaunchGrant>;
  /** Return launches taken and not used (AWS refused the call that would have made them). */
  giveBack(scope: LaunchScope, count: number, now: number): Promise<void>;
}
