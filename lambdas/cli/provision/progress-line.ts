import { RollStepOutput } from '../../contracts/cluster-update';
import type { TaskEvent } from '../../runtime/local/run-cluster-update';
import * as z from '../../shared/zod';
import { rollRemainingMs } from '../../core/rollout/roll-eta';

/** `  [  1m05s] RollStep: default-worker: 1/2 nodes replaced; …; ETA 2m31s` — one line per task, as it ends. */
export function progressLine(event: TaskEvent, elapsedMs: number, eta: RollEta): string {
  const output = z.parse(event.task.output, event.output) as { message?: unknown };
  const message = typeof output.message === 'string' ? output.message : JSON.stringify(output);
  const roll = RollStepOutput.safeParse(event.output);
  const suffix = roll.success ? eta(roll.data.pool, roll.data.replaced, roll.data.total, elapsedMs) : '';
  return `  [${formatDuration(Math.round(elapsedMs / 1000)).padStart(7)}] ${event.stateName}: ${message}${suffix}`;
}

/** Gives the `; ETA …` suffix of a roll's progress line (or ''), from (pool, replaced, total, elapsed ms). */
export type RollEta = (pool: string, replaced: number, total: number, nowMs: number) => string;

/**
 * Live ETA of node rolls: the time per replaced node seen by this process so far (from the pool's first
 * step here, so a resumed run measures its own pace) times the nodes left. Nothing before the first
 * replacement, nor once every node is replaced.
 */
export function rollEta(): RollEta {
  const first = new Map<string, { at: number; replaced: number }>();
  return (pool, replaced, total, nowMs) => {
    const start = first.get(pool);
    if (!start) first.set(pool, { at: nowMs, replaced });
    if (!start) return '';
    const remaining = rollRemainingMs(nowMs - start.at, replaced - start.replaced, total - replaced);
    return remaining === undefined ? '' : `; ETA ${formatDuration(Math.round(remaining / 1000))}`;
  };
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const m = Math.floor(seconds / 60);
  return m < 60
    ? `${m}m${String(seconds % 60).padStart(2, '0')}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
