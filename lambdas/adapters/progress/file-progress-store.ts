import { openJsonStateFile } from '../state-file/json-state-file';
import { MemoryProgressStore, type ProgressData } from './memory-progress-store';

export const PROGRESS_FILE = 'progress.json';

/**
 * The CLI's progress store: the in-memory store's rules, kept in `<dir>/progress.json`. `save()` writes
 * atomically (temp file + rename), so a process killed at any moment leaves the last complete state.
 */
export function openFileProgressStore(dir: string): { store: MemoryProgressStore; save(): void } {
  const file = openJsonStateFile<ProgressData>(dir, PROGRESS_FILE);
  const store = new MemoryProgressStore(file.data ? { data: file.data } : {});
  return { store, save: () => file.save(store.data) };
}
