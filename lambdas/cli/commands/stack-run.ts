// `clm stack lint` and `clm stack release`: the implementation, loaded by their actions (stack.ts declares them).
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { DirectorySource } from '../../adapters/config-source/directory-source';
import { readStack, stackFiles } from '../../core/cluster-stacks/resolve-stack';
import { lintStacks } from '../../core/cluster-stacks/stack-lint';
import { stackArchive } from '../../core/cluster-stacks/stack-archive';
import { releaseStack } from '../../tasks/cluster-stacks/stack-releases';
import { artefactBucketReleases, openReleaseStore } from '../release-store';
import { parseStackRef, stackDirectory, stackRefText } from '../../core/cluster-stacks/stack-ref';
import { EXIT, UsageError } from '../io';
import type { CliIo, ExitCode } from '../io';

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
