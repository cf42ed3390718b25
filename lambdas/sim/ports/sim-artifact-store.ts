import type { ArtifactStore } from '../../ports/artifact-store';
import type { SimContext } from '../sim-context';
import { instrument } from './instrument';

export const SIM_BUCKET = 'clm-simulated-artifacts';

/** The in-memory S3 bucket (text, or bytes for binary objects); `dirty` collects keys written since the last save. */
export interface ArtifactData {
  readonly objects: Map<string, string | Uint8Array>;
  readonly dirty: Set<string>;
}

const asText = (body: string | Uint8Array) => (typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
const asBytes = (body: string | Uint8Array) => (typeof body === 'string' ? Buffer.from(body, 'utf8') : body);

export function simArtifactStore(ctx: SimContext, data: ArtifactData): ArtifactStore {
  const store = instrument<ArtifactStore>(ctx, 'artifacts', undefined, {
    put(key, body) {
      if (data.objects.get(key) === body) return;
      data.objects.set(key, body);
      data.dirty.add(key);
    },
    get(key) {
      const body = data.objects.get(key);
      return body === undefined ? undefined : asText(body);
    },
    putOnce(key, body) {
      if (data.objects.has(key)) return false;
      data.objects.set(key, typeof body === 'string' ? body : Uint8Array.from(body));
      data.dirty.add(key);
      return true;
    },
    getBytes(key) {
      const body = data.objects.get(key);
      return body === undefined ? undefined : Uint8Array.from(asBytes(body));
    },
  });
  return {
    ...store,
    urlFor: (key: string) => `https://${SIM_BUCKET}.s3.amazonaws.com/${key}`,
    locationOf: (key: string) => `s3://${SIM_BUCKET}/${key}`,
  };
}
