import * as fs from 'node:fs';
import { posix, relative, resolve, sep } from 'node:path';
import git from 'isomorphic-git';
import { ConfigError } from '../../shared/errors';

/**
 * The files under `directory` as they were at `ref` in the git repository that holds it (a branch, tag, remote
 * branch like `origin/main`, or a commit SHA), keyed by posix path relative to `directory`. Symbolic links are
 * followed inside the commit, as a checkout followed by a directory read would see them. Read with
 * isomorphic-git from the local repository: no git binary, no network.
 */
export async function filesAtRef(directory: string, ref: string): Promise<Map<string, string>> {
  const absolute = resolve(directory);
  let root: string;
  try {
    root = await git.findRoot({ fs, filepath: absolute });
  } catch (error) {
    throw new ConfigError(`${directory} is not inside a git repository, so --against cannot be read`, { cause: error });
  }
  const oid = await commitOf(root, ref);
  const prefix = relative(root, absolute).split(sep).filter(Boolean).join('/');
  const blobs = new Map<string, { mode: number; content: string }>();
  await git.walk({
    fs,
    dir: root,
    trees: [git.TREE({ ref: oid })],
    map: async (path, [entry]) => {
      if (!entry || path === '.') return true;
      if ((await entry.type()) !== 'blob') return true;
      const content = await entry.content();
      blobs.set(path, { mode: await entry.mode(), content: Buffer.from(content ?? []).toString('utf8') });
      return true;
    },
  });
  return underPrefix(followLinks(blobs), prefix);
}

async function commitOf(root: string, ref: string): Promise<string> {
  try {
    return await git.resolveRef({ fs, dir: root, ref });
  } catch {
    try {
      return await git.expandOid({ fs, dir: root, oid: ref });
    } catch (error) {
      throw new ConfigError(`--against ${ref}: no such branch, tag or commit in ${root}`, { cause: error });
    }
  }
}

const SYMLINK = 0o120000;

/** Replace every symbolic link by what it points to in the same commit (a file, or a directory's files). */
function followLinks(blobs: Map<string, { mode: number; content: string }>): Map<string, string> {
  const files = new Map<string, string>();
  const resolvePath = (path: string, depth: number): { path: string } | undefined => {
    if (depth > 16) return undefined;
    const parts = path.split('/');
    for (let i = 1; i <= parts.length; i += 1) {
      const head = parts.slice(0, i).join('/');
      const blob = blobs.get(head);
      if (blob && (blob.mode & 0o170000) === SYMLINK) {
        const target = posix.normalize(posix.join(posix.dirname(head), blob.content.trim()));
        return resolvePath([target, ...parts.slice(i)].join('/'), depth + 1);
      }
    }
    return { path };
  };
  for (const [path, blob] of blobs) {
    if ((blob.mode & 0o170000) !== SYMLINK) {
      files.set(path, blob.content);
      continue;
    }
    const target = resolvePath(path, 0);
    if (!target) continue;
    const file = blobs.get(target.path);
    if (file && (file.mode & 0o170000) !== SYMLINK) {
      files.set(path, file.content);
      continue;
    }
    for (const [other, content] of blobs) {
      if (!other.startsWith(`${target.path}/`) || (content.mode & 0o170000) === SYMLINK) continue;
      files.set(`${path}/${other.slice(target.path.length + 1)}`, content.content);
    }
  }
  return files;
}

function underPrefix(files: Map<string, string>, prefix: string): Map<string, string> {
  if (!prefix) return files;
  const result = new Map<string, string>();
  for (const [path, content] of files)
    if (path.startsWith(`${prefix}/`)) result.set(path.slice(prefix.length + 1), content);
  return result;
}
