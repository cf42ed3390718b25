/**
 * When a Karpenter disruption budget with a `schedule` is active: Karpenter reads `schedule` as a standard 5-field cron
 * expression in UTC (minute, hour, day of month, month, day of week; `*`, lists, ranges, steps, month and day names,
 * and the macros `@yearly`/`@annually`, `@monthly`, `@weekly`, `@daily`/`@midnight`, `@hourly`), and the budget applies
 * for `duration` after each time it matches. Day of month and day of week combine as in cron: when both are
 * restricted, either may match. Pure.
 */

export interface CronSchedule {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly daysOfWeek: ReadonlySet<number>;
  /** Day of month or day of week left as `*` (or `?`): the two then both have to match. */
  readonly anyDay: boolean;
}

const MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldRange {
  readonly min: number;
  readonly max: number;
  /** Names for the values from `min` on (months from 1, days from 0). */
  readonly names?: readonly string[];
}

const FIELDS: readonly FieldRange[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 7, names: DAYS },
];

/** The schedule of `text`, or undefined when it is not a cron expression Karpenter would accept. */
export function parseCron(text: string): CronSchedule | undefined {
  const expanded = MACROS[text.trim().toLowerCase()] ?? text.trim();
  const parts = expanded.split(/\s+/);
  if (parts.length !== 5) return undefined;
  const sets = parts.map((part, i) => parseField(part, FIELDS[i]!));
  if (sets.some((s) => s === undefined)) return undefined;
  const [minutes, hours, daysOfMonth, months, weekDays] = sets as Set<number>[];
  // 7 is Sunday too
  const daysOfWeek = new Set([...weekDays!].map((d) => d % 7));
  const star = (part: string) => part === '*' || part === '?';
  return {
    minutes: minutes!,
    hours: hours!,
    daysOfMonth: daysOfMonth!,
    months: months!,
    daysOfWeek,
    anyDay: star(parts[2]!) || star(parts[4]!),
  };
}

function parseField(part: string, range: FieldRange): Set<number> | undefined {
  const values = new Set<number>();
  for (const item of part.split(',')) {
    const [span, stepText, extra] = item.split('/');
    if (extra !== undefined || span === undefined) return undefined;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) return undefined;
    let low: number | undefined;
    let high: number | undefined;
    if (span === '*' || span === '?') [low, high] = [range.min, range.max];
    else {
      const [from, to, more] = span.split('-');
      if (more !== undefined) return undefined;
      low = value(from, range);
      high = to === undefined ? (stepText === undefined ? low : range.max) : value(to, range);
    }
    if (low === undefined || high === undefined || low > high) return undefined;
    for (let v = low; v <= high; v += step) values.add(v);
  }
  return values;
}

function value(text: string | undefined, range: FieldRange): number | undefined {
  if (text === undefined) return undefined;
  const named = range.names?.indexOf(text.toLowerCase()) ?? -1;
  const v = named >= 0 ? named + (range.min === 1 ? 1 : 0) : /^\d+$/.test(text) ? Number(text) : Number.NaN;
  return v >= range.min && v <= range.max ? v : undefined;
}

/** Whether the schedule fires at the minute of `at` (UTC). */
export function cronMatches(schedule: CronSchedule, at: number): boolean {
  const d = new Date(at);
  if (!schedule.minutes.has(d.getUTCMinutes()) || !schedule.hours.has(d.getUTCHours())) return false;
  if (!schedule.months.has(d.getUTCMonth() + 1)) return false;
  const dom = schedule.daysOfMonth.has(d.getUTCDate());
  const dow = schedule.daysOfWeek.has(d.getUTCDay());
  return schedule.anyDay ? dom && dow : dom || dow;
}

const MINUTE_MS = 60_000;
/** How far back a firing is looked for: a schedule that last fired longer ago does not hold now, whatever its duration. */
export const MAX_WINDOW_MS = 31 * 24 * 60 * MINUTE_MS;

/**
 * When the window of `schedule` that holds `now` ends (ms), or undefined when no window holds it: the latest time the
 * schedule fired at or before `now` and less than `durationMs` ago, plus `durationMs`.
 */
export function activeWindowEnd(schedule: CronSchedule, durationMs: number, now: number): number | undefined {
  const span = Math.min(durationMs, MAX_WINDOW_MS);
  for (let at = Math.floor(now / MINUTE_MS) * MINUTE_MS; at > now - span; at -= MINUTE_MS)
    if (cronMatches(schedule, at)) return at + durationMs;
  return undefined;
}
