import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './io';

/**
 * The directory a flag names (`--state`, `stack release --to`), resolved against the working directory; a file there
 * is a usage error naming the flag, before anything tries to read or write under it.
 */
export function directoryFlag(flag: string, given: string, cwd: string): string {
  const dir = resolve(cwd, given);
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new UsageError(`${flag} ${given}: ${dir} is a file; ${flag} names a directory`);
  return dir;
}
