import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientNodeKubeCluster } from '../../../lambdas/adapters/kube/client-node-kube-cluster';
import { ConfigError, KubeApiError, NotFoundError, TransientApiError } from '../../../lambdas/shared/errors';
import { FakeKubeApi, statusBody } from '../../support/fake-kube-api';

let api: FakeKubeApi;
let kube: ClientNodeKubeCluster;

beforeEach(async () => {
  api = await FakeKubeApi.start();
  kube = new ClientNodeKubeCluster({ server: api.url, token: 'test-token', skipTLSVerify: true });
});

afterEach(() => api.close());

function seedNode(
  name: string,
  extra: { labels?: Record<string, string>; spec?: Record<string, unknown>; status?: Record<string, unknown> } = {},
) {
  api.seed({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'topology.kubernetes.io/zone': 'eu-central-1a', ...extra.labels },
      annotations: { a: 'b' },
    },
    spec: { providerID: `aws:///eu-central-1a/i-${name}`, ...extra.spec },
    status: { conditions: [{ type: 'Ready', status: 'True' }], ...extra.status },
  });
}

function seedPod(namespace: string, name: string, nodeName: string, extra: Record<string, unknown> = {}) {
  api.seed({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      labels: { app: name },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${name}-rs`, uid: 'u' }],
      ...extra,
    },
    spec: { nodeName, containers: [{ name: 'c', image: 'i' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  });
}

describe('ClientNodeKubeCluster nodes', () => {
  it('lists nodes with provider id, zone, taints, readiness, volumes and creation time', async () => {
    // Arrange
    seedNode('n1', {
      spec: {
        unschedulable: true,
        taints: [{ key: 'decommission-pending', value: 'rolling-upgrade', effect: 'PreferNoSchedule' }],
      },
      status: { volumesAttached: [{ name: 'vol', devicePath: '/dev/xvdb' }] },
    });
    seedNode('n2', { status: { conditions: [{ type: 'Ready', status: 'False' }] } });

    // Act
    const nodes = await kube.listNodes();

    // Assert
    expect(nodes[0]).toEqual({
      name: 'n1',
      providerId: 'aws:///eu-central-1a/i-n1',
      labels: { 'topology.kubernetes.io/zone': 'eu-central-1a' },
      annotations: { a: 'b' },
      taints: [{ key: 'decommission-pending', value: 'rolling-upgrade', effect: 'PreferNoSchedule' }],
      unschedulable: true,
      ready: true,
      volumesAttached: true,
      zone: 'eu-central-1a',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(nodes[1]).toMatchObject({
      name: 'n2',
      ready: false,
      unschedulable: false,
      volumesAttached: false,
      taints: [],
    });
    expect(api.calls()[0]).toMatchObject({ method: 'GET', path: '/api/v1/nodes', query: { limit: '500' } });
  });

  it('cordons, relabels (null removes), annotates and replaces taints in one strategic merge patch', async () => {
    // Arrange
    seedNode('n1', {
      labels: { 'lifecycle-status': 'ready', gone: 'x' },
      spec: { taints: [{ key: 'old', effect: 'NoSchedule' }] },
    });

    // Act
    await kube.patchNode('n1', {
      unschedulable: true,
      labels: { 'lifecycle-status': 'draining', gone: null },
      annotations: { 'cluster-lifecycle-manager.zalando.org/drain-start': '2026-01-01T00:00:00Z' },
      taints: [{ key: 'decommission-pending', value: 'rolling-upgrade', effect: 'PreferNoSchedule' }],
    });

    // Assert
    const patch = api.calls().find((r) => r.method === 'PATCH')!;
    expect(patch.path).toBe('/api/v1/nodes/n1');
    expect(patch.contentType).toBe('application/strategic-merge-patch+json');
    const node = api.get('v1', 'Node', 'n1')!;
    expect(node.spec.unschedulable).toBe(true);
    expect(node.spec.taints).toEqual([
      { key: 'decommission-pending', value: 'rolling-upgrade', effect: 'PreferNoSchedule' },
    ]);
    expect(node.metadata.labels).toEqual({
      'topology.kubernetes.io/zone': 'eu-central-1a',
      'lifecycle-status': 'draining',
    });
    expect(node.metadata.annotations['cluster-lifecycle-manager.zalando.org/drain-start']).toBe('2026-01-01T00:00:00Z');
  });

  it('reports patching a missing node as NotFoundError', async () => {
    await expect(kube.patchNode('ghost', { unschedulable: true })).rejects.toThrow(NotFoundError);
  });
});

describe('ClientNodeKubeCluster pods', () => {
  it('lists the pods of one node through the spec.nodeName field selector, across namespaces', async () => {
    // Arrange
    seedPod('default', 'web-1', 'n1');
    seedPod('kube-system', 'dns-1', 'n1', { deletionTimestamp: '2026-01-02T00:00:00Z' });
    seedPod('default', 'web-2', 'n2');

    // Act
    const pods = await kube.listPods({ nodeName: 'n1' });

    // Assert
    expect(pods.map((p) => `${p.namespace}/${p.name}`)).toEqual(['default/web-1', 'kube-system/dns-1']);
    expect(pods[0]).toEqual({
      namespace: 'default',
      name: 'web-1',
      uid: expect.stringContaining('uid-web-1'),
      nodeName: 'n1',
      phase: 'Running',
      ready: true,
      labels: { app: 'web-1' },
      annotations: {},
      owner: { kind: 'ReplicaSet', name: 'web-1-rs' },
      createdAt: '2026-01-01T00:00:00.000Z',
      terminationGracePeriodSeconds: 30,
      deleting: false,
    });
    expect(pods[1].deleting).toBe(true);
    expect(api.calls()[0]).toMatchObject({
      path: '/api/v1/pods',
      query: { fieldSelector: 'spec.nodeName=n1', limit: '500' },
    });
  });

  it('lists in one namespace with a label selector', async () => {
    seedPod('default', 'web-1', 'n1');
    await kube.listPods({ namespace: 'default', labelSelector: 'app=web-1' });
    expect(api.calls()[0]).toMatchObject({
      path: '/api/v1/namespaces/default/pods',
      query: { labelSelector: 'app=web-1' },
    });
  });

  it('evicts through policy/v1 Eviction with the grace period', async () => {
    // Arrange
    seedPod('default', 'web-1', 'n1');

    // Act
    const result = await kube.evictPod('default', 'web-1', 45);

    // Assert
    expect(result).toBe('evicted');
    const post = api.calls().find((r) => r.method === 'POST')!;
    expect(post.path).toBe('/api/v1/namespaces/default/pods/web-1/eviction');
    expect(post.body).toMatchObject({
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'web-1', namespace: 'default' },
      deleteOptions: { gracePeriodSeconds: 45 },
    });
    expect(api.get('v1', 'Pod', 'web-1', 'default')).toBeUndefined();
  });

  it.each([
    [
      'a PDB refusal (429)',
      'blocked-by-pdb',
      429,
      statusBody(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget."),
    ],
    [
      'overlapping PDBs (500 "more than one PodDisruptionBudget")',
      'blocked-by-pdb',
      500,
      statusBody(
        500,
        'InternalError',
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      ),
    ],
    ['a missing pod (404)', 'not-found', 404, statusBody(404, 'NotFound', 'pods "x" not found')],
  ])('reports %s as %s', async (_label, expected, status, body) => {
    api.onEvict = () => ({ status, body });
    await expect(kube.evictPod('default', 'x')).resolves.toBe(expected);
  });

  it('treats any other 500 of an eviction as transient', async () => {
    api.onEvict = () => ({ status: 500, body: statusBody(500, 'InternalError', 'etcdserver: request timed out') });
    await expect(kube.evictPod('default', 'x')).rejects.toThrow(TransientApiError);
  });

  it('deletes a pod with its grace period and reports a missing one as not-found', async () => {
    // Arrange
    seedPod('default', 'web-1', 'n1');

    // Act
    const first = await kube.deletePod('default', 'web-1', 10);
    const second = await kube.deletePod('default', 'web-1', 10);

    // Assert
    expect([first, second]).toEqual(['deleted', 'not-found']);
    expect(api.calls()[0]).toMatchObject({
      method: 'DELETE',
      path: '/api/v1/namespaces/default/pods/web-1',
      query: { gracePeriodSeconds: '10' },
    });
  });
});

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

  it('treats an unreachable server as transient', async () => {
    await api.close();
    const error = await kube.listNodes().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransientApiError);
    expect((error as Error).message).toMatch(/^list nodes: cannot reach the API server/);
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
  });
});
