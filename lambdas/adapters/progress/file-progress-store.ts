import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../shared/errors';
import { isHolderGone } from '../../shared/process-identity';
import { withStateLock, writeFileAtomic } from '../../shared/state-directory';
import { MemoryProgressStore, emptyProgressData, type ProgressData } from './memory-progress-store';

/** `<dir>/progress/<cluster id, URI-encoded>.json`: one file per cluster. */
export const PROGRESS_DIR = 'progress';
/** The single file earlier versions kept; read until the first write splits it into per-cluster files. */
export const LEGACY_PROGRESS_FILE = 'progress.json';

/**
 * The CLI's progress store under `--state DIR`, shared by every process using that directory. Each cluster's
 * lease, runs, status, controls and inventory live in their own file, replaced atomically under the directory's lock
 * (shared/state-directory.ts), so two processes never lose each other's clusters.
 *
 * - Leases are read, checked and written at once, under the lock: of two racing processes exactly one gets a
 *   cluster. A lease held by a CLI process known to be gone (same host, pid no longer running) is taken over at
 *   once (shared/process-identity.ts); any other holder's only after expiry.
 * - Everything else is kept in this process until `save()`, which the CLI calls after every task (after saving the
 *   simulated world): progress on disk is never ahead of the world it describes, and a process killed in the middle
 *   of a task loses that task's progress as a Lambda task would (the steps are reentrant for that). Reads see this
 *   process's unsaved writes over what is on disk.
 */
export class FileProgressStore extends MemoryProgressStore {
  /** Per cluster: the entries this process wrote since the last save (never leases). */
  private readonly pending = new Map<string, ProgressData>();

  constructor(private readonly dir: string) {
    super({ holderGone: isHolderGone });
  }

  /** Everything under the directory with this process's unsaved writes, assembled (for status views and tests). */
  override get data(): ProgressData {
    const all = readProgressDir(this.dir);
    for (const changes of this.pending.values()) overlay(all, changes);
    return all;
  }

  /** Write what this process changed since the last save, cluster by cluster. */
  save(): void {
    if (this.pending.size === 0) return;
    withStateLock(this.dir, () => {
      for (const [clusterId, changes] of this.pending) {
        writeFileAtomic(
          clusterFile(this.dir, clusterId),
          JSON.stringify(overlay(readCluster(this.dir, clusterId), changes)),
        );
      }
      this.pending.clear();
    });
  }

  protected override read<T>(clusterId: string, fn: (data: ProgressData) => T): T {
    // Readers copy what they return (MemoryProgressStore), so the pending entries can be shown without a copy.
    return fn(this.view(clusterId, false));
  }

  protected override write<T>(clusterId: string, fn: (data: ProgressData) => T): T {
    mkdirSync(join(this.dir, PROGRESS_DIR), { recursive: true });
    return withStateLock(this.dir, () => {
      splitLegacyFile(this.dir);
      const data = this.view(clusterId);
      const before = structuredClone(data);
      const result = fn(data);
      if (JSON.stringify(data.leases) !== JSON.stringify(before.leases)) {
        const disk = readCluster(this.dir, clusterId);
        writeFileAtomic(clusterFile(this.dir, clusterId), JSON.stringify({ ...disk, leases: data.leases }));
      }
      const changes = this.pending.get(clusterId) ?? emptyProgressData();
      if (collectChanges(before, data, changes)) this.pending.set(clusterId, changes);
      return result;
    });
  }

  /** What is on disk for the cluster with this process's unsaved entries over it (copies of them, for a writer). */
  private view(clusterId: string, copy = true): ProgressData {
    const disk = readCluster(this.dir, clusterId);
    const changes = this.pending.get(clusterId);
    return changes ? overlay(disk, changes, copy) : disk;
  }
}

const ENTRY_KINDS = ['runs', 'statuses', 'controls', 'inventories'] as const;

/** `changes` laid over `data` (in place), as copies unless `copy` is false; returns `data`. */
function overlay(data: ProgressData, changes: ProgressData, copy = true): ProgressData {
  for (const kind of ENTRY_KINDS) Object.assign(data[kind], copy ? structuredClone(changes[kind]) : changes[kind]);
  return data;
}

/** Copy into `changes` every non-lease entry that differs between `before` and `after`; true if any did. */
function collectChanges(before: ProgressData, after: ProgressData, changes: ProgressData): boolean {
  let changed = false;
  for (const kind of ENTRY_KINDS) {
    const target = changes[kind] as Record<string, unknown>;
    for (const [id, value] of Object.entries(after[kind])) {
      if (JSON.stringify(value) === JSON.stringify((before[kind] as Record<string, unknown>)[id])) continue;
      target[id] = structuredClone(value);
      changed = true;
    }
  }
  return changed || Object.values(changes).some((entries) => Object.keys(entries).length > 0);
}

