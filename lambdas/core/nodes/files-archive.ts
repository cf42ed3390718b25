import { gunzipSync, gzipSync } from 'node:zlib';
import { ConfigError } from '../../shared/errors';
import { readUstar, ustar, type TarEntry } from '../archive/ustar';
import type { FilesBundle } from '../render/files-bundle';

/** KMS Encrypt with a key (its id, ARN or alias) in the cluster's account: the ciphertext blob. */
export type EncryptWith = (keyId: string, plaintext: Uint8Array) => Promise<Uint8Array>;

/** What a node finds in its bundle: `.enc` files are KMS ciphertexts it decrypts before use. */
export const ENCRYPTED_SUFFIX = '.enc';

/**
 * The tar.gz a node downloads (CLM `makeArchive`, §4.5): one regular file per entry of files.yaml in its order, the
 * data base64-decoded, mode = `permissions`; a file with `encrypted: true` KMS-encrypted with the bundle's key (no
 * encryption context, as CLM) and stored as `<path>.enc`. A bundle with an encrypted file but no key (the main stack
 * lacks the output) is a ConfigError naming the bundle, the file and the output: nothing is uploaded in clear.
 */
export async function packFilesBundle(
  bundle: Pick<FilesBundle, 's3Path' | 'files' | 'kmsKeyOutput' | 'kmsKeyId'>,
  encrypt: EncryptWith,
  location: { readonly clusterId?: string } = {},
): Promise<Buffer> {
  const entries = [];
  for (const file of bundle.files) {
    const plaintext = Buffer.from(file.data.replace(/[\r\n]/g, ''), 'base64');
    if (!file.encrypted) {
      entries.push({ path: file.path, mode: file.permissions, content: plaintext });
      continue;
    }
    if (!bundle.kmsKeyId)
      throw new ConfigError(
        `files bundle ${bundle.s3Path}: ${file.path} is encrypted: true, but there is no KMS key to encrypt it with (${bundle.kmsKeyOutput} is unknown: the main stack has no such output?)`,
        { location: { ...location, field: bundle.kmsKeyOutput } },
      );
    const ciphertext = await encrypt(bundle.kmsKeyId, plaintext);
    entries.push({ path: `${file.path}${ENCRYPTED_SUFFIX}`, mode: file.permissions, content: ciphertext });
  }
  return gzipSync(ustar(entries));
}

/**
 * The entries of a files bundle as `tar xzf` would read them; a plain Error saying what is wrong when the bytes are not
 * a gzip-compressed tar (a JSON body, a truncated upload).
 */
export function unpackFilesBundle(bytes: Uint8Array): TarEntry[] {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    throw new Error(
      `not a tar.gz (starts with ${JSON.stringify(Buffer.from(bytes.subarray(0, 12)).toString('latin1'))})`,
    );
  let tar: Buffer;
  try {
    tar = gunzipSync(bytes);
  } catch (error) {
    throw new Error(`not a tar.gz: ${(error as Error).message}`);
  }
  if (tar.length < 512) throw new Error(`not a tar archive (${tar.length} bytes after gunzip)`);
  const entries = readUstar(tar);
  const odd = entries.find((entry) => entry.type !== '0' && entry.type !== '');
  if (odd) throw new Error(`tar entry ${odd.path} is not a regular file (type ${odd.type})`);
  return entries;
}
