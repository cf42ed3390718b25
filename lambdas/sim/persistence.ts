import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationError } from '../shared/errors';
import { withStateLock, writeFileAtomic } from '../shared/state-directory';
import { hashOf } from './hash';
import type { ArtifactData } from './ports/sim-artifact-store';
import { NO_CLUSTER, joinWorld, mergeCommon, splitWorld } from './world-shards';
import type { WorldCommon, WorldShard } from './world-shards';
import type { WorldState } from './world-state';

/**
 * `--state DIR`, shared by every process using it: `world.json` (the common part: clock, counters, scenario,
 * accounts' VPCs), `world/<cluster id, URI-encoded>.json` (one shard per cluster, with a revision), and
 * `artifacts/<sha256 of key>.json` (one file per stored artefact, written once). Every file is replaced atomically
 * and every load and save runs under the directory's lock, so a process killed at any moment leaves complete files.
 *
 * A save writes only the shards that changed in memory and are this process's: a shard it acted on through a
 * port since it loaded (it holds that cluster's lease), or one nobody else saved since. A process never overwrites
 * another process's cluster with its stale copy. The common part is merged (world-shards.ts `mergeCommon`).
 * `world.json` in the earlier single-file format (format 1, the whole world) is read, and rewritten in shards by the
 * first save.
 */

export const WORLD_FILE = 'world.json';
export const SHARD_DIR = 'world';
const ARTIFACT_DIR = 'artifacts';
const NO_CLUSTER_FILE = '%unowned.json'; // "%u" never comes out of encodeURIComponent

/** What this process last loaded or saved in one directory, to know what changed since and whose it is. */
export interface PersistedView {
  readonly dir: string;
  /** Shard JSON by cluster id, as last loaded or saved. */
  readonly texts: Map<string, string>;
  /** Shard revision on disk by cluster id, as last loaded or saved. */
  readonly revisions: Map<string, number>;
  /** This process's common part as last loaded or saved (the base of the counters it adds). */
  base: WorldCommon;
}

interface ShardFile {
  readonly revision: number;
  readonly shard: WorldShard;
}

function shardPath(dir: string, clusterId: string): string {
  return join(dir, SHARD_DIR, clusterId === NO_CLUSTER ? NO_CLUSTER_FILE : `${encodeURIComponent(clusterId)}.json`);
}

