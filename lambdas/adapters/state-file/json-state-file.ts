import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../shared/errors';
import { writeFileAtomic } from '../../shared/state-directory';

/**
 * One JSON file under the CLI's `--state DIR`: what it holds now (undefined when absent), and an atomic
 * `save` (a temp file of this process, then rename), so a process killed at any moment leaves the last complete state.
 */
export function openJsonStateFile<T>(dir: string, file: string): { data: T | undefined; save(data: T): void } {
  const path = join(dir, file);
  return {
    data: existsSync(path) ? readState<T>(path) : undefined,
    // The directory is made by the first save, never by a reader (`clm plan` reads --state and leaves no trace).
    save: (data) => {
      mkdirSync(dir, { recursive: true });
      writeFileAtomic(path, JSON.stringify(data));
    },
  };
}

/** The file's JSON object; anything else (not JSON, `null`, a list) is a ConfigError naming the file. */
function readState<T>(path: string): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${path}: cannot read state: ${(error as Error).message}; repair the file or move it away`, {
      cause: error,
    });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ConfigError(
      `${path}: not state: expected a JSON object, got ${parsed === null ? 'null' : Array.isArray(parsed) ? 'a list' : typeof parsed}; repair the file or move it away`,
    );
  return parsed as T;
}
