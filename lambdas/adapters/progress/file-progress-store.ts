import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryProgressStore, type ProgressData } from './memory-progress-store';

export const PROGRESS_FILE = 'progress.json';

/**
 * The CLI's progress store: the in-memory store's rules, kept in `<dir>/progress.json`. `save()` writes
 * atomically (temp file + rename), so a process killed at any moment leaves the last complete state.
 */
export function openFileProgressStore(dir: string): { store: MemoryProgressStore; save(): void } {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, PROGRESS_FILE);
  const data = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ProgressData) : undefined;
  const store = new MemoryProgressStore(data ? { data } : {});
  return {
    store,
    save() {
      const tmp = `${path}.tmp`;
      writeFileSync(tmp, JSON.stringify(store.data));
      renameSync(tmp, path);
    },
  };
}
