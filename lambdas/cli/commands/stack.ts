/**
 * `clm stack lint` and `clm stack release`: the cluster stacks of a config repository (core/cluster-stacks).
 */
import type { Command } from 'commander';
import { CliExit, EXIT } from '../io';
import type { CliIo } from '../io';
import type { ReleaseOptions } from './stack-run';

const LINT_EXAMPLES = `
Examples:
  # In a config repository's CI: every stack has a valid metadata.yaml, and every layer changed since
  # origin/main bumped its component version and the stack version
  $ clm stack lint --against origin/main
  $ clm stack lint --directory examples/cluster-stacks/v3

Exit codes: 0 clean, 1 findings (each names the files), 2 usage error.`;

const RELEASE_EXAMPLES = `
Examples:
  # Package aws/default/1-30 as it is now, immutable and content-addressed, into a directory
  $ clm stack release --directory examples/cluster-stacks/v2 --stack aws/default/1-30 --to /tmp/releases
  # /tmp/releases/aws/default/1-30/v2.tar.gz and v2.sha256 (sha256:<hex> of the tarball)
  # Straight into the artefact bucket, where the deployed tasks read releases (s3://my-clm-bucket/stack-releases/)
  $ clm stack release --stack aws/default/1-30 --bucket my-clm-bucket
  $ clm stack release --stack aws/default/1-30 --to s3://my-releases/stacks

It prints the pin for the registry: cluster_stack_version: v2@sha256:<hex>. A released version never changes:
releasing it again with the same content says so and exits 0; with other content it is refused (exit 1): bump
the stack version. Objects are written only where none is (S3: If-None-Match), so two releases cannot race.`;

export function registerStackCommands(program: Command, io: CliIo): void {
  const stack = program
    .command('stack')
    .description('Lint and release cluster stacks (providers/<provider>/<stack>/<k8s>/).');
  stack
    .command('lint')
    .description(
      'Check metadata.yaml of every cluster stack and, against a git ref, that changed layers bumped their versions.',
    )
    .option('--directory <dir>', 'the config repository (the folder holding providers/)', '.')
    .option(
      '--against <ref>',
      'a git branch, tag or commit to compare with (the directory must be in a git repository)',
    )
    .addHelpText('after', LINT_EXAMPLES)
    .action(async (options: { directory: string; against?: string }) => {
      const { runStackLint } = await import('./stack-run');
      const code = await runStackLint(options, io);
      if (code !== EXIT.OK) throw new CliExit(code);
    });
  stack
    .command('release')
    .description('Package one cluster stack version as an immutable, content-addressed tarball with its digest.')
    .requiredOption('--stack <name>', 'the stack, <provider>/<stack>/<k8s-major-minor> (aws/default/1-30)')
    .option('--to <dir|s3://bucket/prefix>', 'the release store: a directory or an S3 location')
    .option('--out <dir>', 'a release directory (the same as --to DIR)')
    .option('--bucket <name>', 'the artefact bucket: releases go to s3://<name>/stack-releases/, where the tasks read')
    .option('--region <region>', 'region of the bucket', process.env.AWS_REGION ?? 'eu-central-1')
    .option('--directory <dir>', 'the config repository (the folder holding providers/)', '.')
    .addHelpText('after', RELEASE_EXAMPLES)
    .action(async (options: ReleaseOptions) => {
      const { runStackRelease } = await import('./stack-run');
      const code = await runStackRelease(options, io);
      if (code !== EXIT.OK) throw new CliExit(code);
    });
}
