import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { readUstar, ustar } from '../archive/ustar';

/**
 * A reproducible `.tar.gz` of a stack directory: ustar entries in byte order of path, mode 0644, owner 0,
 * mtime 0, gzip without a timestamp. The same files always give the same bytes, so the digest names the content.
 */
export function stackArchive(files: ReadonlyMap<string, string>): { readonly bytes: Buffer; readonly digest: string } {
  const paths = [...files.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const tar = ustar(paths.map((path) => ({ path, mode: 0o644, content: Buffer.from(files.get(path)!, 'utf8') })));
  const bytes = gzipSync(tar, { level: 9 });
  // Byte 9 of a gzip header names the OS that wrote it; fix it so every machine gives the same bytes.
  bytes[9] = 255;
  return { bytes, digest: archiveDigest(bytes) };
}

/** `sha256:<hex>` of bytes: the digest a released stack is pinned by. */
export function archiveDigest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * The files of a stack tarball (as stackArchive writes them: regular files in ustar entries), by path. Throws
 * (plain Error, the caller names the release) on anything else: not gzip, a bad header checksum, a link, a path
 * that climbs out (`..`, absolute).
 */
export function unpackStackArchive(bytes: Uint8Array): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readUstar(gunzipSync(bytes))) {
    const { path, type } = entry;
    if (type !== '0' && type !== '') throw new Error(`tar entry ${path}: not a regular file (type ${type})`);
    if (path.startsWith('/') || path.split('/').includes('..')) throw new Error(`tar entry ${path}: leaves the stack`);
    files.set(path, Buffer.from(entry.content).toString('utf8'));
  }
  return files;
}
