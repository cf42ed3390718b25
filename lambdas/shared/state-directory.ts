/**
 * The `--state DIR` directory is shared by every CLM process on the machine: each file is replaced atomically (a
 * temporary file with a name no other process or call uses, then rename), and read-check-write sequences run under
 * the directory's lock, `DIR/.lock`. The lock is held for milliseconds (one conditional write, one world save),
 * never for a whole run: two processes on different clusters work side by side, and the per-cluster lease decides
 * who may work on a cluster.
 *
 * A lock left behind by a process that died inside its critical section is broken at once when that process is
 * known to be gone (same host, pid not running or reused), otherwise after STALE_LOCK_MS.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError } from './errors';
import { currentProcess, isProcessGone } from './process-identity';
import type { ProcessIdentity } from './process-identity';

export const LOCK_FILE = '.lock';
/** A critical section takes milliseconds; a lock this old belongs to a process that stopped inside one. */
export const STALE_LOCK_MS = 30_000;
const DEFAULT_WAIT_MS = 15_000;

/** Replace `path` with `text` atomically: readers see the old or the new content, never a mix. */
export function writeFileAtomic(path: string, text: string): void {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

interface LockRecord extends ProcessIdentity {
  /** When it was taken, ms since the epoch. */
  readonly at: number;
}

const depthByDir = new Map<string, number>();

/**
 * Run `fn` (synchronous) holding `dir`'s lock; re-entrant within one process. Waits up to `waitMs` for another
 * process to release it, then throws ConflictError naming the holder.
 */
export function withStateLock<T>(dir: string, fn: () => T, waitMs = DEFAULT_WAIT_MS): T {
  const depth = depthByDir.get(dir) ?? 0;
  const own = depth === 0 ? acquire(dir, waitMs) : undefined;
  depthByDir.set(dir, depth + 1);
  try {
    const result = fn();
    if (result instanceof Promise) throw new Error('withStateLock: fn must be synchronous');
    return result;
  } finally {
    if (depth === 0) {
      depthByDir.delete(dir);
      release(dir, own!);
    } else depthByDir.set(dir, depth);
  }
}

function acquire(dir: string, waitMs: number): string {
  const path = join(dir, LOCK_FILE);
  const mine = JSON.stringify({ ...currentProcess(), at: Date.now() } satisfies LockRecord);
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    if (createLock(path, mine)) return mine;
    const held = readLock(path);
    if (held && isStale(held)) {
      breakStale(path, held.text);
      continue;
    }
    if (Date.now() > deadline) {
      throw new ConflictError(
        `state directory ${dir} is locked by ${describeHolder(held?.record)}; if that process is gone, delete ${path}`,
      );
    }
    sleepMs(Math.min(50, 2 + attempt * 2));
  }
}

/**
 * Create the lock file with its record in one step: the record is written to a file of our own, then hard-linked as the
 * lock (which fails if the lock exists). A process killed meanwhile leaves no empty lock that nobody could judge (it
 * would hold everyone off until STALE_LOCK_MS). Where the file system has no hard links, an exclusive create.
 */
function createLock(path: string, record: string): boolean {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, record);
    linkSync(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
    return createExclusively(path, record);
  } finally {
    rmSync(temp, { force: true });
  }
}

function createExclusively(path: string, record: string): boolean {
  try {
    writeFileSync(path, record, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}

function release(dir: string, mine: string): void {
  const path = join(dir, LOCK_FILE);
  // Only our own lock: a slow holder's lock may have been broken as stale and taken by another process.
  if (readLock(path)?.text === mine) unlinkSync(path);
}

function readLock(path: string): { text: string; record?: LockRecord; mtimeMs: number } | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    const mtimeMs = statSync(path).mtimeMs;
    try {
      return { text, record: JSON.parse(text) as LockRecord, mtimeMs };
    } catch {
      return { text, mtimeMs }; // being written right now
    }
  } catch {
    return undefined; // released meanwhile
  }
}

function isStale(held: { record?: LockRecord; mtimeMs: number }): boolean {
  if (Date.now() - (held.record?.at ?? held.mtimeMs) > STALE_LOCK_MS) return true;
  return held.record !== undefined && isProcessGone(held.record);
}

/**
 * Move the stale lock aside under a unique name and delete it if it is still the one judged stale. If another
 * process replaced it in between, put that one back (it wins; we wait for it like for any holder).
 */
function breakStale(path: string, staleText: string): void {
  const aside = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else broke or released it
  }
  const moved = readFileSync(aside, 'utf8');
  if (moved !== staleText) {
    try {
      writeFileSync(path, moved, { flag: 'wx' });
    } catch {
      // a third process took the lock meanwhile: it holds it now
    }
  }
  unlinkSync(aside);
}

function describeHolder(record?: LockRecord): string {
  if (!record) return 'another process';
  return `process ${record.pid} on ${record.host} (since ${new Date(record.at).toISOString()})`;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleepMs(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
