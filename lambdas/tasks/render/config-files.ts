import type { ConfigSnapshot } from '../../ports/config-source';
import type { ArtifactStore } from '../../ports/artifact-store';
import { ConfigFilesArtifact } from '../../contracts/artifacts';
import { getArtifact, putJson } from '../step/artifacts';

/** Keep the checked-out config with the run, so later steps render without fetching git again. */
export async function storeConfigFiles(
  store: ArtifactStore,
  key: string,
  snapshots: readonly ConfigSnapshot[],
): Promise<string> {
  const stored = snapshots.map((s) => ({
    sourceName: s.sourceName,
    version: s.version,
    files: [...s.files.entries()],
  }));
  return putJson(store, key, stored);
}

export async function loadConfigFiles(store: ArtifactStore, key: string): Promise<ConfigSnapshot[]> {
  const stored = await getArtifact(store, key, ConfigFilesArtifact);
  return stored.map((s) => ({ sourceName: s.sourceName, version: s.version, files: new Map(s.files) }));
}
