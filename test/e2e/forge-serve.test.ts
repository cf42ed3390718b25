// The README's local forge demo, run as it is written: the fake GitHub API (test/support/forge/fake-forge-cli.ts
// serve) and `clm serve --simulate` as child processes on 127.0.0.1, a bare config repository with CLM's
// post-receive hook. A signed push sets commit statuses pending then success per cluster; a pull request gets one
// comment with its plans, updated in place on `synchronize`; a forged delivery is refused and changes nothing. Read
// back over the fake forge's API, as the demo's curl does. Bounded by work: the controller's /healthz.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from './support/clm-session';
import { settled, startServe, type Health } from './support/serve-process';
import { configRepository, git } from './support/serve-session';

const REPO = 'acme/cluster-config';
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const FORGE_CLI = 'test/support/forge/fake-forge-cli.ts';
const ALIASES = ['kube-prod', 'kube-staging', 'kube-test'];

function startFakeForge(args: readonly string[]): { child: ChildProcess; url: Promise<string>; log: () => string } {
  const child = spawn(TSX, [FORGE_CLI, 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /fake GitHub API on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('close', (code) => reject(new Error(`fake forge ended (${code}) before listening:\n${out}`)));
  });
  return { child, url, log: () => out };
}

/** `fake-forge-cli.ts <command> …` (a delivery): what it printed, e.g. `push → 202 …`. */
function forgeCli(args: readonly string[]): string {
  const run = spawnSync(TSX, [FORGE_CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`fake-forge-cli ${args[0]} failed: ${run.stderr}`);
  return run.stdout;
}

describe('clm serve --simulate against the fake forge (the README demo)', () => {
  const root = tempDir('forge-serve');
  const token = join(root, 'forge-token');
  const secret = join(root, 'hook-secret');
  let forge: ReturnType<typeof startFakeForge> | undefined;
  let serve: ReturnType<typeof startServe> | undefined;
  afterAll(() => {
    serve?.child.kill('SIGKILL');
    forge?.child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('reports statuses of a push and one plan comment per pull request; refuses a forged delivery', async () => {
    // Arrange: the repository, the fake forge over it, and clm serve reporting to it
    const { bare, work } = configRepository(root);
    writeFileSync(token, 'ghp_e2e_demo\n');
    writeFileSync(secret, 'e2e-webhook-secret\n');
    forge = startFakeForge(['--token-file', token, '--repo', `${REPO}=${bare}`]);
    const api = await forge.url;
    serve = startServe([
      '--simulate',
      ...[
        '--state',
        join(root, 'state'),
        '--registry',
        'examples/clusters.yaml',
        '--config-source',
        `main:git:file://${bare}`,
      ],
      ...['--port', '0', '--webhook-secret-file', secret, '--interval', '3600'],
      ...['--github-token-file', token, '--github-api-url', api],
    ]);
    const port = await serve.port;
    await settled(port, 3);
    git(bare, 'config', 'clm.webhookUrl', `http://127.0.0.1:${port}/webhooks/github`);
    git(bare, 'config', 'clm.webhookSecretFile', secret);
    const hub = async (path: string) =>
      (await (
        await fetch(`${api}/repos/${REPO}${path}`, { headers: { authorization: 'Bearer ghp_e2e_demo' } })
      ).json()) as any[];
    const health = async () => (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as Health;
    const change = (from: string, to: string, message: string) => {
      const file = join(work, 'cluster/manifests/20-web/configmap.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
      git(work, 'commit', '-qam', message);
    };

    // Act 1: a push to main, through the hook
    change('Hello from', 'Hi from', 'a friendlier greeting');
    git(work, 'push', '-q', 'origin', 'main');
    const pushed = git(work, 'rev-parse', 'HEAD');
    await settled(port, 6);

    // Assert 1: per cluster pending, then success, on the pushed commit
    const statuses = (await hub(`/commits/${pushed}/statuses`)).reverse();
    const byContext = (context: string) => statuses.filter((s) => s.context === context).map((s) => s.state);
    expect(Object.fromEntries(ALIASES.map((a) => [a, byContext(`clm/${a}`)]))).toEqual(
      Object.fromEntries(ALIASES.map((a) => [a, ['pending', 'success']])),
    );
    expect(statuses.every((s) => /clm status --cluster/.test(s.description))).toBe(true);

    // Act 2: a pull request of a branch, opened, then a new commit on it (synchronize)
    git(work, 'checkout', '-q', '-b', 'bigger');
    change('Hi from', 'Hello again from', 'greeting');
    git(work, 'push', '-q', 'origin', 'bigger');
    const opened = forgeCli([
      ...['pull-request', '--repo', `${REPO}=${bare}`, '--head', 'bigger', '--base', 'main'],
      ...[
        '--forge',
        api,
        '--token-file',
        token,
        '--secret-file',
        secret,
        '--to',
        `http://127.0.0.1:${port}/webhooks/github`,
      ],
    ]);
    await settled(port, 9);
    const afterOpen = await hub('/issues/1/comments');
    change('Hello again from', 'Greetings from', 'another greeting');
    git(work, 'push', '-q', 'origin', 'bigger');
    const head = git(work, 'rev-parse', 'HEAD');
    const synchronized = forgeCli([
      ...['pull-request', '--action', 'synchronize', '--number', '1', '--repo', `${REPO}=${bare}`],
      ...[
        '--head',
        'bigger',
        '--base',
        'main',
        '--secret-file',
        secret,
        '--to',
        `http://127.0.0.1:${port}/webhooks/github`,
      ],
    ]);
    await settled(port, 12);

    // Assert 2: one comment, created with the plans of the three clusters, then updated for the new head
    expect([opened, synchronized]).toEqual([
      expect.stringMatching(/^pull_request → 202/),
      expect.stringMatching(/^pull_request → 202/),
    ]);
    expect(afterOpen).toHaveLength(1);
    const comments = await hub('/issues/1/comments');
    expect(comments.map((c) => c.id)).toEqual([afterOpen[0].id]);
    const body = comments[0].body as string;
    expect(body).toContain(`### CLM plan for ${head.slice(0, 12)} → \`main\``);
    for (const alias of ALIASES) expect(body).toContain(`#### \`${alias}\``);
    // the ConfigMap, and the Deployment whose pods' checksum of it changes
    expect(body.match(/📝 changes: 0 stacks, 0 created, 2 changed, 0 pruned, 0 pools to roll/g)).toHaveLength(3);
    expect(body.match(/- changed: `ConfigMap\/web\/web-config`, `Deployment\/web\/web`/g)).toHaveLength(3);
    expect(body).not.toContain('⏳ planning');
    expect(forge.log().match(/POST \/repos\/acme\/cluster-config\/issues\/1\/comments → 201/g)).toHaveLength(1);

    // Act 3: a push delivery signed with another secret
    const before = { health: await health(), statuses: await hub(`/commits/${head}/statuses`), body };
    writeFileSync(join(root, 'wrong-secret'), 'not-the-secret\n');
    const forged = forgeCli([
      ...['push', '--repo', `${REPO}=${bare}`, '--ref', 'bigger', '--secret-file', join(root, 'wrong-secret')],
      ...['--to', `http://127.0.0.1:${port}/webhooks/github`],
    ]);

    // Assert 3: refused, and nothing changed
    expect(forged).toMatch(/^push → 401/);
    const after = await health();
    expect({ passes: after.passes, updatesRun: after.updatesRun, busy: after.busy }).toEqual({
      passes: before.health.passes,
      updatesRun: 12,
      busy: false,
    });
    expect(await hub(`/commits/${head}/statuses`)).toEqual(before.statuses);
    expect((await hub('/issues/1/comments')).map((c) => c.body)).toEqual([before.body]);
  });
});
