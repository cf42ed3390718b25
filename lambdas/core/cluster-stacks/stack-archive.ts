import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * A reproducible `.tar.gz` of a stack directory: ustar entries in byte order of path, mode 0644, owner 0,
 * mtime 0, gzip without a timestamp. The same files always give the same bytes, so the digest names the content.
 */
export function stackArchive(files: ReadonlyMap<string, string>): { readonly bytes: Buffer; readonly digest: string } {
  const paths = [...files.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const blocks: Buffer[] = [];
  for (const path of paths) {
    const content = Buffer.from(files.get(path)!, 'utf8');
    blocks.push(header(path, content.length), content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  const bytes = gzipSync(Buffer.concat(blocks), { level: 9 });
  // Byte 9 of a gzip header names the OS that wrote it; fix it so every machine gives the same bytes.
  bytes[9] = 255;
  return { bytes, digest: archiveDigest(bytes) };
}

function header(path: string, size: number): Buffer {
  const block = Buffer.alloc(512);
  const name = Buffer.from(path, 'utf8');
  if (name.length > 100) {
    // ustar: the last part up to 100 bytes in name, the directories (up to 155 bytes) in prefix.
    const cut = path.lastIndexOf('/');
    const prefix = path.slice(0, cut);
    const rest = path.slice(cut + 1);
    if (Buffer.byteLength(prefix) > 155 || Buffer.byteLength(rest) > 100)
      throw new Error(`path too long for a tar archive: ${path}`);
    block.write(rest, 0, 'utf8');
    block.write(prefix, 345, 'utf8');
  } else {
    name.copy(block, 0);
  }
  block.write('0000644\0', 100, 'ascii');
  block.write('0000000\0', 108, 'ascii');
  block.write('0000000\0', 116, 'ascii');
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  block.write('00000000000\0', 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write('0', 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
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
  const tar = gunzipSync(bytes);
  const files = new Map<string, string>();
  for (let at = 0; at + 512 <= tar.length;) {
    const block = tar.subarray(at, at + 512);
    if (block.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) =>
      block
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const stored = parseInt(field(148, 8).trim(), 8);
    let sum = 0;
    for (let i = 0; i < 512; i += 1) sum += i >= 148 && i < 156 ? 32 : block[i];
    if (sum !== stored) throw new Error(`tar header at byte ${at}: checksum mismatch`);
    const prefix = field(345, 155);
    const path = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const type = field(156, 1);
    const size = parseInt(field(124, 12).trim(), 8);
    if (type !== '0' && type !== '') throw new Error(`tar entry ${path}: not a regular file (type ${type})`);
    if (path.startsWith('/') || path.split('/').includes('..')) throw new Error(`tar entry ${path}: leaves the stack`);
    files.set(path, tar.subarray(at + 512, at + 512 + size).toString('utf8'));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
