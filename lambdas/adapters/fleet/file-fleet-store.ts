import { openJsonStateFile } from '../state-file/json-state-file';
import { emptyFleetData, MemoryFleetStore, type FleetData } from './memory-fleet-store';

export const FLEET_FILE = 'fleet.json';

/**
 * The CLI's fleet store: the in-memory store's rules, kept in `<dir>/fleet.json` next to progress.json.
 * `save()` writes atomically, so a process killed at any moment leaves the last complete state.
 */
export function openFileFleetStore(dir: string): { store: MemoryFleetStore; save(): void } {
  const file = openJsonStateFile<Partial<FleetData>>(dir, FLEET_FILE);
  const store = new MemoryFleetStore(file.data ? { data: { ...emptyFleetData(), ...file.data } } : {});
  return { store, save: () => file.save(store.data) };
}
