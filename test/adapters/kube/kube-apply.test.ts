// ClientNodeKubeCluster.apply (kube-apply.ts): server-side apply, dry runs, discovery per group version, CRDs, errors.
import type { RestKubeCluster } from '../../../lambdas/adapters/kube/rest-kube-cluster';
import type { KubeObject } from '../../../lambdas/ports/kube-cluster';
import { KubeApiError, TransientApiError } from '../../../lambdas/shared/errors';
import type { FakeKubeApi } from '../../support/fake-kube-api';
import { statusBody } from '../../support/fake-kube-api';
import { startFakeKubeCluster } from './kube-fixtures';

let api: FakeKubeApi;
let kube: RestKubeCluster;

beforeEach(async () => ({ api, kube } = await startFakeKubeCluster()));
afterEach(() => api.close());

const deployment = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels: { app: name } },
  spec: { replicas: 2, selector: { matchLabels: { app: name } }, futureField: { keep: 'me' }, ...extra },
});

const crd: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.later.example.org' },
  spec: {
    group: 'later.example.org',
    scope: 'Namespaced',
    names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget' },
    versions: [{ name: 'v1', served: true, storage: true }],
  },
};
const gadget: KubeObject = {
  apiVersion: 'later.example.org/v1',
  kind: 'Gadget',
  metadata: { name: 'g1', namespace: 'kube-system' },
  spec: { size: 1 },
};

