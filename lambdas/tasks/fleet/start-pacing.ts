import type { Clock } from '../../ports/clock';

/** How a pass spreads its StartExecution calls: `batch` calls at once, a batch every `intervalMs`. */
export interface StartPace {
  readonly batch: number;
  readonly intervalMs: number;
}

/** The pace of `startsPerSecond` (fleet settings): whole batches, at least one call each. */
export function startPace(startsPerSecond: number): StartPace {
  const batch = Math.max(1, Math.floor(startsPerSecond));
  return { batch, intervalMs: Math.ceil((batch / startsPerSecond) * 1000) };
}

/**
 * Call `fn` for every item, in order, `pace.batch` at a time and a batch per `pace.intervalMs` at most (waiting on the
 * clock between batches): the dispatcher's StartExecution calls stay under its share of Step Functions' StartExecution
 * bucket however many clusters a wave opens. Results come back in the items' order.
 */
export async function paced<T, R>(
  items: readonly T[],
  clock: Clock,
  pace: StartPace,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += pace.batch) {
    const began = clock.now();
    results.push(...(await Promise.all(items.slice(i, i + pace.batch).map(fn))));
    const rest = began + pace.intervalMs - clock.now();
    if (i + pace.batch < items.length && rest > 0) await clock.sleep(rest);
  }
  return results;
}
