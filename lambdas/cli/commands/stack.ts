/**
 * `clm stack lint` and `clm stack release`: the cluster stacks of a config repository (core/cluster-stacks).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { DirectorySource } from '../../adapters/config-source/directory-source';
import { readStack, stackFiles } from '../../core/cluster-stacks/resolve-stack';
import { lintStacks } from '../../core/cluster-stacks/stack-lint';
import { stackArchive } from '../../core/cluster-stacks/stack-archive';
import { releaseStack } from '../../tasks/cluster-stacks/stack-releases';
import { artefactBucketReleases, openReleaseStore } from '../release-store';
import { parseStackRef, stackDirectory, stackRefText } from '../../core/cluster-stacks/stack-ref';
import { CliExit, EXIT, UsageError } from '../io';
import type { CliIo, ExitCode } from '../io';

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
      const code = await runStackRelease(options, io);
      if (code !== EXIT.OK) throw new CliExit(code);
    });
}

async function repositoryFiles(directory: string, io: CliIo): Promise<Map<string, string>> {
  const path = resolve(io.cwd, directory);
  if (!existsSync(path) || !statSync(path).isDirectory())
    throw new UsageError(`--directory ${directory} is not a directory`);
  const source = new DirectorySource({ name: 'stack', path, displayPath: directory });
  return new Map((await source.checkout(await source.resolveVersion(''))).files);
}

export async function runStackLint(options: { directory: string; against?: string }, io: CliIo): Promise<ExitCode> {
  const current = await repositoryFiles(options.directory, io);
  const reference = options.against
    ? await (
        await import('../../adapters/config-source/git-tree-files')
      ).filesAtRef(resolve(io.cwd, options.directory), options.against)
    : undefined;
  const findings = lintStacks(current, reference);
  const stacks = new Set(
    [...current.keys()].filter((p) => p.startsWith('providers/')).map((p) => p.split('/').slice(1, 4).join('/')),
  );
  for (const finding of findings) io.stdout(`${finding.stack}: ${finding.message}\n`);
  const against = options.against ? ` against ${options.against}` : '';
  io.stdout(
    `${stacks.size} cluster stack(s)${against}: ${findings.length ? `${findings.length} finding(s)` : 'clean'}\n`,
  );
  return findings.length ? EXIT.FAILED : EXIT.OK;
}

export interface ReleaseOptions {
  readonly stack: string;
  readonly directory: string;
  readonly to?: string;
  readonly out?: string;
  readonly bucket?: string;
  readonly region?: string;
}

export async function runStackRelease(options: ReleaseOptions, io: CliIo): Promise<ExitCode> {
  const targets = [options.to, options.out, options.bucket && artefactBucketReleases(options.bucket)].filter(
    (t): t is string => Boolean(t),
  );
  if (targets.length !== 1)
    throw new UsageError('give one release store: --to DIR|s3://bucket/prefix, --out DIR or --bucket NAME');
  const ref = parseStackRef(options.stack, { field: '--stack' });
  const files = await repositoryFiles(options.directory, io);
  const snapshot = { sourceName: options.directory, version: '', files };
  const stack = readStack(snapshot, ref);
  if (!stack) throw new UsageError(`${options.directory} has no ${stackDirectory(ref)}`);
  const archive = stackArchive(stackFiles(snapshot, ref)!);
  const version = stack.metadata.clusterStack;
  const flag = options.bucket ? '--bucket' : options.to ? '--to' : '--out';
  const { store } = await openReleaseStore(targets[0], {
    cwd: io.cwd,
    flag,
    ...(options.region ? { region: options.region } : {}),
  });
  const result = await releaseStack(store, ref, version, archive);
  const name = `${stackRefText(ref)}@${version}`;
  if (result.action === 'refused') {
    io.stderr(
      `error: ${name} was released as ${result.released}; this content is ${result.digest} (${result.location}). A released version never changes: bump versions.clusterStack (and the changed component) in metadata.yaml\n`,
    );
    return EXIT.FAILED;
  }
  const verb = result.action === 'released' ? 'released' : 'already released, unchanged (nothing written)';
  io.stdout(`${name} ${verb}: ${result.location} ${result.digest}\n`);
  io.stdout(`pin it: cluster_stack: ${stackRefText(ref)}, cluster_stack_version: ${version}@${result.digest}\n`);
  return EXIT.OK;
}
