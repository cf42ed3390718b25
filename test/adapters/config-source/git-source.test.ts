import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitSource } from '../../../lambdas/adapters/config-source/git-source';
import { maskCredentials, mirrorName } from '../../../lambdas/adapters/config-source/git-urls';
import type { GitSourceOptions } from '../../../lambdas/adapters/config-source/git-source';
import { ConfigError, TransientApiError, isRetryable } from '../../../lambdas/shared/errors';
import { createBareRepo, startGitServer } from '../../support/git-server';
import type { GitServer, TestRepo } from '../../support/git-server';

const TOKEN = 'ghp_test_token_8c1d2e';

/** Each test mirrors into a fresh work directory. */
let workdir: string;
beforeEach(() => {
  workdir = mkdtempSync(join(tmpdir(), 'clm-workdir-'));
});
afterEach(() => rmSync(workdir, { recursive: true, force: true }));

describe('GitSource against git http-backend on 127.0.0.1', () => {
  let root: string;
  let repo: TestRepo;
  let server: GitServer;
  let first: string;
  let second: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'clm-git-server-'));
    repo = createBareRepo(root, 'kubernetes-config');
    first = repo.commit(
      {
        'cluster/cluster.yaml': 'v: 1\n',
        'cluster/manifests/01-a/cm.yaml': 'kind: ConfigMap\n',
        '.github/ci.yaml': 'x',
      },
      'first',
    );
    repo.tag('v1.0.0');
    repo.tag('release-1', { annotated: true });
    second = repo.commit(
      {
        'cluster/cluster.yaml': 'v: 2\n',
        'cluster/manifests/01-a/cm.yaml': null,
        'cluster/manifests/02-b/sa.yaml': 'kind: ServiceAccount\n',
      },
      'second',
    );
    repo.commit({ 'cluster/cluster.yaml': 'v: beta\n' }, 'on beta', 'beta');
    server = await startGitServer({ projectRoot: root });
  });

  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  function source(overrides: Partial<GitSourceOptions> = {}): GitSource {
    return new GitSource({
      name: 'main',
      url: `${server.url}/kubernetes-config.git`,
      workdir,
      fetchTtlMs: 0,
      ...overrides,
    });
  }

  it('resolves a branch to its commit SHA', async () => {
    expect(await source().resolveVersion('main')).toBe(second);
    expect(await source().resolveVersion('beta')).toBe(repo.revParse('beta'));
  });

  it('resolves lightweight and annotated tags to the tagged commit', async () => {
    const s = source();
    expect(await s.resolveVersion('v1.0.0')).toBe(first);
    expect(await s.resolveVersion('release-1')).toBe(first);
  });

  it('resolves full and abbreviated SHAs and full ref names', async () => {
    const s = source();
    expect(await s.resolveVersion(first)).toBe(first);
    expect(await s.resolveVersion(first.slice(0, 10))).toBe(first);
    expect(await s.resolveVersion('refs/heads/main')).toBe(second);
    expect(await s.resolveVersion('refs/tags/v1.0.0')).toBe(first);
  });

  it('fails for an unknown ref naming the source and the ref', async () => {
    const error = await source()
      .resolveVersion('no-such-branch')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `config source main (${server.url}/kubernetes-config.git): unknown ref "no-such-branch": no branch, tag or commit of that name`,
    );
  });

  it('fails for a SHA that is on no branch or tag', async () => {
    await expect(source().resolveVersion('0'.repeat(40))).rejects.toThrow(ConfigError);
  });

  it('sees a new commit on the next resolve', async () => {
    // Arrange
    const s = source();
    const third = repo.commit({ 'cluster/new.yaml': 'n: 1\n' }, 'third', 'feature');
    expect(await s.resolveVersion('feature')).toBe(third);

    // Act
    const fourth = repo.commit({ 'cluster/new.yaml': 'n: 2\n' }, 'fourth', 'feature');
    const after = await s.resolveVersion('feature');

    // Assert
    expect(after).toBe(fourth);
    expect(after).not.toBe(third);
    expect((await s.checkout(after)).files.get('cluster/new.yaml')).toBe('n: 2\n');
  });

  it('reuses a recent fetch within the TTL', async () => {
    let clock = 1_000;
    const s = source({ fetchTtlMs: 5_000, now: () => clock });
    await s.resolveVersion('main');
    const fetchesBefore = server.requests.length;

    await s.resolveVersion('v1.0.0');
    await s.resolveVersion('beta');
    expect(server.requests.length).toBe(fetchesBefore);

    clock += 5_000;
    await s.resolveVersion('main');
    expect(server.requests.length).toBeGreaterThan(fetchesBefore);
  });

  it('checks out the tree at old and new commits, without dot entries', async () => {
    const s = source();
    await s.resolveVersion('main');

    const old = await s.checkout(first);
    const current = await s.checkout(second);

    expect(old.version).toBe(first);
    expect(Object.fromEntries(old.files)).toEqual({
      'cluster/cluster.yaml': 'v: 1\n',
      'cluster/manifests/01-a/cm.yaml': 'kind: ConfigMap\n',
    });
    expect(Object.fromEntries(current.files)).toEqual({
      'cluster/cluster.yaml': 'v: 2\n',
      'cluster/manifests/02-b/sa.yaml': 'kind: ServiceAccount\n',
    });
    expect(current.sourceName).toBe('main');
  });

  it('fetches before a checkout of a commit it has not seen yet', async () => {
    const s = source();
    expect((await s.checkout(first)).files.get('cluster/cluster.yaml')).toBe('v: 1\n');
  });

  it('reports an unreachable server as a retryable TransientApiError', async () => {
    const down = await startGitServer({ projectRoot: root });
    const url = `${down.url}/kubernetes-config.git`;
    await down.close();
    const error = await source({ url })
      .resolveVersion('main')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientApiError);
    expect(isRetryable(error)).toBe(true);
    expect((error as Error).message).toBe(`config source main (${url}): cannot reach the git server: ECONNREFUSED`);
  });

  it('reports a failing or hanging git server as retryable', async () => {
    // Arrange: one server answers 500, the other never answers
    const failing = createServer((_req, res) => res.writeHead(500).end('boom'));
    const hanging = createServer(() => undefined);
    await Promise.all([failing, hanging].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
    const urlOf = (s: typeof failing): string => `http://127.0.0.1:${(s.address() as AddressInfo).port}/repo.git`;
    try {
      // Act
      const failed = await source({ url: urlOf(failing) })
        .resolveVersion('main')
        .catch((e: unknown) => e);
      const timedOut = await source({ url: urlOf(hanging), timeoutMs: 200 })
        .resolveVersion('main')
        .catch((e: unknown) => e);

      // Assert
      expect(failed).toBeInstanceOf(TransientApiError);
      expect((failed as Error).message).toBe(
        `config source main (${urlOf(failing)}): the git server failed (HTTP 500)`,
      );
      expect(timedOut).toBeInstanceOf(TransientApiError);
      expect((timedOut as Error).message).toBe(
        `config source main (${urlOf(hanging)}): cannot reach the git server: no response in time`,
      );
    } finally {
      for (const s of [failing, hanging]) {
        s.closeAllConnections();
        s.close();
      }
    }
  });

  it('reports a missing repository', async () => {
    await expect(source({ url: `${server.url}/nope.git` }).resolveVersion('main')).rejects.toThrow(
      /repository not found \(HTTP 404\)$/,
    );
  });

  it('mirrors into <workdir>/<repo>-<hash>', () => {
    expect(source().gitdir).toBe(join(workdir, mirrorName(`${server.url}/kubernetes-config.git`)));
    expect(mirrorName('https://github.com/org/kubernetes-on-aws.git')).toMatch(/^kubernetes-on-aws-[0-9a-f]{8}$/);
  });

  it('masks credentials in the URL it shows', () => {
    expect(maskCredentials('https://user:secret@github.com/org/repo.git')).toBe('https://***@github.com/org/repo.git');
    expect(source({ url: 'https://user:secret@github.com/org/repo.git' }).location).toBe(
      'https://***@github.com/org/repo.git',
    );
  });
});

