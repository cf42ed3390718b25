/**
 * Decrypts `aws:kms:<base64>` config items (CLM §10.5) with KMS. Errors name neither the ciphertext nor the plaintext;
 * the caller adds the config item's name.
 */
import { DecryptCommand } from '@aws-sdk/client-kms';
import type { KMSClient } from '@aws-sdk/client-kms';
import type { SecretDecrypter } from '../../ports/secrets';
import { ConfigError } from '../../shared/errors';
import { awsErrorName, isThrottlingError, isTransientError, toClmError } from './aws-errors';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export class KmsSecretDecrypter implements SecretDecrypter {
  private readonly client: KMSClient;

  constructor(client: KMSClient) {
    this.client = client;
  }

  async decrypt(ciphertextBase64: string): Promise<string> {
    const compact = ciphertextBase64.replace(/\s+/g, '');
    if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64.test(compact)) {
      throw new ConfigError('KMS decrypt: the value after "aws:kms:" is not valid base64');
    }
    let plaintext: Uint8Array | undefined;
    try {
      plaintext = (await this.client.send(new DecryptCommand({ CiphertextBlob: Buffer.from(compact, 'base64') })))
        .Plaintext;
    } catch (error) {
      if (isThrottlingError(error) || isTransientError(error)) throw toClmError(error, 'KMS Decrypt');
      // The SDK message may quote request details; report only the error name.
      throw new ConfigError(
        `KMS Decrypt failed: ${awsErrorName(error)} (is the value encrypted with a key this role may use?)`,
        { cause: error },
      );
    }
    if (!plaintext) throw new ConfigError('KMS Decrypt returned no plaintext');
    return Buffer.from(plaintext).toString('utf8');
  }
}
