import type { ArtifactStore, PutOptions } from '../../../lambdas/ports/artifact-store';

/** An ArtifactStore in a Map (the S3 bucket of a test): text objects in `objects`, binary ones in `bytes`. */
export class MemoryArtifactStore implements ArtifactStore {
  readonly objects = new Map<string, string>();
  readonly bytes = new Map<string, Uint8Array>();
  /** Each text object's Content-Type, as S3 keeps it (the default is S3ArtifactStore's). */
  readonly contentTypes = new Map<string, string>();

  async put(key: string, body: string, options?: PutOptions): Promise<void> {
    this.bytes.delete(key);
    this.objects.set(key, body);
    this.contentTypes.set(key, options?.contentType ?? 'text/plain; charset=utf-8');
  }

  async get(key: string): Promise<string | undefined> {
    const bytes = this.bytes.get(key);
    return bytes ? Buffer.from(bytes).toString('utf8') : this.objects.get(key);
  }

  async putOnce(key: string, body: string | Uint8Array): Promise<boolean> {
    if (this.objects.has(key) || this.bytes.has(key)) return false;
    if (typeof body === 'string') this.objects.set(key, body);
    else this.bytes.set(key, Uint8Array.from(body));
    return true;
  }

  async getBytes(key: string): Promise<Uint8Array | undefined> {
    const bytes = this.bytes.get(key);
    if (bytes) return Uint8Array.from(bytes);
    const text = this.objects.get(key);
    return text === undefined ? undefined : Uint8Array.from(Buffer.from(text, 'utf8'));
  }
}
