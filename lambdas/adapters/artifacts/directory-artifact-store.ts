/**
 * ArtifactStore on a local directory: a key is a path under it (`aws/default/1-30/v4.tar.gz`). `clm stack release
 * --to DIR` writes released cluster stacks here and `--stack-releases DIR` reads them. `putOnce` creates the file
 * exclusively (`wx`), so a released file is never replaced.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { ArtifactStore } from '../../ports/artifact-store';
import { ConfigError } from '../../shared/errors';

export class DirectoryArtifactStore implements ArtifactStore {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async put(key: string, body: string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, body);
    await rename(temporary, path);
  }

  async get(key: string): Promise<string | undefined> {
    const bytes = await this.getBytes(key);
    return bytes && Buffer.from(bytes).toString('utf8');
  }

  async putOnce(key: string, body: string | Uint8Array): Promise<boolean> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    try {
      await writeFile(path, body, { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  async getBytes(key: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.pathOf(key)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  locationOf(key: string): string {
    return this.pathOf(key);
  }

  /** The key as a path under the root; a key that would leave it (`..`, absolute) is refused. */
  private pathOf(key: string): string {
    const path = resolve(this.root, key);
    if (key === '' || key.startsWith('/') || !path.startsWith(`${this.root}${sep}`))
      throw new ConfigError(`artefact key ${JSON.stringify(key)} leaves the directory ${this.root}`);
    return join(path);
  }
}
