import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
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
  /** Each file's path, size and modification time when it was read. */
  readonly signature: string;
  /** When the read started (ms since the epoch): a file modified within a clock tick of it may have changed unseen. */
  readonly readAt: number;
}

/** Modifications this close to a read may not change the modification time the read saw (file system clock ticks). */
const RACY_MS = 50;

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
 * `.DS_Store`, editor swap files), at any depth; CLM never reads such files. They are read once per version: a
 * checkout of the version just resolved takes the files read then, when no file was added, removed, resized or
 * modified since (by their sizes and modification times, a walk without reads; a file modified within 50 ms of the
 * read is read again); otherwise the directory is read again. Reads are synchronous: a few hundred small files take
 * a few milliseconds, where a promise per file cost four times that in CPU. Symlinks within the directory are
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

  /** The content last read, for the checkout that follows a version's resolution. */
  private last: DirectoryContent | undefined;

  async resolveVersion(_channel: string): Promise<string> {
    return this.read().version;
  }

  /**
   * The directory's files, if it still has the content `version` names. If the directory changed since
   * the version was resolved, the old content is gone: that is a ConfigError (resolve again).
   */
  async checkout(version: string): Promise<ConfigSnapshot> {
    const content = this.unchangedSinceRead(version) ?? this.read();
    if (content.version !== version) {
      throw new ConfigError(
        `config source ${this.name} (${this.location}): the directory changed after version ${version} was resolved (it is now ${content.version}); resolve the version again`,
      );
    }
    return { sourceName: this.name, version: content.version, files: content.files };
  }

  /** The last read's content if it is `version` and no file changed since (see the class comment). */
  private unchangedSinceRead(version: string): DirectoryContent | undefined {
    const last = this.last;
    if (!last || last.version !== version) return undefined;
    const stats = new Map<string, Stats>();
    walk(
      this.root(),
      '',
      new Set([this.root()]),
      (relative, _absolute, info) => stats.set(relative, info),
      this.outside,
    );
    const racy = [...stats.values()].some((info) => info.mtimeMs >= last.readAt - RACY_MS);
    return !racy && signatureOf(stats) === last.signature ? last : undefined;
  }

  private read(): DirectoryContent {
    const readAt = Date.now();
    const root = this.root();
    const buffers = new Map<string, Buffer>();
    const stats = new Map<string, Stats>();
    walk(
      root,
      '',
      new Set([root]),
      (relative, absolute, info) => {
        stats.set(relative, info);
        buffers.set(relative, readFileSync(absolute));
      },
      this.outside,
    );
    const paths = [...buffers.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const hash = createHash('sha256');
    const files = new Map<string, string>();
    for (const path of paths) {
      const content = buffers.get(path)!;
      hash.update(`${path}\u0000${content.length}\u0000`);
      hash.update(content);
      files.set(path, content.toString('utf8'));
    }
    const version = `dir-${hash.digest('hex').slice(0, HASH_LENGTH)}`;
    this.last = { version, files, signature: signatureOf(stats), readAt };
    return this.last;
  }

  private root(): string {
    try {
      const root = realpathSync(this.path);
      if (!statSync(root).isDirectory()) throw new Error('not a directory');
      return root;
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : (error as Error).message;
      throw new ConfigError(`config source ${this.name}: cannot read ${this.location} (${this.path}): ${reason}`, {
        cause: error,
      });
    }
  }

  private readonly outside: OutsideLink = (link, target) => {
    throw new ConfigError(
      `config source ${this.name} (${this.location}): ${link} is a symlink to ${target}, outside the directory; ` +
        'refused (only links within the directory are followed): copy what it points to into the directory instead',
    );
  };
}

function signatureOf(stats: ReadonlyMap<string, Stats>): string {
  return [...stats]
    .map(([path, info]) => `${path}\u0000${info.size}\u0000${Math.floor(info.mtimeMs)}`)
    .sort()
    .join('\n');
}

/** Called for a symlink whose target is outside the root; it throws. */
type OutsideLink = (link: string, target: string) => never;

/** Each file under `dir` (dot entries skipped, links within the root followed), given to `file` with its stats. */
function walk(
  dir: string,
  prefix: string,
  visited: Set<string>,
  file: (relative: string, absolute: string, info: Stats) => void,
  outside: OutsideLink,
  root = dir,
): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const absolute = join(dir, entry.name);
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    let target = absolute;
    if (entry.isSymbolicLink()) {
      try {
        target = realpathSync(absolute);
      } catch {
        continue; // a dangling link: nothing to read
      }
      if (target !== root && !target.startsWith(`${root}${sep}`)) outside(relative, target);
    } else if (!entry.isDirectory() && !entry.isFile()) {
      continue;
    }
    const info = statSync(target);
    if (info.isDirectory()) {
      if (visited.has(target)) continue;
      visited.add(target);
      walk(target, relative, visited, file, outside, root);
      visited.delete(target);
    } else if (info.isFile()) {
      file(relative, target, info);
    }
  }
}
