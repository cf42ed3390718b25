import type { NodeFilesStore } from '../../ports/node-files';
import { ClmError } from '../../shared/errors';
import { encrypt, KmsError } from '../aws/kms';
import { createBucket, findBucket, putObject, S3Error } from '../aws/s3';
import type { SimContext } from '../sim-context';
import type { AccountState } from '../world-state';
import { instrument } from './instrument';

/** NodeFilesStore over the simulated account: its KMS keys (the stacks'), its buckets and objects. */
export function simNodeFiles(ctx: SimContext, account: AccountState, clusterId: string): NodeFilesStore {
  const failed = (what: string) => (error: unknown) => {
    if (error instanceof KmsError || error instanceof S3Error)
      throw new ClmError(`${what}: ${error.message}`, { cause: error });
    throw error;
  };
  return instrument<NodeFilesStore>(ctx, 'nodeFiles', clusterId, {
    encrypt(keyId, plaintext) {
      try {
        return encrypt(ctx, account, keyId, plaintext);
      } catch (error) {
        return failed(`KMS Encrypt with ${keyId}`)(error);
      }
    },
    put({ bucket, key, body, createBucket: create }) {
      try {
        if (create && !findBucket(ctx, bucket)) createBucket(ctx, account, clusterId, bucket);
        putObject(ctx, account, clusterId, { bucket, key, body });
      } catch (error) {
        failed(`S3 PutObject s3://${bucket}/${key}`)(error);
      }
    },
  });
}
