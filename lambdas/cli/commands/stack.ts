/**
 * `clm stack lint` and `clm stack release`: the cluster stacks of a config repository (core/cluster-stacks).
 */
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { DirectorySource } from '../../adapters/config-source/directory-source';
import { readStack, stackFiles } from '../../core/cluster-stacks/resolve-stack';
import { lintStacks } from '../../core/cluster-stacks/stack-lint';
import { releaseDecision, stackArchive } from '../../core/cluster-stacks/stack-archive';
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
  # Package aws/default/1-30 as it is now, immutable and content-addressed
  $ clm stack release --directory examples/cluster-stacks/v2 --stack aws/default/1-30 --out /tmp/releases
  # /tmp/releases/aws/default/1-30/v2.tar.gz and v2.sha256 (sha256:<hex> of the tarball)

A released version never changes: releasing it again with the same content says so and exits 0; with other
content it is refused (exit 1): bump the stack version. Upload the directory to the artefact bucket with
\`aws s3 sync --size-only\` (objects are never overwritten with other content).`;

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
    .requiredOption('--out <dir>', 'the release directory (synced to the artefact bucket)')
    .option('--directory <dir>', 'the config repository (the folder holding providers/)', '.')
    .addHelpText('after', RELEASE_EXAMPLES)
    .action(async (options: { stack: string; out: string; directory: string }) => {
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

export async function runStackRelease(
  options: { stack: string; out: string; directory: string },
  io: CliIo,
): Promise<ExitCode> {
  const ref = parseStackRef(options.stack, { field: '--stack' });
  const files = await repositoryFiles(options.directory, io);
  const snapshot = { sourceName: options.directory, version: '', files };
  const stack = readStack(snapshot, ref);
  if (!stack) throw new UsageError(`${options.directory} has no ${stackDirectory(ref)}`);
  const archive = stackArchive(stackFiles(snapshot, ref)!);
  const version = stack.metadata.clusterStack;
  const base = join(resolve(io.cwd, options.out), ...stackRefText(ref).split('/'));
  const digestFile = join(base, `${version}.sha256`);
  const existing = existsSync(digestFile) ? await readFile(digestFile, 'utf8') : undefined;
  const decision = releaseDecision(existing, archive.digest);
  const name = `${stackRefText(ref)}@${version}`;
  if (decision.action === 'refuse') {
    io.stderr(
      `error: ${name} was released as ${existing!.trim()}; this content is ${archive.digest}. A released version never changes: bump versions.clusterStack (and the changed component) in metadata.yaml\n`,
    );
    return EXIT.FAILED;
  }
  if (decision.action === 'write') {
    await mkdir(dirname(digestFile), { recursive: true });
    await writeFile(join(base, `${version}.tar.gz`), archive.bytes, { flag: 'wx' });
    await writeFile(digestFile, `${archive.digest}\n`, { flag: 'wx' });
  }
  const verb = decision.action === 'write' ? 'released' : 'already released, unchanged';
  io.stdout(`${name} ${verb}: ${join(options.out, stackRefText(ref), `${version}.tar.gz`)} ${archive.digest}\n`);
  return EXIT.OK;
}
