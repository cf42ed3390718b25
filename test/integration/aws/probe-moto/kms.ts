/**
 * KMS: the key, alias, Encrypt and Decrypt calls behind `aws:kms:` config items.
 */
import { CreateAliasCommand, CreateKeyCommand, DecryptCommand, EncryptCommand } from '@aws-sdk/client-kms';
import type { Probe } from './probe';
import { record, step, expectError } from './report';

/** Encrypt by alias with an encryption context, Decrypt without KeyId, and the ways Decrypt fails. */
export async function probeKms(probe: Probe): Promise<void> {
  const { kms } = probe;
  await step('kms', 'CreateKey / alias / Encrypt / Decrypt', async () => {
    const k = await kms.send(new CreateKeyCommand({ Description: 'clm probe' }));
    await kms.send(new CreateAliasCommand({ AliasName: 'alias/clm-probe', TargetKeyId: k.KeyMetadata!.KeyId! }));
    const plain = new TextEncoder().encode('s3cr3t-value');
    const enc = await kms.send(
      new EncryptCommand({ KeyId: 'alias/clm-probe', Plaintext: plain, EncryptionContext: { cluster: 'probe' } }),
    );
    const dec = await kms.send(
      new DecryptCommand({ CiphertextBlob: enc.CiphertextBlob, EncryptionContext: { cluster: 'probe' } }),
    );
    const ok = new TextDecoder().decode(dec.Plaintext) === 's3cr3t-value';
    record(
      'kms',
      'Encrypt (by alias) / Decrypt (no KeyId)',
      ok ? 'same' : 'broken',
      `roundtrip ${ok}; Encrypt KeyId ${enc.KeyId}; Decrypt KeyId ${dec.KeyId}; ciphertext ${enc.CiphertextBlob?.length} bytes`,
    );
    const wrong = await expectError(() =>
      kms.send(new DecryptCommand({ CiphertextBlob: enc.CiphertextBlob, EncryptionContext: { cluster: 'other' } })),
    );
    record('kms', 'Decrypt with wrong EncryptionContext', wrong ? 'same' : 'differs', wrong ?? 'succeeded');
    const bad = await expectError(() => kms.send(new DecryptCommand({ CiphertextBlob: new Uint8Array([1, 2, 3, 4]) })));
    record('kms', 'Decrypt garbage', bad ? 'same' : 'differs', bad ?? 'succeeded');
  });
}
