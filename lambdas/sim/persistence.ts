import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationError } from '../shared/errors';
import { hashOf } from './hash';
import type { ArtifactData } from './ports/sim-artifact-store';
import type { WorldState } from './world-state';

/**
 * `--state DIR`: `world.json` (the whole world state) and `artifacts/<sha256 of key>.json` (one file per
 * stored artefact, written once). Every file is written to a temporary name and renamed, so a process
 * killed mid-save leaves the previous, complete file; world.json is written last.
 */

export const WORLD_FILE = 'world.json';
const ARTIFACT_DIR = 'artifacts';

function writeAtomic(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

/** Write the world. `everything` rewrites all artefacts (first save into this directory). */
export function saveWorld(dir: string, state: WorldState, artifacts: ArtifactData, everything: boolean): void {
  const artifactDir = join(dir, ARTIFACT_DIR);
  mkdirSync(artifactDir, { recursive: true });
  const keys = everything ? [...artifacts.objects.keys()] : [...artifacts.dirty];
  for (const key of keys) {
    const body = artifacts.objects.get(key);
    if (body !== undefined) writeAtomic(join(artifactDir, `${hashOf([key], 40)}.json`), JSON.stringify({ key, body }));
  }
  artifacts.dirty.clear();
  writeAtomic(join(dir, WORLD_FILE), JSON.stringify(state));
}

export function worldExists(dir: string): boolean {
  return existsSync(join(dir, WORLD_FILE));
}

export function loadWorld(dir: string): { state: WorldState; artifacts: ArtifactData } {
  const file = join(dir, WORLD_FILE);
  let state: WorldState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as WorldState;
  } catch (error) {
    throw new ValidationError(
      `${file}: cannot read the simulated world: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (state?.format !== 1)
    throw new ValidationError(`${file}: not a simulated world (format ${String(state?.format)})`);
  const objects = new Map<string, string>();
  const artifactDir = join(dir, ARTIFACT_DIR);
  if (existsSync(artifactDir)) {
    for (const name of readdirSync(artifactDir)
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const { key, body } = JSON.parse(readFileSync(join(artifactDir, name), 'utf8')) as { key: string; body: string };
      objects.set(key, body);
    }
  }
  return { state, artifacts: { objects, dirty: new Set() } };
}
