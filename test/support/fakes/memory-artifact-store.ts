import type { ArtifactStore } from '../../../lambdas/ports/artifact-store';

/** An ArtifactStore in a Map (the S3 bucket of a test). */
export class MemoryArtifactStore implements ArtifactStore {
  readonly objects = new Map<string, string>();

  async put(key: string, body: string): Promise<void> {
    this.objects.set(key, body);
  }

  async get(key: string): Promise<string | undefined> {
    return this.objects.get(key);
  }
}
