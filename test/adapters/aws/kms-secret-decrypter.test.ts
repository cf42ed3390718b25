import { DecryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { KmsSecretDecrypter } from '../../../lambdas/adapters/aws/kms-secret-decrypter';
import { ConfigError, TransientApiError } from '../../../lambdas/shared/errors';
import { sdkError } from './sdk-errors';

const kms = mockClient(KMSClient);
const decrypter = () => new KmsSecretDecrypter(new KMSClient({ region: 'eu-central-1' }));

beforeEach(() => kms.reset());

describe('KmsSecretDecrypter', () => {
  it('sends the decoded ciphertext and returns the UTF-8 plaintext', async () => {
    // Arrange
    const blob = Buffer.from('ciphertext-bytes');
    kms.on(DecryptCommand).resolves({ Plaintext: new TextEncoder().encode('s3cr3t-ü') });

    // Act
    const plaintext = await decrypter().decrypt(blob.toString('base64'));

    // Assert
    expect(plaintext).toBe('s3cr3t-ü');
    const sent = kms.commandCalls(DecryptCommand)[0].args[0].input.CiphertextBlob;
    expect(Buffer.from(sent as Uint8Array).equals(blob)).toBe(true);
  });

  it('rejects a value that is not base64 without calling KMS', async () => {
    await expect(decrypter().decrypt('not base64!')).rejects.toThrow(ConfigError);
    expect(kms.calls()).toHaveLength(0);
  });

  it('reports a KMS refusal without echoing the ciphertext or the SDK message', async () => {
    // Arrange
    const ciphertext = Buffer.from('secret-looking-blob').toString('base64');
    kms.on(DecryptCommand).rejects(sdkError('InvalidCiphertextException', `bad ciphertext ${ciphertext}`));

    // Act
    const error = (await decrypter()
      .decrypt(ciphertext)
      .catch((e: unknown) => e)) as Error;

    // Assert
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(
      'KMS Decrypt failed: InvalidCiphertextException (is the value encrypted with a key this role may use?)',
    );
    expect(error.message).not.toContain(ciphertext);
  });

  it('keeps 5xx retryable', async () => {
    kms.on(DecryptCommand).rejects(sdkError('KMSInternalException', 'internal', 500));
    await expect(decrypter().decrypt('AAAA')).rejects.toThrow(TransientApiError);
  });
});
