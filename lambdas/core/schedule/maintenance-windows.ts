import { ValidationError } from '../../shared/errors';

/**
 * Maintenance windows (config item `maintenance_windows`, per cluster, a pool's own item overriding it): when nodes may
 * be replaced. Syntax, `;`-separated windows of `DAYS HH:MM-HH:MM TIME_ZONE`:
 *
 *   Mon-Fri 08:00-17:00 Europe/Berlin; Sat 10:00-12:00 UTC
 *   Mon,Wed,Fri 22:00-04:00 America/New_York      (over midnight: belongs to the day it starts)
 *   * 00:00-24:00 UTC                               (every day)
 *
 * Days are Mon Tue Wed Thu Fri Sat Sun, ranges wrap (`Fri-Mon`), times are the zone's wall clock (IANA names), so a
 * window keeps its local hours across daylight-saving changes. Pure: the time zones come from Intl.
 */
export interface MaintenanceWindow {
  /** 0 = Sunday … 6 = Saturday. */
  readonly days: ReadonlySet<number>;
  /** Minutes after local midnight. */
  readonly start: number;
  /** Minutes after local midnight; less than or equal to start: the window ends the next day. */
  readonly end: number;
  readonly timeZone: string;
  readonly text: string;
}

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const DAY = 24 * 60;

export function parseMaintenanceWindows(text: string, where: string): MaintenanceWindow[] {
  const windows = text
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => parseWindow(part, where));
  if (windows.length === 0) throw new ValidationError(`${where}: maintenance_windows is empty`);
  return windows;
}

function parseWindow(text: string, where: string): MaintenanceWindow {
  const fail = (why: string) =>
    new ValidationError(`${where}: maintenance window "${text}": ${why} (e.g. "Mon-Fri 08:00-17:00 Europe/Berlin")`);
  const match = /^(\S+)\s+(\d{1,2}):(\d{2})-(\d{1,2}):(\d{2})\s+(\S+)$/.exec(text);
  if (!match) throw fail('expected DAYS HH:MM-HH:MM TIME_ZONE');
  const [, dayText, sh, sm, eh, em, timeZone] = match;
  const start = Number(sh) * 60 + Number(sm);
  const end = Number(eh) * 60 + Number(em);
  if (Number(sm) > 59 || Number(em) > 59 || start >= DAY || end > DAY) throw fail('times go from 00:00 to 24:00');
  if (start === end) throw fail('the window is empty');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timeZone! });
  } catch {
    throw fail(`unknown time zone ${timeZone} (use an IANA name such as Europe/Berlin or UTC)`);
  }
  return { days: parseDays(dayText!, fail), start, end: end === DAY ? 0 : end, timeZone: timeZone!, text };
}

function parseDays(text: string, fail: (why: string) => Error): Set<number> {
  if (text === '*') return new Set([0, 1, 2, 3, 4, 5, 6]);
  const days = new Set<number>();
  const day = (name: string): number => {
    const index = DAY_NAMES.indexOf(name.toLowerCase() as (typeof DAY_NAMES)[number]);
    if (index < 0) throw fail(`unknown day ${name}`);
    return index;
  };
  for (const part of text.split(',')) {
    const [from, to] = part.split('-');
    if (to === undefined) {
      days.add(day(from!));
      continue;
    }
    for (let d = day(from!), last = day(to); ; d = (d + 1) % 7) {
      days.add(d);
      if (d === last) break;
    }
  }
  return days;
}

interface LocalTime {
  readonly weekday: number;
  readonly minutes: number;
  /** The wall-clock time read as if it were UTC (ms): local midnight arithmetic. */
  readonly wallMs: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function localTime(ms: number, timeZone: string): LocalTime {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const [year, month, day, hour, minute] = ['year', 'month', 'day', 'hour', 'minute'].map((k) => Number(parts[k]));
  return {
    weekday: DAY_NAMES.indexOf(String(parts.weekday).toLowerCase() as (typeof DAY_NAMES)[number]),
    minutes: hour! * 60 + minute!,
    wallMs: Date.UTC(year!, month! - 1, day!, hour!, minute!),
  };
}

/** The instant the zone's wall clock shows `wallMs` (read as UTC); a wall time in a DST gap lands in the hour after it. */
function instantOf(wallMs: number, timeZone: string): number {
  let guess = wallMs;
  for (let i = 0; i < 3; i++) {
    const offset = localTime(guess, timeZone).wallMs - Math.floor(guess / 60_000) * 60_000;
    guess = wallMs - offset;
  }
  return guess;
}

function inWindow(window: MaintenanceWindow, ms: number): boolean {
  const local = localTime(ms, window.timeZone);
  const overnight = window.end <= window.start;
  if (window.days.has(local.weekday) && local.minutes >= window.start && (overnight || local.minutes < window.end))
    return true;
  return overnight && window.days.has((local.weekday + 6) % 7) && local.minutes < window.end;
}

/** Is any window open at `ms`? */
export function windowOpen(windows: readonly MaintenanceWindow[], ms: number): boolean {
  return windows.some((w) => inWindow(w, ms));
}

/** When the next window opens (`ms` itself when one is open now). */
export function nextWindowOpening(windows: readonly MaintenanceWindow[], ms: number): number {
  if (windowOpen(windows, ms)) return ms;
  let best = Infinity;
  for (const window of windows) {
    const local = localTime(ms, window.timeZone);
    const midnight = local.wallMs - local.minutes * 60_000;
    for (let offset = 0; offset <= 7; offset++) {
      const dayMidnight = midnight + offset * DAY * 60_000;
      if (!window.days.has(new Date(dayMidnight).getUTCDay())) continue;
      const opens = instantOf(dayMidnight + window.start * 60_000, window.timeZone);
      if (opens > ms) {
        best = Math.min(best, opens);
        break;
      }
    }
  }
  return best;
}
