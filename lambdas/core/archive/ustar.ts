/**
 * The ustar tar format (POSIX.1-1988), as far as CLM's archives need it: regular files only, owner 0, mtime 0. Used by
 * released cluster stacks (cluster-stacks/stack-archive.ts) and by the files bundles nodes download
 * (nodes/files-archive.ts). Reading checks every header's checksum.
 */

/** One regular file of an archive. */
export interface TarFile {
  readonly path: string;
  /** Permission bits, e.g. 0o644. */
  readonly mode: number;
  readonly content: Uint8Array;
}

/** One entry as read: regular files have type `0` (or empty, old tars); anything else is reported, not followed. */
export interface TarEntry extends TarFile {
  readonly type: string;
}

const BLOCK = 512;

/** The uncompressed tar of `files` in the order given, with the two empty end blocks. */
export function ustar(files: readonly TarFile[]): Buffer {
  const blocks: Buffer[] = [];
  for (const file of files) {
    const content = Buffer.from(file.content);
    blocks.push(header(file.path, file.mode, content.length), content, Buffer.alloc(padding(content.length)));
  }
  blocks.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(blocks);
}

function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(path: string, mode: number, size: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const name = Buffer.from(path, 'utf8');
  if (name.length > 100) {
    // ustar: the last part up to 100 bytes in name, the directories (up to 155 bytes) in prefix.
    const cut = path.lastIndexOf('/');
    const prefix = path.slice(0, cut);
    const rest = path.slice(cut + 1);
    if (cut < 0 || Buffer.byteLength(prefix) > 155 || Buffer.byteLength(rest) > 100)
      throw new Error(`path too long for a tar archive: ${path}`);
    block.write(rest, 0, 'utf8');
    block.write(prefix, 345, 'utf8');
  } else {
    name.copy(block, 0);
  }
  if (!Number.isInteger(mode) || mode < 0 || mode > 0o7777) throw new Error(`invalid file mode for ${path}: ${mode}`);
  block.write(octal(mode, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(0, 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write('0', 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/**
 * The entries of an uncompressed tar, in order. Throws (plain Error naming the byte offset) on a bad header checksum or
 * an entry that runs past the end: what `tar x` refuses too.
 */
export function readUstar(tar: Uint8Array): TarEntry[] {
  const bytes = Buffer.from(tar.buffer, tar.byteOffset, tar.byteLength);
  const entries: TarEntry[] = [];
  for (let at = 0; at + BLOCK <= bytes.length;) {
    const block = bytes.subarray(at, at + BLOCK);
    if (block.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) =>
      block
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const stored = parseInt(field(148, 8).trim(), 8);
    let sum = 0;
    for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 32 : block[i];
    if (sum !== stored) throw new Error(`tar header at byte ${at}: checksum mismatch`);
    const prefix = field(345, 155);
    const path = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const end = at + BLOCK + size;
    if (end > bytes.length) throw new Error(`tar entry ${path} at byte ${at}: truncated (${size} bytes announced)`);
    entries.push({
      path,
      mode: parseInt(field(100, 8).trim() || '0', 8),
      type: field(156, 1),
      content: bytes.subarray(at + BLOCK, end),
    });
    at = end + padding(size);
  }
  return entries;
}
