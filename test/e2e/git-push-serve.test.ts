// A real `git push` drives the controller: a bare repository on disk with examples/git-hooks/post-receive.mjs as
// its hook, `clm serve --simulate` as a child process on 127.0.0.1, the hook posting the signed push delivery. The
// clusters following the pushed branch reach the pushed commit (in waves); the cluster on another branch is
// untouched. Bounded by work: the controller reports through /healthz when it has nothing left to do.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROD, ROOT, STAGING, TEST, tempDir } from './support/clm-session';
import { interrupt, settled, startServe } from './support/serve-process';
import { configRepository, git, statusOf } from './support/serve-session';

/** examples/clusters.yaml with the production cluster following `stable` instead of `main`. */
function registryWithProdOnStable(root: string): string {
  const text = readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8');
  const at = text.lastIndexOf('channel: main');
  expect(text.slice(0, at)).toContain('kube-prod');
  const file = join(root, 'clusters.yaml');
  writeFileSync(file, `${text.slice(0, at)}channel: stable${text.slice(at + 'channel: main'.length)}`);
  return file;
}

describe('git push → signed webhook → clm serve --simulate', () => {
  const root = tempDir('git-push');
  let serve: ReturnType<typeof startServe> | undefined;
  afterAll(() => {
    serve?.child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('updates the clusters following the pushed branch, wave by wave, and leaves the others alone', async () => {
    const { bare, work } = configRepository(root);
    const registry = registryWithProdOnStable(root);
    const state = join(root, 'state');
    const secret = join(root, 'hook-secret');
    writeFileSync(secret, 'e2e-webhook-secret\n');
    serve = startServe([
      '--simulate',
      ...['--state', state, '--registry', registry, '--config-source', `main:git:file://${bare}`],
      ...['--port', '0', '--webhook-secret-file', secret, '--interval', '3600'],
    ]);
    const port = await serve.port;
    // The first pass creates all three clusters, one wave after the other.
    await settled(port, 3);
    const before = await statusOf(state, registry);
    const initial = git(work, 'rev-parse', 'HEAD');
    for (const id of [TEST, STAGING, PROD]) expect(before.get(id)!.currentVersion.startsWith(initial)).toBe(true);

    git(bare, 'config', 'clm.webhookUrl', `http://127.0.0.1:${port}/webhooks/github`);
    git(bare, 'config', 'clm.webhookSecretFile', secret);
    const configMap = join(work, 'cluster/manifests/20-web/configmap.yaml');
    writeFileSync(configMap, readFileSync(configMap, 'utf8').replace('Hello from', 'Hi from'));
    git(work, 'commit', '-qam', 'a friendlier greeting');
    const pushed = git(work, 'rev-parse', 'HEAD');
    // The hook's answer reaches the pusher as `remote:` lines on stderr.
    const push = spawnSync('git', ['push', 'origin', 'main'], { cwd: work, encoding: 'utf8' });
    expect(push.status).toBe(0);
    expect(push.stderr).toContain('clm: refs/heads/main: 202 push to refs/heads/main of acme/cluster-config');

    const health = await settled(port, 5);
    expect(health.updatesRun).toBe(5);
    const after = await statusOf(state, registry);
    expect(after.get(TEST)!.currentVersion.startsWith(pushed)).toBe(true);
    expect(after.get(STAGING)!.currentVersion.startsWith(pushed)).toBe(true);
    expect(after.get(PROD)!.currentVersion).toBe(before.get(PROD)!.currentVersion);
    expect(after.get(PROD)!.run!.targetVersion).toBe(before.get(PROD)!.run!.targetVersion);
    const log = serve.log();
    expect(log).toContain(`push to refs/heads/main of acme/cluster-config (${pushed.slice(0, 12)})`);
    expect(log.indexOf(`update-kube-test-${pushed.slice(0, 8)}`)).toBeLessThan(
      log.indexOf(`update-kube-staging-${pushed.slice(0, 8)}`),
    );
    expect(log).not.toContain(`update-kube-prod-${pushed.slice(0, 8)}`);

    expect(await interrupt(serve)).toBe(130);
    expect(serve.log()).toContain('clm serve: stopped');
  });
});
