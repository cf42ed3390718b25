// ClientNodeKubeCluster.delete, .list and .annotate: kinds resolved through discovery, options, paging.
import type { RestKubeCluster } from '../../../lambdas/adapters/kube/rest-kube-cluster';
import { KubeApiError } from '../../../lambdas/shared/errors';
import type { FakeKubeApi } from '../../support/fake-kube-api';
import { startFakeKubeCluster } from './kube-fixtures';

let api: FakeKubeApi;
let kube: RestKubeCluster;

beforeEach(async () => ({ api, kube } = await startFakeKubeCluster()));
afterEach(() => api.close());

describe('ClientNodeKubeCluster kind resolution (delete, list)', () => {
  beforeEach(() => {
    api.seed({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: {} });
  });

  it.each(['Deployment', 'deployment', 'DEPLOYMENTS', 'deployments.v1.apps'])('resolves %s', async (kind) => {
    await expect(kube.delete({ kind, namespace: 'default', name: 'web' })).resolves.toBe('deleted');
    expect(api.get('apps/v1', 'Deployment', 'web', 'default')).toBeUndefined();
  });

  it('does not resolve short names, and says so', async () => {
    const error = await kube.delete({ kind: 'deploy', namespace: 'default', name: 'web' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as Error).message).toMatch(/unknown kind "deploy".*short names such as "deploy" are not resolved/);
  });

  it('resolves a CRD kind through discovery of its group', async () => {
    api.seed({ apiVersion: 'example.org/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'team' } });
    await expect(kube.delete({ kind: 'widget', namespace: 'team', name: 'w' })).resolves.toBe('deleted');
  });

  it('passes propagationPolicy and gracePeriodSeconds and reports a missing object as not-found', async () => {
    // Act
    const deleted = await kube.delete(
      { kind: 'Deployment', namespace: 'default', name: 'web' },
      { propagationPolicy: 'Foreground', gracePeriodSeconds: 5 },
    );
    const again = await kube.delete({ kind: 'Deployment', namespace: 'default', name: 'web' });

    // Assert
    expect([deleted, again]).toEqual(['deleted', 'not-found']);
    const del = api.requests.find((r) => r.method === 'DELETE')!;
    expect(del.path).toBe('/apis/apps/v1/namespaces/default/deployments/web');
    expect(del.query).toEqual({ propagationPolicy: 'Foreground', gracePeriodSeconds: '5' });
  });

  it("treats a namespaced kind without namespace as not-found without a request (CLM's behaviour)", async () => {
    await expect(kube.delete({ kind: 'Deployment', name: 'web' })).resolves.toBe('not-found');
    expect(api.requests.some((r) => r.method === 'DELETE')).toBe(false);
  });

  it('lists across all namespaces or in one, with a label selector, and fills apiVersion and kind', async () => {
    // Arrange
    api.seed({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'old', namespace: 'kube-system', labels: { version: 'v1' } },
    });
    api.seed({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'new', namespace: 'kube-system', labels: { version: 'v2' } },
    });

    // Act
    const all = await kube.list('deployments');
    const selected = await kube.list('Deployment', { namespace: 'kube-system', labelSelector: 'version!=v2' });

    // Assert
    expect(all.map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'default/web',
      'kube-system/new',
      'kube-system/old',
    ]);
    expect(selected.map((o) => [o.apiVersion, o.kind, o.metadata.name])).toEqual([['apps/v1', 'Deployment', 'old']]);
    const lists = api.requests.filter((r) => r.path.endsWith('/deployments'));
    expect(lists.map((r) => r.path)).toEqual([
      '/apis/apps/v1/deployments',
      '/apis/apps/v1/namespaces/kube-system/deployments',
    ]);
    expect(lists[1].query).toEqual({ labelSelector: 'version!=v2', limit: '500' });
  });

  it('follows continue tokens', async () => {
    // Arrange
    for (let i = 0; i < 501; i++)
      api.seed({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${String(i).padStart(3, '0')}`, namespace: 'default' },
      });

    // Act
    const items = await kube.list('configmaps', { namespace: 'default' });

    // Assert
    expect(items).toHaveLength(501);
    expect(
      api.requests.filter((r) => r.path === '/api/v1/namespaces/default/configmaps').map((r) => r.query.continue),
    ).toEqual([undefined, '500']);
  });

  it('annotates with a merge patch and leaves a missing object alone', async () => {
    // Act
    await kube.annotate({ kind: 'Namespace', name: 'gone' }, { 'zalando.org/delete-date': '2026-01-01' });
    api.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    await kube.annotate(
      { kind: 'Namespace', name: 'team-a' },
      { 'zalando.org/delete-date': '2026-01-01', 'zalando.org/delete-namespace': 'team-a' },
    );

    // Assert
    const patch = api.requests.filter((r) => r.method === 'PATCH').at(-1)!;
    expect(patch.contentType).toBe('application/merge-patch+json');
    expect(api.get('v1', 'Namespace', 'team-a')?.metadata.annotations).toEqual({
      'zalando.org/delete-date': '2026-01-01',
      'zalando.org/delete-namespace': 'team-a',
    });
  });
});
