import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import type { SimContext } from '../sim-context';
import type { AccountState } from '../world-state';
import { findKey, findKeyByArn, type Located } from './access-model';

/**
 * KMS of the simulated accounts: Encrypt with a key a stack made (by id, ARN or alias), Decrypt of a ciphertext blob,
 * which names its key as real KMS blobs do. Real AES-256-GCM under a key derived from the key's ARN, so a ciphertext
 * neither shows its plaintext nor decrypts after a change; who may decrypt is access-checks.ts's business.
 */

const MAGIC = Buffer.from('SIMKMS1:', 'latin1');

export class KmsError extends Error {
  constructor(
    readonly code: 'NotFoundException' | 'InvalidCiphertextException' | 'DisabledException',
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

const material = (arn: string) => createHash('sha256').update(`sim-kms/${arn}`).digest();

/** The key `keyId` names in the account and region, or a NotFoundException as KMS answers. */
export function resolveKey(ctx: SimContext, account: AccountState, keyId: string): Located {
  const key = findKey(ctx, account, keyId);
  if (!key) throw new KmsError('NotFoundException', `Key '${keyId}' does not exist in ${account.key}`);
  if (key.model.enabled === false) throw new KmsError('DisabledException', `${String(key.model.arn)} is disabled`);
  return key;
}

export function encrypt(ctx: SimContext, account: AccountState, keyId: string, plaintext: Uint8Array): Uint8Array {
  const arn = String(resolveKey(ctx, account, keyId).model.arn);
  // Derived, not drawn from the world's PRNG (which would shift every id made after an upload).
  const iv = createHash('sha256').update(arn).update(plaintext).update(String(ctx.now)).digest().subarray(0, 12);
  const cipher = createCipheriv('aes-256-gcm', material(arn), iv);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const name = Buffer.from(arn, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(name.length);
  return Buffer.concat([MAGIC, length, name, iv, cipher.getAuthTag(), body]);
}

/** The key a ciphertext blob names, or an InvalidCiphertextException (not one of ours, damaged). */
export function keyOfCiphertext(blob: Uint8Array): string {
  const bytes = Buffer.from(blob);
  if (bytes.length < MAGIC.length + 2 || !bytes.subarray(0, MAGIC.length).equals(MAGIC))
    throw new KmsError('InvalidCiphertextException', 'the data is not a KMS ciphertext blob');
  const length = bytes.readUInt16BE(MAGIC.length);
  return bytes.subarray(MAGIC.length + 2, MAGIC.length + 2 + length).toString('utf8');
}

export function decrypt(ctx: SimContext, blob: Uint8Array): { readonly key: Located; readonly plaintext: Uint8Array } {
  const arn = keyOfCiphertext(blob);
  const key = findKeyByArn(ctx, arn);
  if (!key) throw new KmsError('NotFoundException', `the key ${arn} the ciphertext names does not exist`);
  if (key.model.enabled === false) throw new KmsError('DisabledException', `${arn} is disabled`);
  const bytes = Buffer.from(blob);
  const start = MAGIC.length + 2 + Buffer.byteLength(arn, 'utf8');
  try {
    const decipher = createDecipheriv('aes-256-gcm', material(arn), bytes.subarray(start, start + 12));
    decipher.setAuthTag(bytes.subarray(start + 12, start + 28));
    return { key, plaintext: Buffer.concat([decipher.update(bytes.subarray(start + 28)), decipher.final()]) };
  } catch {
    throw new KmsError('InvalidCiphertextException', 'the ciphertext does not decrypt (damaged?)');
  }
}
