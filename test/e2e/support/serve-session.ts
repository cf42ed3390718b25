// `clm serve --simulate` as a child process on 127.0.0.1 over a bare config repository with CLM's post-receive hook,
// as the README's local demos run it: its start, its health (bounded by work, not time) and the clusters' status.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, clm } from './clm-session';

export interface Health {
  readonly passes: number;
  readonly passesQueued: number;
  readonly updatesQueued: number;
  readonly updatesRun: number;
  readonly busy: boolean;
}

export interface ClusterStatus {
  readonly id: string;
  readonly currentVersion: string;
  readonly run?: { readonly targetVersion: string };
}

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=clm-e2e', '-c', 'user.email=e2e@example.org', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

/** A bare `acme/cluster-config.git` holding examples/config on `main` and on `stable`, with the CLM hook. */
export function configRepository(root: string): { bare: string; work: string } {
  const bare = join(root, 'acme', 'cluster-config.git');
  mkdirSync(join(root, 'acme'), { recursive: true });
  git(root, 'init', '-q', '--bare', '-b', 'main', bare);
  const work = join(root, 'work');
  git(root, 'clone', '-q', bare, work);
  cpSync(join(ROOT, 'examples/config'), work, { recursive: true });
  git(work, 'add', '-A');
  git(work, 'commit', '-qm', 'the example config');
  git(work, 'push', '-q', 'origin', 'main', 'main:stable');
  symlinkSync(join(ROOT, 'examples/git-hooks/post-receive.mjs'), join(bare, 'hooks', 'post-receive'));
  return { bare, work };
}

export function startServe(args: readonly string[]): { child: ChildProcess; port: Promise<number>; log: () => string } {
  const child = spawn(process.execPath, [join(ROOT, 'bin/clm.mjs'), 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const port = new Promise<number>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('close', (code) => reject(new Error(`clm serve ended (${code}) before listening:\n${out}`)));
  });
  return { child, port, log: () => out };
}

/** Until the controller has run `updates` updates in all and has nothing queued or running. */
export async function settled(port: number, updates: number): Promise<Health> {
  for (;;) {
    const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as Health;
    if (!health.busy && health.passesQueued === 0 && health.updatesQueued === 0 && health.updatesRun >= updates)
      return health;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function statusOf(state: string, registry: string): Promise<Map<string, ClusterStatus>> {
  const status = await clm(['status', '--state', state, '--registry', registry, '--output', 'json']);
  expect(status.code).toBe(0);
  const { clusters } = JSON.parse(status.out) as { clusters: ClusterStatus[] };
  return new Map(clusters.map((c) => [c.id, c]));
}
