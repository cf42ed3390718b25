import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../io';

export const LOCK_FILE = 'clm.lock';

/**
 * One dispatcher per state directory: `clm serve` and `clm dispatch` keep the fleet and the executions in it. A
 * lock left by a process that is gone (killed) is taken over.
 */
export function takeStateLock(stateDir: string, pid = process.pid): { release(): void } {
  mkdirSync(stateDir, { recursive: true });
  const path = join(stateDir, LOCK_FILE);
  let holder: number | undefined;
  try {
    holder = Number(readFileSync(path, 'utf8').trim()) || undefined;
  } catch {
    holder = undefined;
  }
  if (holder !== undefined && holder !== pid && alive(holder)) {
    throw new UsageError(
      `${stateDir} is in use by another clm dispatcher (pid ${holder}); stop it or use another --state`,
    );
  }
  writeFileSync(path, String(pid));
  return {
    release: () => {
      try {
        if (Number(readFileSync(path, 'utf8').trim()) === pid) rmSync(path, { force: true });
      } catch {
        // already gone
      }
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
