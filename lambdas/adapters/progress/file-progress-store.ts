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
 * lease, runs, status, controls and inventory live in their own file; every write reads that file, applies the
 * in-memory store's rules and replaces it atomically, all under the directory's lock (shared/state-directory.ts).
 * So two processes never lose each other's clusters, a lease is taken by exactly one of two racing processes, and
 * a process killed at any moment leaves complete files. Reads go to the file every time: no stale cache.
 *
 * A lease held by a CLI process that is known to be gone (same host, pid no longer running) is taken over at once
 * (shared/process-identity.ts); any other holder's only after expiry.
 */
export class FileProgressStore extends MemoryProgressStore {
  constructor(private readonly dir: string) {
    super({ holderGone: isHolderGone });
  }

  /** Everything under the directory, assembled (for status views and tests). */
  override get data(): ProgressData {
    return readProgressDir(this.dir);
  }

  protected override read<T>(clusterId: string, fn: (data: ProgressData) => T): T {
    return fn(readCluster(this.dir, clusterId));
  }

  protected override write<T>(clusterId: string, fn: (data: ProgressData) => T): T {
    mkdirSync(join(this.dir, PROGRESS_DIR), { recursive: true });
    return withStateLock(this.dir, () => {
      splitLegacyFile(this.dir);
      const path = clusterFile(this.dir, clusterId);
      const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
      const data = before === undefined ? emptyProgressData() : (JSON.parse(before) as ProgressData);
      const result = fn(data);
      const after = JSON.stringify(data);
      if (after !== before) writeFileAtomic(path, after);
      return result;
    });
  }
}

/**
 * The CLI's store under `dir`. Writes are immediate, so `save()` has nothing left to do (it stays for callers that
 * persist after every task).
 */
export function openFileProgressStore(dir: string): { store: FileProgressStore; save(): void } {
  return { store: new FileProgressStore(dir), save: () => undefined };
}

function clusterFile(dir: string, clusterId: string): string {
  return join(dir, PROGRESS_DIR, `${encodeURIComponent(clusterId)}.json`);
}

function readJson(path: string): ProgressData | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ProgressData;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`${path}: cannot read progress: ${(error as Error).message}`, { cause: error });
  }
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
  const own = readJson(clusterFile(dir, clusterId));
  if (own) return own;
  const legacy = readJson(join(dir, LEGACY_PROGRESS_FILE));
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
