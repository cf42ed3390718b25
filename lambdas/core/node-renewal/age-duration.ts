import { parseGoDuration } from '../rollout/go-duration';

const DAY_MS = 24 * 3_600_000;

/**
 * A duration for ages and waits that may run to weeks: a Go duration ("10m", "720h", "1h30m") or one with days in front
 * ("30d", "7d12h"), as Karpenter's `expireAfter` is written. Milliseconds; undefined when invalid.
 */
export function parseAgeDuration(text: string): number | undefined {
  const match = /^\s*(?:(\d+)d)?(.*?)\s*$/.exec(text);
  if (!match) return undefined;
  const days = match[1] === undefined ? undefined : Number(match[1]) * DAY_MS;
  const rest = match[2] ?? '';
  if (rest === '') return days;
  const go = parseGoDuration(rest);
  return go === undefined ? undefined : (days ?? 0) + go;
}

/** `2d3h`, `45m`, `90s`: a duration as a person reads it, to the second. */
export function formatAge(ms: number): string {
  let seconds = Math.max(0, Math.round(ms / 1000));
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
  ] as const) {
    if (seconds >= size) {
      parts.push(`${Math.floor(seconds / size)}${unit}`);
      seconds %= size;
    }
  }
  if (seconds > 0 || parts.length === 0) parts.push(`${seconds}s`);
  return parts.join('');
}
