import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `file:///srv/git/config.git`: a repository on this machine, read in place. */
export function isLocalGitUrl(url: string): boolean {
  return /^file:\/\//i.test(url);
}

/** The git directory of a `file://` repository: `<path>/.git` for a work tree, else the (bare) path itself. */
export function localGitdir(url: string): string {
  const path = fileURLToPath(url);
  return existsSync(join(path, '.git', 'HEAD')) ? join(path, '.git') : path;
}

/** `https://user:secret@host/x` → `https://***@host/x`. */
export function maskCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1***@');
}

/** `<repo name>-<8 hex>`: the last path segment without `.git`, plus a hash of the whole URL. */
export function mirrorName(url: string): string {
  const path = url.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const repo = (
    path
      .slice(path.lastIndexOf('/') + 1)
      .replace(/\.git$/, '')
      .replace(/[^A-Za-z0-9_.-]/g, '_') || 'repo'
  ).replace(/^\.+/, '_');
  return `${repo}-${createHash('sha256').update(url).digest('hex').slice(0, 8)}`;
}
