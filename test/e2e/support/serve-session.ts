// What the serve e2e tests run `clm serve --simulate` over, as the README's local demos do: a bare config repository
// with CLM's post-receive hook, and the clusters' status (the process itself: serve-process.ts).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, clm } from './clm-session';

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

export async function statusOf(state: string, registry: string): Promise<Map<string, ClusterStatus>> {
  const status = await clm(['status', '--state', state, '--registry', registry, '--output', 'json']);
  expect(status.code).toBe(0);
  const { clusters } = JSON.parse(status.out) as { clusters: ClusterStatus[] };
  return new Map(clusters.map((c) => [c.id, c]));
}
