/**
 * Who a local process is: host, pid and start time. The start time tells a live process from a later one that got
 * the same pid, so a lease or a lock left by a process that died can be taken over at once on the same host, while
 * one held by a live process (or by a process on another host, which cannot be checked) waits for its expiry.
 *
 * On Linux the start time comes from /proc (boot time + the process's start in clock ticks), so another process
 * computes exactly the same number for a pid; elsewhere it is the process's own time origin and only "is the pid
 * alive" can be checked.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface ProcessIdentity {
  readonly host: string;
  readonly pid: number;
  /** ms since the epoch */
  readonly startedAt: number;
}

/** Linux reports process start times in ticks of USER_HZ, 100 on every architecture Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;
const PREFIX = 'cli';

let bootTime: number | undefined | null = null;

function bootTimeMs(): number | undefined {
  if (bootTime === null) {
    try {
      const line = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
      bootTime = line ? Number(line[1]) * 1000 : undefined;
    } catch {
      bootTime = undefined;
    }
  }
  return bootTime;
}

/** When `pid` started (ms since the epoch), from /proc; undefined when it is not running or /proc is missing. */
export function processStartTime(pid: number): number | undefined {
  const boot = bootTimeMs();
  if (boot === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime); the fields after the command name, which may contain spaces, start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? boot + Math.round((ticks * 1000) / CLOCK_TICKS_PER_SECOND) : undefined;
  } catch {
    return undefined;
  }
}

let self: ProcessIdentity | undefined;

export function currentProcess(): ProcessIdentity {
  self ??= {
    host: hostname(),
    pid: process.pid,
    startedAt: processStartTime(process.pid) ?? Math.round(performance.timeOrigin),
  };
  return self;
}

/** `cli:<host>:<pid>:<start ms>`: a CLI process as a lease holder. */
export function processHolder(identity: ProcessIdentity = currentProcess()): string {
  return `${PREFIX}:${identity.host}:${identity.pid}:${identity.startedAt}`;
}

/** The process behind a `processHolder` string; undefined for any other holder (e.g. a Step Functions execution). */
export function parseProcessHolder(holder: string): ProcessIdentity | undefined {
  const match = /^cli:(.+):(\d+):(\d+)$/.exec(holder);
  if (!match) return undefined;
  return { host: match[1]!, pid: Number(match[2]), startedAt: Number(match[3]) };
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True only when it is certain that the process is gone: it ran on this host and its pid is not running, or is
 * running but started at another time (a reused pid). A process on another host is never "gone" from here.
 */
export function isProcessGone(identity: ProcessIdentity): boolean {
  if (identity.host !== currentProcess().host) return false;
  if (identity.pid === process.pid) return identity.startedAt !== currentProcess().startedAt;
  if (!pidAlive(identity.pid)) return true;
  const started = processStartTime(identity.pid);
  return started !== undefined && started !== identity.startedAt;
}

/** A lease holder that is a CLI process known to be gone (see isProcessGone); false for any other holder. */
export function isHolderGone(holder: string): boolean {
  const identity = parseProcessHolder(holder);
  return identity !== undefined && isProcessGone(identity);
}
