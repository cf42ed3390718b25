/**
 * NodeFilesStore on the cluster account's S3 and KMS (the clients of that account and region, through the assumed
 * role when there is one): CLM's files bundles, KMS-encrypted with the keys of the cluster's main stack.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { EncryptCommand } from '@aws-sdk/client-kms';
import type { KMSClient } from '@aws-sdk/client-kms';
import type { NodeFilesStore } from '../../ports/node-files';
import { ClmError } from '../../shared/errors';
import { awsErrorName, toClmError } from './aws-errors';
import { createBucket } from './s3-buckets';

export class S3NodeFilesStore implements NodeFilesStore {
  constructor(
    private readonly s3: S3Client,
    private readonly kms: KMSClient,
    /** The cluster's region: a bucket created here is created there. */
    private readonly region: string,
  ) {}

  async encrypt(keyId: string, plaintext: Uint8Array): Promise<Uint8Array> {
    try {
      const out = await this.kms.send(new EncryptCommand({ KeyId: keyId, Plaintext: plaintext }));
      if (!out.CiphertextBlob) throw new ClmError(`KMS Encrypt with ${keyId} returned no ciphertext`);
      return out.CiphertextBlob;
    } catch (error) {
      throw toClmError(error, `KMS Encrypt with ${keyId}`);
    }
  }

  async put(object: { bucket: string; key: string; body: Uint8Array; createBucket: boolean }): Promise<void> {
    const { bucket, key, body } = object;
    const put = () =>
      this.s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/gzip' }));
    try {
      await put();
      return;
    } catch (error) {
      if (awsErrorName(error) !== 'NoSuchBucket') throw toClmError(error, `S3 PutObject s3://${bucket}/${key}`);
      if (!object.createBucket)
        throw new ClmError(
          `S3 PutObject s3://${bucket}/${key}: bucket ${bucket} does not exist (config item node_files_bucket names it; create it, or remove the item to use CLM's bucket)`,
          { cause: error },
        );
    }
    await createBucket(this.s3, bucket, this.region);
    try {
      await put();
    } catch (error) {
      throw toClmError(error, `S3 PutObject s3://${bucket}/${key}`);
    }
  }
}
