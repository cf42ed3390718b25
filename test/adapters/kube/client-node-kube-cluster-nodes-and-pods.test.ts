// ClientNodeKubeCluster on nodes (list, patch) and pods (list, evict, delete).
import type { RestKubeCluster } from '../../../lambdas/adapters/kube/rest-kube-cluster';
import { NotFoundError, TransientApiError } from '../../../lambdas/shared/errors';
import type { FakeKubeApi } from '../../support/fake-kube-api';
import { statusBody } from '../../support/fake-kube-api';
import { seedNode, seedPod, startFakeKubeCluster } from './kube-fixtures';

let api: FakeKubeApi;
let kube: RestKubeCluster;

beforeEach(async () => ({ api, kube } = await startFakeKubeCluster()));
afterEach(() => api.close());

describe('ClientNodeKubeCluster versions', () => {
  it("reads the API server's gitVersion and each node's kubelet version", async () => {
    // Arrange
    api.inject({ method: 'GET', path: '/version', status: 200, body: { major: '1', gitVersion: 'v1.30.5-eks-1a2b' } });
    seedNode(api, 'n1', { status: { nodeInfo: { kubeletVersion: 'v1.29.8-eks-3c4d' } } });
    seedNode(api, 'n2', {});

    // Act
    const version = await kube.serverVersion();
    const nodes = await kube.listNodes();

    // Assert
    expect(version).toBe('v1.30.5-eks-1a2b');
    expect(nodes.map((n) => [n.name, n.kubeletVersion])).toEqual([
      ['n1', 'v1.29.8-eks-3c4d'],
      ['n2', undefined],
    ]);
    expect(api.calls().map((r) => r.path)).toEqual(['/version', '/api/v1/nodes']);
  });

  it('fails naming the call when /version has no gitVersion', async () => {
    api.inject({ method: 'GET', path: '/version', status: 200, body: { major: '1' } });
    await expect(kube.serverVersion()).rejects.toThrow('GET /version: the API server answered without a gitVersion');
  });
});

describe('ClientNodeKubeCluster nodes', () => {
  it('lists nodes with provider id, zone, taints, readiness, volumes and creation time', async () => {
    // Arrange
    seedNode(api, 'n1', {
      spec: {
        unschedulable: true,
        taints: [{ key: 'decommission-pending', value: 'rolling-upgrade', effect: 'PreferNoSchedule' }],
      },
      status: { volumesAttached: [{ name: 'vol', devicePath: '/dev/xvdb' }] },
    });
    seedNode(api, 'n2', { status: { conditions: [{ type: 'Ready', status: 'False' }] } });

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
    seedNode(api, 'n1', {
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
    seedPod(api, 'default', 'web-1', 'n1');
    seedPod(api, 'kube-system', 'dns-1', 'n1', { deletionTimestamp: '2026-01-02T00:00:00Z' });
    seedPod(api, 'default', 'web-2', 'n2');

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
    expect(pods[1].deletesBy).toBe('2026-01-02T00:00:00.000Z');
    expect(api.calls()[0]).toMatchObject({
      path: '/api/v1/pods',
      query: { fieldSelector: 'spec.nodeName=n1', limit: '500' },
    });
  });

  it('lists in one namespace with a label selector', async () => {
    seedPod(api, 'default', 'web-1', 'n1');
    await kube.listPods({ namespace: 'default', labelSelector: 'app=web-1' });
    expect(api.calls()[0]).toMatchObject({
      path: '/api/v1/namespaces/default/pods',
      query: { labelSelector: 'app=web-1' },
    });
  });

  it('evicts through policy/v1 Eviction with the grace period', async () => {
    // Arrange
    seedPod(api, 'default', 'web-1', 'n1');

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
    seedPod(api, 'default', 'web-1', 'n1');

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
