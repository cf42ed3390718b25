/**
 * `cdk bootstrap` and `cdk deploy --all` of the CDK app, unchanged, as a user runs them, against the emulator: the CDK
 * CLI in a child process with AWS_ENDPOINT_URL set (the SDK sends every call there) and the settings as context.
 * Output goes to STATE/cdk-*.log; a failure names the step and quotes the log's tail.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLM_ACCOUNT, REGION } from './deployed-environment';

export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

export interface DeployOptions {
  readonly endpoint: string;
  readonly stateDir: string;
  /** The account to deploy into (the access key id). @default CLM_ACCOUNT */
  readonly account?: string;
  /** `-c key=value` settings (infra/app-config.ts, fleet-config.ts, cluster-access-config.ts). */
  readonly context: Readonly<Record<string, string>>;
  /** Stacks to deploy. @default all of the app (`--all`) */
  readonly stacks?: readonly string[];
  /** Name of the log and outputs files. @default 'deploy' */
  readonly name?: string;
}

/** Stack name → output key → value, as `cdk deploy --outputs-file` writes them. */
export type StackOutputs = Readonly<Record<string, Readonly<Record<string, string>>>>;

export function cdk(args: readonly string[], options: DeployOptions, log: string): Promise<void> {
  const account = options.account ?? CLM_ACCOUNT;
  return new Promise((done, fail) => {
    const out = createWriteStream(log, { flags: 'a' });
    const child = spawn(process.execPath, [join(REPO_ROOT, 'node_modules', 'aws-cdk', 'bin', 'cdk'), ...args], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        AWS_ENDPOINT_URL: options.endpoint,
        AWS_ACCESS_KEY_ID: account,
        AWS_SECRET_ACCESS_KEY: 'test',
        AWS_REGION: REGION,
        AWS_DEFAULT_REGION: REGION,
        CDK_DISABLE_CLI_TELEMETRY: 'true',
        CI: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('error', fail);
    child.on('close', (code) => {
      out.end(() => {
        if (code === 0) return done();
        const tail = readFileSync(log, 'utf8').split('\n').slice(-25).join('\n');
        fail(new Error(`cdk ${args[0]} exited ${code} (log ${log}); its last lines:\n${tail}`));
      });
    });
  });
}

/** Bootstrap the account's environment, then deploy the app; returns the stacks' outputs. */
export async function deployApp(options: DeployOptions): Promise<StackOutputs> {
  const account = options.account ?? CLM_ACCOUNT;
  const name = options.name ?? 'deploy';
  const log = join(options.stateDir, `cdk-${name}.log`);
  await cdk(
    ['bootstrap', `aws://${account}/${REGION}`, '--output', join(options.stateDir, `cdk.out-${name}`)],
    options,
    log,
  );
  const outputsFile = join(options.stateDir, `outputs-${name}.json`);
  const context = Object.entries(options.context).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
  await cdk(
    [
      'deploy',
      ...(options.stacks ?? ['--all']),
      '--require-approval',
      'never',
      '--output',
      join(options.stateDir, `cdk.out-${name}`),
      '--outputs-file',
      outputsFile,
      ...context,
    ],
    options,
    log,
  );
  return JSON.parse(readFileSync(outputsFile, 'utf8')) as StackOutputs;
}

/** The output of a stack whose key starts with `prefix` (CDK appends a hash to outputs of nested constructs). */
export function output(outputs: StackOutputs, stack: string, prefix: string): string {
  const found = Object.entries(outputs[stack] ?? {}).find(([key]) => key.startsWith(prefix));
  if (!found) throw new Error(`stack ${stack} has no output ${prefix}*: ${JSON.stringify(outputs[stack] ?? {})}`);
  return found[1];
}