/**
 * The CLI's store under `dir`. Call `save()` after every task (the CLI does): leases are written at once, the rest
 * then.
 */
export function openFileProgressStore(dir: string): { store: FileProgressStore; save(): void } {
  const store = new FileProgressStore(dir);
  return { store, save: () => store.save() };
}

function clusterFile(dir: string, clusterId: string): string {
  return join(dir, PROGRESS_DIR, `${encodeURIComponent(clusterId)}.json`);
}

function readJson(path: string): ProgressData | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`${path}: cannot read progress: ${(error as Error).message}${REPAIR}`, { cause: error });
  }
  return progressData(parsed, path);
}

const REPAIR = '; repair the file, or move it away to let the clusters it holds start without their stored progress';

/**
 * Parsed progress, checked for its shape: a JSON object whose entries (`leases`, `runs`, `statuses`, `controls`,
 * `inventories`; a missing one is empty) are objects. Anything else (`null`, a list, a string) is a ConfigError naming
 * the file, never read as "nothing stored".
 */
function progressData(parsed: unknown, path: string): ProgressData {
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value);
  if (kind(parsed) !== 'object')
    throw new ConfigError(`${path}: not progress: expected a JSON object, got ${kind(parsed)}${REPAIR}`);
  const data = emptyProgressData();
  for (const key of Object.keys(data) as (keyof ProgressData)[]) {
    const value = (parsed as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (kind(value) !== 'object')
      throw new ConfigError(`${path}: not progress: "${key}" is ${kind(value)}, expected an object${REPAIR}`);
    (data as unknown as Record<string, unknown>)[key] = value;
  }
  return data;
}

/** One cluster's part of a whole-directory ProgressData. */
function sliceOf(data: ProgressData, clusterId: string): ProgressData {
  const slice = emptyProgressData();
  for (const key of ['leases', 'statuses', 'controls', 'inventories'] as const) {
    if (data[key][clusterId] !== undefined) (slice[key] as Record<string, unknown>)[clusterId] = data[key][clusterId];
  }
  for (const [key, run] of Object.entries(data.runs)) if (run.clusterId === clusterId) slice.runs[key] = run;
  return slice;
}

function readCluster(dir: string, clusterId: string): ProgressData {
  // The legacy single file is read even when the cluster has its own: a corrupt one must not go unnoticed while the
  // clusters with their own files are read around it (it may hold clusters whose progress is nowhere else).
  const legacy = readJson(join(dir, LEGACY_PROGRESS_FILE));
  const own = readJson(clusterFile(dir, clusterId));
  if (own) return own;
  return legacy ? sliceOf(legacy, clusterId) : emptyProgressData();
}

function clusterIdsOf(data: ProgressData): Set<string> {
  return new Set([
    ...Object.keys(data.leases),
    ...Object.keys(data.statuses),
    ...Object.keys(data.controls),
    ...Object.keys(data.inventories),
    ...Object.values(data.runs).map((run) => run.clusterId),
  ]);
}

/** Under the lock: give every cluster of the legacy single file its own file (unless it has one), then remove it. */
function splitLegacyFile(dir: string): void {
  const legacyPath = join(dir, LEGACY_PROGRESS_FILE);
  const legacy = readJson(legacyPath);
  if (!legacy) return;
  for (const clusterId of clusterIdsOf(legacy)) {
    const path = clusterFile(dir, clusterId);
    if (!existsSync(path)) writeFileAtomic(path, JSON.stringify(sliceOf(legacy, clusterId)));
  }
  rmSync(legacyPath);
}

/** Every cluster's progress under `dir`, as one ProgressData (the legacy file's clusters without their own file too). */
export function readProgressDir(dir: string): ProgressData {
  const all = emptyProgressData();
  const merge = (data: ProgressData, only?: (clusterId: string) => boolean) => {
    for (const key of Object.keys(all) as (keyof ProgressData)[]) {
      for (const [id, value] of Object.entries(data[key])) {
        const clusterId = key === 'runs' ? (value as { clusterId: string }).clusterId : id;
        if (!only || only(clusterId)) (all[key] as Record<string, unknown>)[id] = value;
      }
    }
  };
  const files = existsSync(join(dir, PROGRESS_DIR))
    ? readdirSync(join(dir, PROGRESS_DIR)).filter((name) => name.endsWith('.json'))
    : [];
  const own = new Set(files.map((name) => decodeURIComponent(name.slice(0, -'.json'.length))));
  const legacy = readJson(join(dir, LEGACY_PROGRESS_FILE));
  if (legacy) merge(legacy, (clusterId) => !own.has(clusterId));
  for (const name of files) {
    const data = readJson(join(dir, PROGRESS_DIR, name));
    if (data) merge(data);
  }
  return all;
}
