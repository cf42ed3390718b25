import type { ArtifactStore } from '../../ports/artifact-store';
import type { SimContext } from '../sim-context';
import { instrument } from './instrument';

export const SIM_BUCKET = 'clm-simulated-artifacts';

/** The in-memory S3 bucket; `dirty` collects keys written since the last save. */
export interface ArtifactData {
  readonly objects: Map<string, string>;
  readonly dirty: Set<string>;
}

export function simArtifactStore(ctx: SimContext, data: ArtifactData): ArtifactStore {
  const store = instrument<ArtifactStore>(ctx, 'artifacts', undefined, {
    put(key, body) {
      if (data.objects.get(key) === body) return;
      data.objects.set(key, body);
      data.dirty.add(key);
    },
    get: (key) => data.objects.get(key),
  });
  return { ...store, urlFor: (key: string) => `https://${SIM_BUCKET}.s3.amazonaws.com/${key}` };
}
