import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { NodeFilesStore } from '../../../lambdas/ports/node-files';

/**
 * NodeFilesStore with state: buckets (those `createBucket` made or `addBucket` gave), objects, and a KMS whose keys are
 * the ones `addKey` gave (any other key id is KMS's NotFoundException). Ciphertexts are AES-GCM under a key derived
 * from the key id and name it, so a test can decrypt them (`decrypt`) and see that the plaintext is not in them.
 */
export class FakeNodeFilesStore implements NodeFilesStore {
  readonly buckets = new Set<string>();
  readonly objects = new Map<string, Uint8Array>();
  readonly keys = new Set<string>();
  readonly calls: string[] = [];

  addKey(...keyIds: string[]): this {
    for (const id of keyIds) this.keys.add(id);
    return this;
  }

  addBucket(...names: string[]): this {
    for (const name of names) this.buckets.add(name);
    return this;
  }

  async encrypt(keyId: string, plaintext: Uint8Array): Promise<Uint8Array> {
    this.calls.push(`encrypt ${keyId}`);
    if (!this.keys.has(keyId)) throw new Error(`NotFoundException: Key '${keyId}' does not exist`);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', material(keyId), iv);
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const name = Buffer.from(`${keyId}\n`, 'utf8');
    return Buffer.concat([name, iv, cipher.getAuthTag(), body]);
  }

  /** The key a ciphertext names and its plaintext (what KMS Decrypt gives). */
  decrypt(blob: Uint8Array): { keyId: string; plaintext: Buffer } {
    const bytes = Buffer.from(blob);
    const end = bytes.indexOf(0x0a);
    const keyId = bytes.subarray(0, end).toString('utf8');
    const decipher = createDecipheriv('aes-256-gcm', material(keyId), bytes.subarray(end + 1, end + 13));
    decipher.setAuthTag(bytes.subarray(end + 13, end + 29));
    return { keyId, plaintext: Buffer.concat([decipher.update(bytes.subarray(end + 29)), decipher.final()]) };
  }

  async put(object: { bucket: string; key: string; body: Uint8Array; createBucket: boolean }): Promise<void> {
    this.calls.push(`put s3://${object.bucket}/${object.key}`);
    if (!this.buckets.has(object.bucket)) {
      if (!object.createBucket) throw new Error(`NoSuchBucket: ${object.bucket}`);
      this.calls.push(`createBucket ${object.bucket}`);
      this.buckets.add(object.bucket);
    }
    this.objects.set(`${object.bucket}/${object.key}`, Uint8Array.from(object.body));
  }
}

const material = (keyId: string) => createHash('sha256').update(`fake-kms/${keyId}`).digest();
