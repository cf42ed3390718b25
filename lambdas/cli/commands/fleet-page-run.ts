// `clm fleet-page`'s implementation, loaded by its action (fleet-page.ts declares the command).
import { FLEET_PAGE_KEY } from '../../core/fleet-page/fleet-page-object';
import { linkExpirySeconds } from '../../core/fleet-page/link-expiry';
import { NotFoundError } from '../../shared/errors';
import { importCjs } from '../../shared/import-cjs';
import { EXIT, UsageError, type CliIo, type ExitCode } from '../io';
import type { FleetPageOptions } from './fleet-page';

/** How to have a page at once instead of waiting for the schedule: the scheduled pass's own input. */
const RUN_A_PASS =
  'aws lambda invoke --function-name <the ClmWorkflow stack\'s DispatchFleet function> --cli-binary-format raw-in-base64-out --payload \'{"trigger":"schedule"}\' /dev/stdout';

export async function runFleetPage(options: FleetPageOptions, io: CliIo): Promise<ExitCode> {
  if (!options.bucket)
    throw new UsageError(
      "the artefact bucket is unknown: give --bucket NAME or set CLM_ARTIFACT_BUCKET (the ClmStateful stack's output ArtifactBucketName)",
    );
  const expiry = linkExpirySeconds(options.expires);
  if ('error' in expiry) throw new UsageError(`--expires ${expiry.error}`);
  const [{ S3Client }, { presignedGet }, { awsEndpointFromEnv }] = await Promise.all([
    importCjs(import('@aws-sdk/client-s3')),
    import('../../adapters/aws/s3-presigned-get'),
    import('../../adapters/aws/aws-clients'),
  ]);
  const endpoint = awsEndpointFromEnv(process.env);
  // Path-style with an endpoint: emulators do not serve virtual-hosted bucket names.
  const client = new S3Client({ region: options.region, ...(endpoint ? { endpoint, forcePathStyle: true } : {}) });
  const location = `s3://${options.bucket}/${FLEET_PAGE_KEY}`;
  const signed = await presignedGet(client, { bucket: options.bucket, key: FLEET_PAGE_KEY }, expiry.seconds);
  if (signed === 'missing')
    throw new NotFoundError(
      `no fleet page at ${location} yet: the deployed dispatcher writes it on each pass (scheduled every dispatchIntervalMinutes, 5 by default). Run a pass now with\n  ${RUN_A_PASS}\nor check the bucket (--bucket, --region).`,
    );
  io.stdout(`${signed.url}\n`);
  io.stderr(`${location}, valid for ${options.expires}\n`);
  return EXIT.OK;
}
