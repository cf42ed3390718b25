import { HttpRegistry } from '../../../lambdas/adapters/registry/http-registry';
import type { HttpRegistryOptions } from '../../../lambdas/adapters/registry/http-registry';
import { RegistryError, RegistryUnavailableError, isRetryable } from '../../../lambdas/shared/errors';
import { startRegistryServer } from '../../support/registry-server';
import type { RegistryServer } from '../../support/registry-server';
import { ACCOUNT, wireCluster } from './fixtures';

const TOKEN = 'tok-3f9c1e77-secret';

describe('HttpRegistry against a registry server on 127.0.0.1', () => {
  let server: RegistryServer;
  let sleeps: number[];
  let logLines: string[];

  beforeEach(async () => {
    server = await startRegistryServer({
      clusters: [
        wireCluster('kube-1'),
        wireCluster('kube-2', { infrastructure_account: 'aws:210987654321', status: undefined }),
      ],
      accounts: [
        { id: ACCOUNT, name: 'team-account', owner: 'team/foo', lifecycle_status: 'ready' },
        { id: 'aws:210987654321', name: 'old-account', owner: 'team/old', lifecycle_status: 'decommissioned' },
      ],
      token: TOKEN,
    });
    sleeps = [];
    logLines = [];
  });

  afterEach(async () => {
    await server.close();
  });

  function registry(overrides: Partial<HttpRegistryOptions> = {}): HttpRegistry {
    return new HttpRegistry({
      baseUrl: server.url,
      token: TOKEN,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      logger: {
        warn: (message, ...attributes) => logLines.push(`WARN ${message} ${JSON.stringify(attributes)}`),
        debug: (message, ...attributes) => logLines.push(`DEBUG ${message} ${JSON.stringify(attributes)}`),
      },
      ...overrides,
    });
  }

  it('lists clusters, filling owner and account name from ready accounts only', async () => {
    // Act
    const clusters = await registry().listClusters();

    // Assert
    expect(clusters.map((c) => c.id)).toEqual([`${ACCOUNT}:eu-central-1:kube-1`, `${ACCOUNT}:eu-central-1:kube-2`]);
    expect(clusters[0]).toMatchObject({
      owner: 'team/foo',
      accountName: 'team-account',
      localId: 'kube-1',
      configItems: { product_key: 'abc' },
    });
    expect(clusters[1].owner).toBeUndefined();
    expect(clusters[1].status).toEqual({ currentVersion: '', lastVersion: '', nextVersion: '', problems: [] });
    expect(server.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)}`)).toEqual([
      'GET /kubernetes-clusters {}',
      'GET /infrastructure-accounts {"lifecycle_status":"ready"}',
    ]);
  });

  it('sends the bearer token on every request', async () => {
    const r = registry();
    await r.listClusters();
    await r.updateConfigItems(`${ACCOUNT}:eu-central-1:kube-1`, { eks_endpoint: 'https://x' });
    expect(server.requests.map((req) => req.headers.authorization)).toEqual([
      `Bearer ${TOKEN}`,
      `Bearer ${TOKEN}`,
      `Bearer ${TOKEN}`,
    ]);
  });

  it('PATCHes lifecycle status and the full status block in the API shape', async () => {
    // Act
    await registry().updateStatus(`${ACCOUNT}:eu-central-1:kube-1`, {
      lifecycleStatus: 'ready',
      status: {
        currentVersion: 'abc#h1',
        lastVersion: 'old#h0',
        nextVersion: '',
        problems: [{ type: 'https://x/problems/general-error', title: 'boom', status: 500 }],
      },
    });

    // Assert
    const patch = server.requests.at(-1)!;
    expect(patch.method).toBe('PATCH');
    expect(patch.path).toBe(`/kubernetes-clusters/${ACCOUNT}:eu-central-1:kube-1`);
    expect(patch.headers['content-type']).toBe('application/json');
    expect(patch.body).toEqual({
      lifecycle_status: 'ready',
      status: {
        current_version: 'abc#h1',
        last_version: 'old#h0',
        next_version: '',
        problems: [{ type: 'https://x/problems/general-error', title: 'boom', status: 500 }],
      },
    });
    expect(server.clusters.get(`${ACCOUNT}:eu-central-1:kube-1`)!.status).toEqual(
      patch.body && (patch.body as { status: unknown }).status,
    );
  });

  it('omits lifecycle_status when it is not being changed', async () => {
    await registry().updateStatus(`${ACCOUNT}:eu-central-1:kube-1`, {
      status: { currentVersion: 'a#b', lastVersion: '', nextVersion: '', problems: [] },
    });
    expect(Object.keys(server.requests.at(-1)!.body as object)).toEqual(['status']);
  });

  it('PUTs each config item with a {value} body', async () => {
    await registry().updateConfigItems(`${ACCOUNT}:eu-central-1:kube-1`, {
      eks_endpoint: 'https://e',
      eks_oidc_issuer_url: 'https://o',
    });
    expect(server.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['PUT', `/kubernetes-clusters/${ACCOUNT}:eu-central-1:kube-1/config-items/eks_endpoint`, { value: 'https://e' }],
      [
        'PUT',
        `/kubernetes-clusters/${ACCOUNT}:eu-central-1:kube-1/config-items/eks_oidc_issuer_url`,
        { value: 'https://o' },
      ],
    ]);
  });

  it('retries 503s with growing backoff and then succeeds', async () => {
    // Arrange
    server.fail({ path: '/kubernetes-clusters' }, { kind: 'status', status: 503 }, 3);

    // Act
    const clusters = await registry().listClusters();

    // Assert: 3 failures + 1 success on the list, then the accounts call
    expect(clusters).toHaveLength(2);
    expect(server.requests.filter((r) => r.path === '/kubernetes-clusters')).toHaveLength(4);
    expect(sleeps).toEqual([188, 375, 750]);
    expect(logLines.filter((l) => l.startsWith('WARN Retrying GET /kubernetes-clusters'))).toHaveLength(3);
  });

  it('gives up after 4 attempts with a retryable RegistryUnavailableError', async () => {
    server.fail({ path: '/kubernetes-clusters' }, { kind: 'status', status: 500, message: 'db down' });
    const error = await registry()
      .listClusters()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryUnavailableError);
    expect(isRetryable(error)).toBe(true);
    expect((error as Error).message).toBe(
      'GET /kubernetes-clusters: registry unavailable after 4 attempts; last: 500 Internal Server Error',
    );
    expect(server.requests).toHaveLength(4);
  });

  it('honours Retry-After on 429', async () => {
    server.fail({ method: 'PATCH' }, { kind: 'retryAfter', seconds: 7 }, 1);
    await registry().updateStatus(`${ACCOUNT}:eu-central-1:kube-1`, {
      status: { currentVersion: '', lastVersion: '', nextVersion: 'x#y', problems: [] },
    });
    expect(sleeps).toEqual([7000]);
    expect(server.requests.filter((r) => r.method === 'PATCH')).toHaveLength(2);
  });

  it('does not wait for a Retry-After longer than the limit', async () => {
    server.fail({}, { kind: 'retryAfter', seconds: 600 }, 1);
    await expect(registry().listClusters()).rejects.toThrow(
      new RegistryUnavailableError(
        'GET /kubernetes-clusters: registry unavailable (429 Too Many Requests); it asks to retry after 600 s',
      ),
    );
    expect(sleeps).toEqual([]);
  });

  it('times out a hanging request and retries it', async () => {
    server.fail({ path: '/kubernetes-clusters' }, { kind: 'hang' }, 1);
    const clusters = await registry({ timeoutMs: 100 }).listClusters();
    expect(clusters).toHaveLength(2);
    expect(logLines[0]).toMatch(/^WARN Retrying GET \/kubernetes-clusters in \d+ ms after no response within 100 ms/);
  });

  it('reports an unreachable server as unavailable after its retries, naming its host and port', async () => {
    const { host } = new URL(server.url);
    await server.close();
    const error = await registry()
      .listClusters()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryUnavailableError);
    expect((error as Error).message).toBe(
      `GET /kubernetes-clusters: registry unavailable after 4 attempts; last: network error reaching ${host}: connection refused (ECONNREFUSED)`,
    );
    expect(sleeps).toHaveLength(3);
  });

  it('fails at once on 401 with method, path and the server message, without retrying', async () => {
    const error = await registry({ token: 'wrong' })
      .listClusters()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect(isRetryable(error)).toBe(false);
    expect((error as Error).message).toBe(
      'GET /kubernetes-clusters failed: 401 Unauthorized: Unauthorized: missing or invalid bearer token (code 401)',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('fails on 404 naming the cluster path', async () => {
    await expect(
      registry().updateStatus('aws:123456789012:eu-central-1:gone', {
        status: { currentVersion: '', lastVersion: '', nextVersion: '', problems: [] },
      }),
    ).rejects.toThrow(
      'PATCH /kubernetes-clusters/aws:123456789012:eu-central-1:gone failed: 404 Not Found: Cluster aws:123456789012:eu-central-1:gone not found (code 404)',
    );
  });

  it('rejects malformed JSON with a RegistryError', async () => {
    server.fail({ path: '/kubernetes-clusters' }, { kind: 'malformedJson' });
    await expect(registry().listClusters()).rejects.toThrow(
      /^GET \/kubernetes-clusters: the registry answered with malformed JSON/,
    );
  });

  it('rejects a schema-invalid cluster naming its id and field', async () => {
    server.fail(
      { path: '/kubernetes-clusters' },
      {
        kind: 'extraItem',
        item: wireCluster('kube-3', {
          node_pools: [
            {
              name: 'pool',
              profile: 'worker-default',
              instance_types: ['m5.large'],
              discount_strategy: 'none',
              min_size: 1,
              max_size: 'many',
            },
          ],
        }),
      },
    );
    const error = await registry()
      .listClusters()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect((error as Error).message).toBe(
      `GET /kubernetes-clusters returned 1 invalid field:\n  - cluster ${ACCOUNT}:eu-central-1:kube-3: node_pools[0].max_size: expected a number, got "many"`,
    );
  });

  it('ignores fields the registry adds that we do not know', async () => {
    server.fail(
      { path: '/kubernetes-clusters' },
      { kind: 'extraItem', item: wireCluster('kube-3', { cost_center: '0001' }) },
    );
    expect(await registry().listClusters()).toHaveLength(3);
  });

  it('never puts the token into logs or error messages', async () => {
    server.fail({}, { kind: 'status', status: 502 });
    const error = await registry()
      .listClusters()
      .catch((e: unknown) => e);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(TOKEN);
    expect(String((error as Error).message)).not.toContain(TOKEN);
    expect(JSON.stringify(error)).not.toContain(TOKEN);
  });
});
