import type { Clock } from '../../ports/clock';
import { ThrottledError } from '../../shared/errors';

/** How a throttled call is tried again: `attempts` in all, waiting base, 2 × base, … (at most `maxMs`) in between. */
export interface ThrottleBackoff {
  readonly attempts: number;
  readonly baseMs: number;
  readonly maxMs: number;
}

/** What a call under back-off gave: its value, or `throttled` when every attempt was; `throttles` counts the refusals. */
export type Throttled<T> =
  | { readonly ok: true; readonly value: T; readonly throttles: number }
  | { readonly ok: false; readonly error: ThrottledError; readonly throttles: number };

/** The wait before attempt `attempt + 1` (attempt counts from 1). */
export function backoffMs(backoff: ThrottleBackoff, attempt: number): number {
  return Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempt - 1));
}

/**
 * Call `fn`; when AWS throttles it (ThrottledError: the SDK's own retries are spent), wait on the clock and call it
 * again, up to `backoff.attempts` in all. Throttling is counted and returned, not thrown: the caller decides what a
 * call still throttled means (the next pass, the next roll step). Any other error is thrown as it is.
 */
export async function retryThrottled<T>(
  clock: Clock,
  backoff: ThrottleBackoff,
  fn: () => Promise<T>,
): Promise<Throttled<T>> {
  let throttles = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, value: await fn(), throttles };
    } catch (error) {
      if (!(error instanceof ThrottledError)) throw error;
      throttles++;
      if (attempt >= backoff.attempts) return { ok: false, error, throttles };
      await clock.sleep(backoffMs(backoff, attempt));
    }
  }
}