describe('ClientNodeKubeCluster.apply', () => {
  it('server-side applies a new object verbatim with fieldManager and force, defaulting the namespace', async () => {
    // Act
    const results = await kube.apply([deployment('web')], { fieldManager: 'cluster-lifecycle-manager' });

    // Assert
    expect(results).toEqual([
      { ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' }, action: 'created' },
    ]);
    const patch = api.requests.find((r) => r.method === 'PATCH')!;
    expect(patch.path).toBe('/apis/apps/v1/namespaces/default/deployments/web');
    expect(patch.contentType).toBe('application/apply-patch+yaml');
    expect(patch.query).toEqual({ fieldManager: 'cluster-lifecycle-manager', force: 'true' });
    expect(patch.authorization).toBe('Bearer test-token');
    // Fields client-node's typed models do not know must reach the server (SSA would otherwise remove them).
    expect((patch.body as { spec: Record<string, unknown> }).spec.futureField).toEqual({ keep: 'me' });
    expect(api.get('apps/v1', 'Deployment', 'web', 'default')?.spec.futureField).toEqual({ keep: 'me' });
  });

  it('reports an identical re-apply as unchanged and a real change as configured', async () => {
    // Arrange
    await kube.apply([deployment('web')], { fieldManager: 'clm' });

    // Act
    const again = await kube.apply([deployment('web')], { fieldManager: 'clm' });
    const changed = await kube.apply([deployment('web', { replicas: 3 })], { fieldManager: 'clm' });

    // Assert
    expect(again[0].action).toBe('unchanged');
    expect(changed[0].action).toBe('configured');
    expect(api.get('apps/v1', 'Deployment', 'web', 'default')?.spec.replicas).toBe(3);
  });

  it('sends dryRun=All and changes nothing', async () => {
    // Arrange
    api.seed({ ...deployment('web'), metadata: { name: 'web', namespace: 'default' } });
    const before = api.get('apps/v1', 'Deployment', 'web', 'default');

    // Act
    const results = await kube.apply([deployment('web', { replicas: 9 }), deployment('api')], {
      fieldManager: 'clm',
      dryRun: true,
    });

    // Assert
    expect(results.map((r) => r.action)).toEqual(['configured', 'created']);
    expect(api.requests.filter((r) => r.method === 'PATCH').every((r) => r.query.dryRun === 'All')).toBe(true);
    expect(api.get('apps/v1', 'Deployment', 'web', 'default')).toEqual(before);
    expect(api.get('apps/v1', 'Deployment', 'api', 'default')).toBeUndefined();
  });

  it('applies cluster-scoped objects without a namespace, dropping a stray one', async () => {
    // Act
    const results = await kube.apply(
      [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', namespace: 'oops' } }],
      { fieldManager: 'clm' },
    );

    // Assert
    expect(results[0].ref).toEqual({ apiVersion: 'v1', kind: 'Namespace', name: 'team-a' });
    const patch = api.requests.find((r) => r.method === 'PATCH')!;
    expect(patch.path).toBe('/api/v1/namespaces/team-a');
    expect((patch.body as KubeObject).metadata.namespace).toBeUndefined();
  });

  it("fetches each group version's discovery once for many objects", async () => {
    // Act
    await kube.apply([deployment('a'), deployment('b'), deployment('c')], { fieldManager: 'clm' });

    // Assert
    expect(api.requests.filter((r) => r.path === '/apis/apps/v1')).toHaveLength(1);
    expect(api.calls()).toHaveLength(6); // GET + PATCH per object
  });

  it('applies a CRD and, in the same batch, an object of the kind it defines', async () => {
    // Act
    const results = await kube.apply([crd, gadget], { fieldManager: 'clm' });

    // Assert
    expect(results.map((r) => [r.ref.kind, r.action])).toEqual([
      ['CustomResourceDefinition', 'created'],
      ['Gadget', 'created'],
    ]);
    expect(api.get('later.example.org/v1', 'Gadget', 'g1', 'kube-system')?.spec).toEqual({ size: 1 });
  });

  it('reports objects of a CRD applied in the same dry run as created without calling the server for them', async () => {
    // Act
    const results = await kube.apply([crd, gadget], { fieldManager: 'clm', dryRun: true });

    // Assert
    expect(results.map((r) => r.action)).toEqual(['created', 'created']);
    expect(api.requests.some((r) => r.path.includes('/gadgets/'))).toBe(false);
  });

  it('fails with KubeApiError naming an unserved kind, and with a retryable error right after applying a CRD', async () => {
    // Arrange
    const unknown: KubeObject = { apiVersion: 'nope.example.org/v1', kind: 'Thing', metadata: { name: 't' } };

    // Act
    const before = await kube.apply([unknown], { fieldManager: 'clm' }).catch((e: unknown) => e);
    const afterCrd = await kube.apply([crd, unknown], { fieldManager: 'clm' }).catch((e: unknown) => e);

    // Assert
    expect(before).toBeInstanceOf(KubeApiError);
    expect((before as Error).message).toBe(
      'cannot apply nope.example.org/v1 Thing t: the API server does not serve kind Thing in nope.example.org/v1',
    );
    expect(afterCrd).toBeInstanceOf(TransientApiError);
  });

  it("treats the API server's 500 for a field outside the schema as permanent", async () => {
    // Arrange: what kube-apiserver 1.35 answers for server-side apply of an undeclared field
    api.inject({
      method: 'PATCH',
      status: 500,
      body: statusBody(
        500,
        'InternalError',
        'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.futureField: field not declared in schema',
      ),
    });

    // Act
    const error = await kube.apply([deployment('web')], { fieldManager: 'clm' }).catch((e: unknown) => e);

    // Assert
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as Error).message).toMatch(/field not declared in schema/);
  });

  it("classifies a 5xx as transient and a 422 as KubeApiError with the server's message", async () => {
    // Arrange
    api.inject({ method: 'PATCH', status: 503 });
    api.inject({
      method: 'PATCH',
      status: 422,
      body: statusBody(422, 'Invalid', 'Deployment.apps "web" is invalid: spec.selector: Required value'),
    });

    // Act
    const first = await kube.apply([deployment('web')], { fieldManager: 'clm' }).catch((e: unknown) => e);
    const second = await kube.apply([deployment('web')], { fieldManager: 'clm' }).catch((e: unknown) => e);

    // Assert
    expect(first).toBeInstanceOf(TransientApiError);
    expect(second).toBeInstanceOf(KubeApiError);
    expect((second as Error).message).toBe(
      'apply Deployment default/web: HTTP 422 (Invalid: Deployment.apps "web" is invalid: spec.selector: Required value)',
    );
  });
});
