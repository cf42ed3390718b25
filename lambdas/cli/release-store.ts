import type { ArtifactStore } from '../ports/artifact-store';
import { RELEASES_PREFIX } from '../tasks/cluster-stacks/stack-releases';
import { UsageError } from './io';
import { directoryFlag } from './directory-flag';

const S3 = 's3://';

/**
 * Where released cluster stacks are (`clm stack release --to`, `--stack-releases`): a local directory, or
 * `s3://bucket/prefix` through the S3 adapter (credentials and region from the environment, `--region`).
 * `s3://<artefact bucket>/stack-releases` is where the deployed tasks read them.
 */
export async function openReleaseStore(
  location: string,
  options: { readonly cwd: string; readonly region?: string; readonly flag: string },
): Promise<{ readonly store: ArtifactStore; readonly location: string }> {
  if (!location.startsWith(S3)) {
    const { DirectoryArtifactStore } = await import('../adapters/artifacts/directory-artifact-store');
    return { store: new DirectoryArtifactStore(directoryFlag(options.flag, location, options.cwd)), location };
  }
  const [bucket, ...rest] = location.slice(S3.length).split('/');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new UsageError(`${options.flag} ${location}: expected s3://BUCKET/PREFIX with a valid bucket name`);
  const prefix = rest.filter(Boolean).join('/');
  const region = options.region ?? process.env.AWS_REGION ?? 'eu-central-1';
  const [{ S3ArtifactStore }, { createAwsClients }] = await Promise.all([
    import('../adapters/aws/s3-artifact-store'),
    import('../adapters/aws/aws-clients'),
  ]);
  const store = new S3ArtifactStore(createAwsClients({ region }).s3, {
    bucket,
    region,
    ...(prefix ? { prefix: `${prefix}/` } : {}),
  });
  return { store, location };
}

/** The release store of an artefact bucket: `s3://<bucket>/stack-releases`, where the deployed tasks look. */
export function artefactBucketReleases(bucket: string): string {
  return `${S3}${bucket}/${RELEASES_PREFIX.replace(/\/$/, '')}`;
}
