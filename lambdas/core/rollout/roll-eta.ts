/**
 * The estimated end of a node roll, at its pace so far: the time per replaced node times the nodes left. The CLI's
 * live line, `clm status`, the roll step's output and the events all use it, so they agree. Nothing before the first
 * replacement (no pace yet), nor once every node is replaced.
 */
export function rollRemainingMs(elapsedMs: number, replacedMeanwhile: number, left: number): number | undefined {
  if (replacedMeanwhile <= 0 || left <= 0 || elapsedMs < 0) return undefined;
  return Math.round((elapsedMs / replacedMeanwhile) * left);
}

/** What a pool's progress says about its pace (PoolProgress has these). */
export interface RollPace {
  readonly status: string;
  readonly total: number;
  readonly replaced: number;
  readonly startedAt?: number;
}

/** When a rolling pool should be done (ms since the epoch), from its stored progress; undefined when unknown or done. */
export function estimatedRollEnd(pool: RollPace, now: number): number | undefined {
  if (pool.status !== 'rolling' || pool.startedAt === undefined) return undefined;
  const remaining = rollRemainingMs(now - pool.startedAt, pool.replaced, pool.total - pool.replaced);
  return remaining === undefined ? undefined : now + remaining;
}

/** The end of a run's running roll: the latest end of its rolling pools (ms since the epoch), if any is known. */
export function runRollEnd(pools: Readonly<Record<string, RollPace>>, now: number): number | undefined {
  const ends = Object.values(pools).flatMap((p) => {
    const end = estimatedRollEnd(p, now);
    return end === undefined ? [] : [end];
  });
  return ends.length ? Math.max(...ends) : undefined;
}