function readJson<T>(file: string, what: string): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (error) {
    throw new ValidationError(
      `${file}: cannot read ${what}: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
}

function readShards(dir: string): ShardFile[] {
  const shardDir = join(dir, SHARD_DIR);
  if (!existsSync(shardDir)) return [];
  return readdirSync(shardDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => readJson<ShardFile>(join(shardDir, name), 'a simulated world shard'));
}

function shardRevision(dir: string, clusterId: string): number | undefined {
  const path = shardPath(dir, clusterId);
  return existsSync(path) ? readJson<ShardFile>(path, 'a simulated world shard').revision : undefined;
}

/** The world.json of `dir`: format 1 (a whole world) or 2 (the common part); undefined when there is none. */
function readCommon(dir: string): WorldState | WorldCommon | undefined {
  const file = join(dir, WORLD_FILE);
  if (!existsSync(file)) return undefined;
  const data = readJson<WorldState | WorldCommon>(file, 'the simulated world');
  if (data?.format !== 1 && data?.format !== 2)
    throw new ValidationError(
      `${file}: not a simulated world (format ${String((data as { format?: unknown })?.format)})`,
    );
  return data;
}

function saveArtifacts(dir: string, artifacts: ArtifactData, everything: boolean): void {
  const artifactDir = join(dir, ARTIFACT_DIR);
  mkdirSync(artifactDir, { recursive: true });
  const keys = everything ? [...artifacts.objects.keys()] : [...artifacts.dirty];
  for (const key of keys) {
    const body = artifacts.objects.get(key);
    if (body !== undefined)
      writeFileAtomic(
        join(artifactDir, `${hashOf([key], 40)}.json`),
        JSON.stringify(
          typeof body === 'string' ? { key, body } : { key, base64: Buffer.from(body).toString('base64') },
        ),
      );
  }
  artifacts.dirty.clear();
}

/** Write the shards that are this process's to write and the merged common part; returns the new view. */
export function saveWorld(
  dir: string,
  state: WorldState,
  artifacts: ArtifactData,
  view: PersistedView | undefined,
  acted: ReadonlySet<string>,
): PersistedView {
  mkdirSync(join(dir, SHARD_DIR), { recursive: true });
  return withStateLock(dir, () => {
    saveArtifacts(dir, artifacts, view?.dir !== dir);
    const { common, shards } = splitWorld(state);
    const disk = readCommon(dir);
    // No world here yet (or the single-file format): everything in memory is the world.
    const whole = disk === undefined || disk.format === 1;
    const own = view?.dir === dir ? view : undefined;
    const next: PersistedView = {
      dir,
      texts: new Map(own?.texts),
      revisions: new Map(own?.revisions),
      base: structuredClone(common), // `common` shares the live counters
    };
    for (const [clusterId, shard] of shards) {
      const text = JSON.stringify(shard);
      if (!whole && text === own?.texts.get(clusterId)) continue;
      const revision = shardRevision(dir, clusterId);
      if (!whole && !acted.has(clusterId) && revision !== own?.revisions.get(clusterId)) continue;
      const written: ShardFile = { revision: (revision ?? 0) + 1, shard };
      writeFileAtomic(shardPath(dir, clusterId), JSON.stringify(written));
      next.texts.set(clusterId, text);
      next.revisions.set(clusterId, written.revision);
    }
    const merged = whole ? common : mergeCommon(disk, common, own?.base ?? common);
    writeFileAtomic(join(dir, WORLD_FILE), JSON.stringify(merged));
    return next;
  });
}

export function worldExists(dir: string): boolean {
  return existsSync(join(dir, WORLD_FILE));
}

/**
 * The simulated world's clock in `dir` (what a `--simulate` run's leases are judged on); undefined when `dir` holds no
 * simulated world. world.json is replaced atomically, so it is read without the directory's lock.
 */
export function simulatedClockNow(dir: string): number | undefined {
  return readCommon(dir)?.now;
}

export function loadWorld(dir: string): { state: WorldState; artifacts: ArtifactData; view: PersistedView } {
  return withStateLock(dir, () => {
    const disk = readCommon(dir);
    if (!disk) throw new ValidationError(`${join(dir, WORLD_FILE)}: cannot read the simulated world: no such file`);
    const files = disk.format === 2 ? readShards(dir) : [];
    const state =
      disk.format === 1
        ? disk
        : joinWorld(
            disk,
            files.map((file) => file.shard),
          );
    const { common, shards } = splitWorld(state);
    const view: PersistedView = {
      dir,
      texts: new Map([...shards].map(([id, shard]) => [id, JSON.stringify(shard)])),
      revisions: new Map(files.map((file) => [file.shard.clusterId, file.revision])),
      base: structuredClone(common),
    };
    return { state, artifacts: loadArtifacts(dir), view };
  });
}

function loadArtifacts(dir: string): ArtifactData {
  const objects = new Map<string, string | Uint8Array>();
  const artifactDir = join(dir, ARTIFACT_DIR);
  if (existsSync(artifactDir)) {
    for (const name of readdirSync(artifactDir)
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const stored = JSON.parse(readFileSync(join(artifactDir, name), 'utf8')) as
        { key: string; body: string } | { key: string; base64: string };
      objects.set(stored.key, 'body' in stored ? stored.body : Uint8Array.from(Buffer.from(stored.base64, 'base64')));
    }
  }
  return { objects, dirty: new Set() };
}
