import { CreateBucketCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { awsErrorName, toClmError } from './aws-errors';

/**
 * CreateBucket in `region`, as CLM's `createS3Bucket` (§6.2 step 9) means it: "already owned by you" is success. S3
 * rejects a `LocationConstraint` of us-east-1 (the default location takes none), which CLM sends anyway; here it is
 * left out there.
 */
export async function createBucket(client: S3Client, bucket: string, region: string): Promise<void> {
  try {
    await client.send(
      new CreateBucketCommand({
        Bucket: bucket,
        ...(region === 'us-east-1' ? {} : { CreateBucketConfiguration: { LocationConstraint: region as never } }),
      }),
    );
  } catch (error) {
    if (awsErrorName(error) === 'BucketAlreadyOwnedByYou') return;
    throw toClmError(error, `S3 CreateBucket ${bucket} (${region})`);
  }
}