describe('GitSource with a server that requires a token', () => {
  let root: string;
  let server: GitServer;
  let sha: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'clm-git-auth-'));
    sha = createBareRepo(root, 'private').commit({ 'cluster/cluster.yaml': 'secret: no\n' }, 'first');
    server = await startGitServer({ projectRoot: root, token: TOKEN });
  });

  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  const url = (): string => `${server.url}/private.git`;

  it('authenticates with HTTP Basic (x-access-token) by default', async () => {
    expect(await new GitSource({ name: 'main', url: url(), workdir, token: TOKEN }).resolveVersion('main')).toBe(sha);
    expect(server.requests.at(-1)!.authorization).toBe(
      `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`,
    );
  });

  it('authenticates with a bearer token when asked to', async () => {
    expect(
      await new GitSource({ name: 'main', url: url(), workdir, token: TOKEN, tokenType: 'bearer' }).resolveVersion(
        'main',
      ),
    ).toBe(sha);
  });

  it('fails clearly without a token or with a wrong one, never showing the token', async () => {
    const missing = await new GitSource({ name: 'main', url: url(), workdir })
      .resolveVersion('main')
      .catch((e: unknown) => e);
    const wrong = await new GitSource({ name: 'main', url: url(), workdir, token: 'wrong-token' })
      .resolveVersion('main')
      .catch((e: unknown) => e);

    for (const error of [missing, wrong]) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe(
        `config source main (${url()}): authentication failed (HTTP 401); check the token has read access to the repository`,
      );
    }
    expect((wrong as Error).message).not.toContain('wrong-token');
  });
});
