import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { REGION } from './environment';
import { REPO_ROOT } from './example-config';

export interface ClmChildOptions {
  readonly registryFile: string;
  readonly configDir: string;
  readonly stateDir: string;
  readonly cluster: string;
  readonly kubeconfig: string;
  /** CLM's artefact bucket (`--bucket`). */
  readonly bucket: string;
  /** The AWS endpoint the child talks to (moto, or a proxy in front of it). */
  readonly endpoint: string;
  /** A private CA the child trusts (NODE_EXTRA_CA_CERTS): the ACM certificate's issuer. */
  readonly caFile: string;
}

/**
 * `clm <verb>` as a user runs it: a child process, no --simulate, `--output json`. Its output is appended to
 * `$CLM_INTEGRATION_STATE/e2e-clm.log`; the JSON summary is parsed when there is one.
 */
export function runClm<Summary>(
  verb: 'provision' | 'decommission' | 'plan',
  options: ClmChildOptions,
): Promise<{ code: number; summary: Summary | undefined; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [
        join(REPO_ROOT, 'bin', 'clm.mjs'),
        verb,
        ...['--registry', options.registryFile, '--directory', options.configDir, '--cluster', options.cluster],
        ...['--kubeconfig', options.kubeconfig, '--bucket', options.bucket, '--region', REGION],
        ...['--state', options.stateDir, '--output', 'json'],
        // No deployed CLM manages moto's accounts: the leases may stay in the directory.
        ...(verb === 'plan' ? [] : ['--local-lease']),
      ],
      {
        env: {
          ...process.env,
          AWS_ENDPOINT_URL: options.endpoint,
          AWS_ACCESS_KEY_ID: 'testing',
          AWS_SECRET_ACCESS_KEY: 'testing',
          AWS_REGION: REGION,
          // moto and KWOK answer at once: poll without the Wait states' sleeps (the CLI sleeps them against AWS).
          CLM_LOCAL_WAIT_SCALE: '0',
          NODE_EXTRA_CA_CERTS: options.caFile,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', fail);
    child.on('exit', (code) => {
      const output = `--- clm ${verb} (exit ${code})\n${stdout}\n${stderr}`;
      if (process.env.CLM_INTEGRATION_STATE)
        appendFileSync(join(process.env.CLM_INTEGRATION_STATE, 'e2e-clm.log'), output);
      const start = stdout.indexOf('{\n');
      let summary: Summary | undefined;
      try {
        summary = start >= 0 ? (JSON.parse(stdout.slice(start)) as Summary) : undefined;
      } catch {
        summary = undefined;
      }
      done({ code: code ?? -1, summary, output });
    });
  });
}
