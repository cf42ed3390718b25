// RestKubeCluster (the Lambda tasks' transport) and ClientNodeKubeCluster: PDBs, scale, readiness, error
// classification and the ways to connect.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientNodeKubeCluster } from '../../../lambdas/adapters/kube/client-node-kube-cluster';
import { kubeServerTransport } from '../../../lambdas/adapters/kube/kube-server-transport';
import type { RestKubeCluster } from '../../../lambdas/adapters/kube/rest-kube-cluster';
import { ConfigError, KubeApiError, TransientApiError } from '../../../lambdas/shared/errors';
import type { FakeKubeApi } from '../../support/fake-kube-api';
import { statusBody } from '../../support/fake-kube-api';
import { startFakeKubeCluster } from './kube-fixtures';

let api: FakeKubeApi;
let kube: RestKubeCluster;

beforeEach(async () => ({ api, kube } = await startFakeKubeCluster()));
afterEach(() => api.close());

describe('ClientNodeKubeCluster PDBs, scale, readiness', () => {
  it('maps policy/v1 PDBs with their status', async () => {
    // Arrange
    api.seed({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'coredns', namespace: 'kube-system' },
      spec: {
        minAvailable: 1,
        selector: {
          matchLabels: { app: 'coredns' },
          matchExpressions: [{ key: 'tier', operator: 'In', values: ['dns'] }],
        },
      },
      status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 },
    });

    // Act
    const pdbs = await kube.listPdbs('kube-system');
    await kube.listPdbs();

    // Assert
    expect(pdbs).toEqual([
      {
        namespace: 'kube-system',
        name: 'coredns',
        selector: {
          matchLabels: { app: 'coredns' },
          matchExpressions: [{ key: 'tier', operator: 'In', values: ['dns'] }],
        },
        minAvailable: 1,
        disruptionsAllowed: 0,
        currentHealthy: 1,
        desiredHealthy: 1,
        expectedPods: 1,
      },
    ]);
    expect(api.calls().map((r) => r.path)).toEqual([
      '/apis/policy/v1/namespaces/kube-system/poddisruptionbudgets',
      '/apis/policy/v1/poddisruptionbudgets',
    ]);
  });

  it('scales a Deployment through its scale subresource with a merge patch', async () => {
    // Arrange
    api.seed({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'ingress', namespace: 'kube-system' },
      spec: { replicas: 3 },
    });

    // Act
    await kube.scaleDeployment('kube-system', 'ingress', 0);

    // Assert
    expect(api.calls()[0]).toMatchObject({
      method: 'PATCH',
      path: '/apis/apps/v1/namespaces/kube-system/deployments/ingress/scale',
      contentType: 'application/merge-patch+json',
      body: { spec: { replicas: 0 } },
    });
    expect(api.get('apps/v1', 'Deployment', 'ingress', 'kube-system')?.spec.replicas).toBe(0);
  });

  it('is ready only when /readyz answers 200, sending the token, and not ready when unreachable', async () => {
    // Act
    const up = await kube.ready();
    api.ready = false;
    const failing = await kube.ready();
    await api.close();
    const unreachable = await kube.ready();

    // Assert
    expect([up, failing, unreachable]).toEqual([true, false, false]);
    expect(api.requests[0]).toMatchObject({ path: '/readyz', authorization: 'Bearer test-token' });
  });
});

describe('ClientNodeKubeCluster errors and connections', () => {
  it.each([
    [401, /rejected the token: check that it is valid for this cluster and not expired/],
    [403, /lacks the permission: check its RBAC bindings/],
  ])('turns %s into KubeApiError with a hint about the token', async (status, hint) => {
    api.inject({
      path: '/api/v1/nodes',
      status,
      body: statusBody(status, status === 401 ? 'Unauthorized' : 'Forbidden', 'no'),
    });
    const error = await kube.listNodes().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as Error).message).toMatch(hint);
  });

  it('treats 429 and 5xx outside eviction as transient', async () => {
    api.inject({ path: '/api/v1/nodes', status: 429 });
    api.inject({ path: '/api/v1/pods', status: 502, body: 'bad gateway' });
    await expect(kube.listNodes()).rejects.toThrow(TransientApiError);
    await expect(kube.listPods()).rejects.toThrow(TransientApiError);
  });

  it('treats an unreachable server as transient, naming its host and port', async () => {
    const { host } = new URL(api.url);
    await api.close();
    const error = await kube.listNodes().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientApiError);
    expect((error as Error).message).toMatch(new RegExp(`^list nodes: cannot reach the API server ${host} \\(`));
  });

  it('connects through a kubeconfig file and context', async () => {
    // Arrange
    const dir = mkdtempSync(join(tmpdir(), 'clm-kubeconfig-'));
    const path = join(dir, 'config');
    writeFileSync(
      path,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        `- name: fake\n  cluster:\n    server: ${api.url}\n    insecure-skip-tls-verify: true`,
        'users:',
        '- name: u\n  user:\n    token: file-token',
        'contexts:',
        '- name: other\n  context:\n    cluster: fake\n    user: u',
        'current-context: other',
      ].join('\n'),
    );

    // Act
    const viaFile = new ClientNodeKubeCluster({ kubeconfigPath: path, context: 'other' });
    await viaFile.listNodes();

    // Assert
    expect(api.requests[0].authorization).toBe('Bearer file-token');
    expect(() => new ClientNodeKubeCluster({ kubeconfigPath: path, context: 'missing' })).toThrow(ConfigError);
  });

  it('refuses plain http without skipTLSVerify', () => {
    expect(() => new ClientNodeKubeCluster({ server: api.url, token: 't' })).toThrow(/plain http/);
    expect(() => kubeServerTransport({ server: api.url, token: 't' })).toThrow(/plain http/);
    expect(() => kubeServerTransport({ server: 'kube-1.example.org', token: 't' })).toThrow(/must start with https/);
  });

  it('reaches the same API through client-node (a server and token as a kubeconfig of its own)', async () => {
    const viaClientNode = new ClientNodeKubeCluster({ server: api.url, token: 'cn-token', skipTLSVerify: true });
    await viaClientNode.listNodes();
    expect(api.requests[0].authorization).toBe('Bearer cn-token');
  });
});
