/**
 * The launch budget of one account and region: how many EC2 instance launches the rolls of all clusters there may cause,
 * as a token bucket like EC2's own RunInstances resource bucket (1,000 instances, refilled at 2 per second per account
 * and region; docs/scale.md). Rolls take tokens before they scale out or terminate a node without decrementing (both
 * make the Auto Scaling group launch), so together they stay under the bucket instead of tripping RunInstances
 * throttling. Pure: the stores (ports/launch-budget.ts) keep the state and make the read-modify-write atomic.
 */

/** The budget per account and region. */
export interface LaunchLimits {
  /** Launches per second, sustained (the bucket's refill). */
  readonly perSecond: number;
  /** Launches at once after a quiet spell (the bucket's size). */
  readonly burst: number;
  /**
   * Items the budget is split over (each holding 1/shards of the rate and burst): rolls pick theirs by cluster and
   * pool, so racing conditional writes spread over several items. 1 for most fleets (docs/scale.md).
   */
  readonly shards: number;
}

/** One bucket (or shard of one) as stored: the tokens it held at `at` (ms since the epoch). */
export interface BucketState {
  readonly tokens: number;
  readonly at: number;
}

/** What a take gave. */
export interface BucketTake {
  /** Whole launches granted, 0 … want. */
  readonly granted: number;
  /** The bucket after the take, to store. */
  readonly state: BucketState;
  /** When the next whole launch is available, if fewer than wanted were granted. */
  readonly nextAt?: number;
}

/** The rate and size of one of `limits.shards` shards. */
export function shardLimits(limits: LaunchLimits): { readonly perSecond: number; readonly burst: number } {
  return { perSecond: limits.perSecond / limits.shards, burst: limits.burst / limits.shards };
}

/** The tokens a bucket holds at `now`: refilled since `at`, never above its size; a new bucket is full. */
export function tokensAt(state: BucketState | undefined, now: number, rate: number, burst: number): number {
  if (!state) return burst;
  const elapsed = Math.max(0, now - state.at) / 1000;
  return Math.min(burst, state.tokens + elapsed * rate);
}

/**
 * Take up to `want` whole launches from a bucket at `now`. Clocks of different callers may disagree a little: a state
 * stamped after `now` is not refilled backwards (its time is kept).
 */
export function takeFromBucket(
  state: BucketState | undefined,
  want: number,
  now: number,
  limits: { readonly perSecond: number; readonly burst: number },
): BucketTake {
  const at = Math.max(now, state?.at ?? now);
  const tokens = tokensAt(state, at, limits.perSecond, limits.burst);
  const granted = Math.max(0, Math.min(Math.floor(want), Math.floor(tokens + 1e-9)));
  const left = tokens - granted;
  const short = granted < want;
  return {
    granted,
    state: { tokens: left, at },
    ...(short ? { nextAt: at + Math.ceil((Math.max(0, 1 - left) / limits.perSecond) * 1000) } : {}),
  };
}

/** Give launches back that were taken but not used (a scale-out AWS refused): the bucket never grows past its size. */
export function giveBackToBucket(
  state: BucketState | undefined,
  count: number,
  now: number,
  limits: { readonly perSecond: number; readonly burst: number },
): BucketState {
  const at = Math.max(now, state?.at ?? now);
  return { tokens: Math.min(limits.burst, tokensAt(state, at, limits.perSecond, limits.burst) + count), at };
}

/** The shard a claimant (`<cluster id>/<pool>`) takes from first; the others follow in order. */
export function shardOrder(claimant: string, shards: number): number[] {
  let hash = 2166136261;
  for (let i = 0; i < claimant.length; i++) hash = Math.imul(hash ^ claimant.charCodeAt(i), 16777619) >>> 0;
  const first = hash % shards;
  return Array.from({ length: shards }, (_, i) => (first + i) % shards);
}

/**
 * True when launches at the given times (ms, any order) never exceeded a bucket of `limits` that was full before the
 * first: for every window (s, t], launches in it ≤ burst + perSecond × (t − s). What tests check a budget against.
 */
export function withinBucket(
  launches: readonly number[],
  limits: { readonly perSecond: number; readonly burst: number },
): { ok: boolean; worst: number } {
  const times = [...launches].sort((a, b) => a - b);
  let worst = -Infinity;
  // The tightest window ending at each launch starts at an earlier launch (inclusive): count j..i.
  for (let i = 0; i < times.length; i++) {
    for (let j = i; j >= 0; j--) {
      const excess = i - j + 1 - (limits.burst + (limits.perSecond * (times[i] - times[j])) / 1000);
      worst = Math.max(worst, excess);
      if ((limits.perSecond * (times[i] - times[j])) / 1000 > limits.burst + times.length) break;
    }
  }
  return { ok: worst <= 1e-9, worst };
}
