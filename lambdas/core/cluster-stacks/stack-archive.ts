import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

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
  return { bytes, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}` };
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

/** The decision of a release: write it, it is already there (same digest), or refuse (another digest). */
export function releaseDecision(
  existing: string | undefined,
  digest: string,
): { readonly action: 'write' | 'unchanged' | 'refuse' } {
  if (existing === undefined) return { action: 'write' };
  return { action: existing.trim() === digest ? 'unchanged' : 'refuse' };
}
