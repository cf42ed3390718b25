import { createHash } from 'node:crypto';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { ConfigSnapshot, ConfigSource } from '../../ports/config-source';
import { ConfigError } from '../../shared/errors';

export interface DirectorySourceOptions {
  readonly name: string;
  /** Absolute path of the source root. */
  readonly path: string;
  /** The path as the user gave it, for messages. @default path */
  readonly displayPath?: string;
}

interface DirectoryContent {
  readonly version: string;
  readonly files: Map<string, string>;
}

/** Hex characters of the content hash kept in the version id. */
const HASH_LENGTH = 12;

/**
 * A local directory as config source (`NAME:dir:PATH`, `--directory PATH`).
 *
 * Version: `dir-<first 12 hex of sha256>` over every file, in sorted order of relative posix path (by
 * UTF-8 bytes): `path NUL byte-length NUL content`. It ignores the channel. CLM uses the constant `<dir>`,
 * so editing the directory never triggers an update; here any edit (content, new file, rename, removal)
 * gives a new version, and an untouched directory keeps its version.
 *
 * Files: everything under the root except entries whose name starts with a dot (`.git`, `.github`,
 * `.DS_Store`, editor swap files), at any depth; CLM never reads such files. Symlinks within the directory are
 * followed (a link cycle is skipped); a symlink to anything outside it is refused (ConfigError naming the link and its
 * target) and never read, so a config directory cannot pull in files from elsewhere on the machine. Contents are
 * decoded as UTF-8.
 */
export class DirectorySource implements ConfigSource {
  readonly kind = 'dir' as const;
  readonly name: string;
  readonly location: string;
  private readonly path: string;

  constructor(options: DirectorySourceOptions) {
    this.name = options.name;
    this.path = options.path;
    this.location = options.displayPath ?? options.path;
  }

  async resolveVersion(_channel: string): Promise<string> {
    return (await this.read()).version;
  }

  /**
   * The directory's files, if it still has the content `version` names. If the directory changed since
   * the version was resolved, the old content is gone: that is a ConfigError (resolve again).
   */
  async checkout(version: string): Promise<ConfigSnapshot> {
    const content = await this.read();
    if (content.version !== version) {
      throw new ConfigError(
        `config source ${this.name} (${this.location}): the directory changed after version ${version} was resolved (it is now ${content.version}); resolve the version again`,
      );
    }
    return { sourceName: this.name, version: content.version, files: content.files };
  }

  private async read(): Promise<DirectoryContent> {
    let root: string;
    try {
      root = await realpath(this.path);
      if (!(await stat(root)).isDirectory()) throw new Error('not a directory');
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : (error as Error).message;
      throw new ConfigError(`config source ${this.name}: cannot read ${this.location} (${this.path}): ${reason}`, {
        cause: error,
      });
    }
    const buffers = new Map<string, Buffer>();
    await walk(root, '', new Set([root]), buffers, (link, target) => {
      throw new ConfigError(
        `config source ${this.name} (${this.location}): ${link} is a symlink to ${target}, outside the directory; ` +
          'refused (only links within the directory are followed): copy what it points to into the directory instead',
      );
    });
    const paths = [...buffers.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const hash = createHash('sha256');
    const files = new Map<string, string>();
    for (const path of paths) {
      const content = buffers.get(path)!;
      hash.update(`${path}\u0000${content.length}\u0000`);
      hash.update(content);
      files.set(path, content.toString('utf8'));
    }
    return { version: `dir-${hash.digest('hex').slice(0, HASH_LENGTH)}`, files };
  }
}

/** Called for a symlink whose target is outside the root; it throws. */
type OutsideLink = (link: string, target: string) => never;

async function walk(
  dir: string,
  prefix: string,
  visited: Set<string>,
  out: Map<string, Buffer>,
  outside: OutsideLink,
  root = dir,
): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const absolute = join(dir, entry.name);
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    let isDirectory = entry.isDirectory();
    let isFile = entry.isFile();
    let target = absolute;
    if (entry.isSymbolicLink()) {
      try {
        target = await realpath(absolute);
      } catch {
        continue; // a dangling link: nothing to read
      }
      if (target !== root && !target.startsWith(`${root}${sep}`)) outside(relative, target);
      const info = await stat(target);
      isDirectory = info.isDirectory();
      isFile = info.isFile();
    }
    if (isDirectory) {
      if (visited.has(target)) continue;
      visited.add(target);
      await walk(target, relative, visited, out, outside, root);
      visited.delete(target);
    } else if (isFile) {
      out.set(relative, await readFile(target));
    }
  }
}
