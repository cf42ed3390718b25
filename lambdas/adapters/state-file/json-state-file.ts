import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../shared/state-directory';

/**
 * One JSON file under the CLI's `--state DIR`: what it holds now (undefined when absent), and an atomic
 * `save` (a temp file of this process, then rename), so a process killed at any moment leaves the last complete state.
 */
export function openJsonStateFile<T>(dir: string, file: string): { data: T | undefined; save(data: T): void } {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  return {
    data: existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined,
    save: (data) => writeFileAtomic(path, JSON.stringify(data)),
  };
}
