import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { awsErrorName, toClmError } from './aws-errors';

const MISSING: ReadonlySet<string> = new Set(['NotFound', 'NoSuchKey', 'NoSuchBucket']);

/**
 * A pre-signed GET of one object (SigV4 in the query: `X-Amz-Expires`, `X-Amz-Signature`), made only when the
 * object exists (HeadObject with the caller's credentials): anyone holding the URL reads that object until it expires.
 * `missing` when there is no such object (or bucket).
 */
export async function presignedGet(
  client: S3Client,
  object: { readonly bucket: string; readonly key: string },
  expiresInSeconds: number,
): Promise<{ readonly url: string } | 'missing'> {
  const { bucket, key } = object;
  try {
    await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  } catch (error) {
    if (MISSING.has(awsErrorName(error))) return 'missing';
    throw toClmError(error, `S3 HeadObject s3://${bucket}/${key}`);
  }
  const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), {
    expiresIn: expiresInSeconds,
  });
  return { url };
}
