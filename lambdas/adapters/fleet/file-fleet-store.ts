import type { FleetSettings } from '../../core/dispatch/fleet-settings';
import type { FleetSnapshot, WaveOverride } from '../../core/dispatch/fleet-state';
import { openJsonStateFile } from '../state-file/json-state-file';
import { emptyFleetData, MemoryFleetStore, type FleetData } from './memory-fleet-store';

export const FLEET_FILE = 'fleet.json';
/** Operators' overrides live apart, so `clm override-halt` can add one while `clm serve` holds fleet.json. */
export const OVERRIDES_FILE = 'overrides.json';

export interface FileFleetStoreOptions {
  /** Write fleet.json after every change (`clm serve`, `clm dispatch`), not only on `save()`. */
  readonly autosave?: boolean;
}

/**
 * The CLI's fleet store: the in-memory store's rules, kept in `<dir>/fleet.json` next to progress.json, and the
 * overrides in `<dir>/overrides.json`, read again by every `loadFleet` (another process may have added one).
 * Writes are atomic, so a process killed at any moment leaves the last complete state.
 */
export function openFileFleetStore(
  dir: string,
  settings?: FleetSettings,
  options: FileFleetStoreOptions = {},
): { store: MemoryFleetStore; save(): void } {
  const file = openJsonStateFile<Partial<FleetData>>(dir, FLEET_FILE);
  const data = { ...emptyFleetData(), ...file.data, overrides: {} };
  const save = (current: FleetData) => file.save({ ...current, overrides: {} });
  const store = new FileFleetStore(dir, {
    data,
    ...(settings ? { settings } : {}),
    ...(options.autosave ? { onChange: save } : {}),
  });
  return { store, save: () => save(store.data) };
}

class FileFleetStore extends MemoryFleetStore {
  private readonly overrides: ReturnType<typeof openJsonStateFile<Record<string, WaveOverride>>>['save'];

  constructor(
    private readonly dir: string,
    options: ConstructorParameters<typeof MemoryFleetStore>[0],
  ) {
    super(options);
    this.overrides = openJsonStateFile<Record<string, WaveOverride>>(dir, OVERRIDES_FILE).save;
  }

  override async loadFleet(): Promise<FleetSnapshot> {
    const snapshot = await super.loadFleet();
    return { ...snapshot, overrides: Object.values(this.readOverrides()) };
  }

  override async putOverride(override: WaveOverride): Promise<void> {
    this.overrides({ ...this.readOverrides(), [override.configVersion]: { ...override } });
  }

  override async removeOverride(configVersion: string): Promise<void> {
    const { [configVersion]: _removed, ...rest } = this.readOverrides();
    this.overrides(rest);
  }

  private readOverrides(): Record<string, WaveOverride> {
    return openJsonStateFile<Record<string, WaveOverride>>(this.dir, OVERRIDES_FILE).data ?? {};
  }
}
