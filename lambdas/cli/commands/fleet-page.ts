import type { Command } from 'commander';
import { Option } from 'commander';
import { DEFAULT_LINK_EXPIRY } from '../../core/fleet-page/link-expiry';
import type { CliIo } from '../io';

export interface FleetPageOptions {
  readonly bucket?: string;
  readonly region: string;
  readonly expires: string;
}

const EXAMPLES = `
Examples:
  # A link to the deployed fleet page, valid for an hour (the bucket: the ClmStateful stack's ArtifactBucketName)
  $ clm fleet-page --bucket clmstateful-artifacts1234-abcdef

  # Valid for a week, the longest S3 allows; the bucket from the environment
  $ CLM_ARTIFACT_BUCKET=clmstateful-artifacts1234-abcdef clm fleet-page --expires 168h

The deployed dispatcher rewrites the page (fleet/index.html of the artefact bucket, the page clm status --html
writes) on every pass. The URL is signed with your AWS credentials: whoever has it can read the page until it
expires, without AWS credentials of their own.`;

export function registerFleetPageCommand(program: Command, io: CliIo): void {
  program
    .command('fleet-page')
    .description("Print a pre-signed URL of the deployed dispatcher's fleet page (read-only).")
    .addOption(
      new Option('--bucket <name>', 'the artefact bucket (ClmStateful output ArtifactBucketName)').env(
        'CLM_ARTIFACT_BUCKET',
      ),
    )
    .option('--region <region>', 'region of the artefact bucket', process.env.AWS_REGION ?? 'eu-central-1')
    .option('--expires <duration>', 'how long the URL is valid: 1m to 168h', DEFAULT_LINK_EXPIRY)
    .addHelpText('after', EXAMPLES)
    .action(async (options: FleetPageOptions) => {
      const { runFleetPage } = await import('./fleet-page-run');
      await runFleetPage(options, io);
    });
}
