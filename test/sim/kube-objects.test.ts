import { SimulatedWorld } from '../../lambdas/sim';
import type { KubeObject } from '../../lambdas/ports/kube-cluster';
import { KubeApiError, NotFoundError, TransientApiError } from '../../lambdas/shared/errors';
import { runningCluster, testCluster } from './fixtures';

const OPTS = { fieldManager: 'clm' };

const cm = (name: string, data: Record<string, string>, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'kube-system', ...extra },
  data,
});

const deployment = (name: string, replicas: number, image = 'web:1'): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default', labels: { app: name } },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } },
  },
});

describe('simulated Kubernetes objects', () => {
  it('refuses every call but ready() until a master node is Ready', async () => {
    const world = SimulatedWorld.create();
    const kube = world.forCluster(testCluster()).kube;

    expect(await kube.ready()).toBe(false);
    await expect(kube.listNodes()).rejects.toBeInstanceOf(TransientApiError);
  });

  it('applies with created / unchanged / configured, and dry runs change nothing', async () => {
    const { ports } = await runningCluster();

    const dry = await ports.kube.apply([cm('a', { x: '1' })], { ...OPTS, dryRun: true });
    const listedAfterDry = await ports.kube.list('configmaps', { namespace: 'kube-system' });
    const created = await ports.kube.apply([cm('a', { x: '1' })], OPTS);
    const unchanged = await ports.kube.apply([cm('a', { x: '1' })], OPTS);
    const dryChange = await ports.kube.apply([cm('a', { x: '2' })], { ...OPTS, dryRun: true });
    const configured = await ports.kube.apply([cm('a', { x: '2' })], OPTS);
    const [stored] = await ports.kube.list('ConfigMap', { namespace: 'kube-system' });

    expect(dry.map((r) => r.action)).toEqual(['created']);
    expect(listedAfterDry).toEqual([]);
    expect(created).toEqual([
      { ref: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'kube-system', name: 'a' }, action: 'created' },
    ]);
    expect(unchanged[0].action).toBe('unchanged');
    expect(dryChange[0].action).toBe('configured');
    expect(configured[0].action).toBe('configured');
    expect(stored.data).toEqual({ x: '2' });
    expect(stored.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('defaults the namespace of namespaced objects to default and requires namespaces to exist', async () => {
    const { ports } = await runningCluster();
    const noNamespace: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } };
    const elsewhere: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'team' } };

    const [applied] = await ports.kube.apply([noNamespace], OPTS);
    await expect(ports.kube.apply([elsewhere], OPTS)).rejects.toThrow('namespaces "team" not found');
    const withNamespace = await ports.kube.apply(
      [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } }, elsewhere],
      OPTS,
    );

    expect(applied.ref.namespace).toBe('default');
    expect(withNamespace.map((r) => r.action)).toEqual(['created', 'created']);
  });

  it('rejects unknown kinds until a CRD declares them, and resolves kinds like discovery', async () => {
    const { ports } = await runningCluster();
    const vpa: KubeObject = {
      apiVersion: 'autoscaling.k8s.io/v1',
      kind: 'VerticalPodAutoscaler',
      metadata: { name: 'v', namespace: 'default' },
    };
    const crd: KubeObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'verticalpodautoscalers.autoscaling.k8s.io' },
      spec: {
        group: 'autoscaling.k8s.io',
        scope: 'Namespaced',
        names: { kind: 'VerticalPodAutoscaler', plural: 'verticalpodautoscalers', singular: 'verticalpodautoscaler' },
        versions: [{ name: 'v1' }],
      },
    };

    await expect(ports.kube.apply([vpa], OPTS)).rejects.toBeInstanceOf(KubeApiError);
    await expect(ports.kube.list('verticalpodautoscalers')).rejects.toThrow(
      'the server doesn\'t have a resource type "verticalpodautoscalers"',
    );
    await ports.kube.apply([crd, vpa], OPTS);

    for (const kind of [
      'VerticalPodAutoscaler',
      'verticalpodautoscaler',
      'VerticalPodAutoscalers',
      'verticalpodautoscalers.v1.autoscaling.k8s.io',
    ]) {
      expect((await ports.kube.list(kind)).map((o) => o.metadata.name)).toEqual(['v']);
    }
    for (const kind of ['deployments.v1.apps', 'deployments.apps', 'Deployment', 'deployment'])
      await expect(ports.kube.list(kind)).resolves.toEqual([]);
    await expect(
      ports.kube.apply([{ apiVersion: 'extensions/v1beta1', kind: 'Deployment', metadata: { name: 'old' } }], OPTS),
    ).rejects.toThrow('no matches for kind "Deployment" in version "extensions/v1beta1"');
  });

  it('lists with label selectors (=, !=, in, notin, exists, !exists) across namespaces', async () => {
    const { ports } = await runningCluster();
    await ports.kube.apply(
      [
        cm('a', {}, { labels: { tier: 'web', env: 'prod' } }),
        cm('b', {}, { labels: { tier: 'db' } }),
        {
          ...cm('c', {}, { labels: { tier: 'web', env: 'test' } }),
          metadata: { name: 'c', namespace: 'default', labels: { tier: 'web', env: 'test' } },
        },
      ],
      OPTS,
    );
    const names = async (labelSelector: string, namespace?: string) =>
      (await ports.kube.list('configmap', { labelSelector, namespace })).map((o) => o.metadata.name);

    expect(await names('tier=web')).toEqual(['c', 'a']);
    expect(await names('tier=web', 'kube-system')).toEqual(['a']);
    expect(await names('tier!=web')).toEqual(['b']);
    expect(await names('env in (prod, test)')).toEqual(['c', 'a']);
    expect(await names('tier,env notin (prod)')).toEqual(['c', 'b']);
    expect(await names('!env')).toEqual(['b']);
  });

  it('deletes dependents in the background, keeps them with Orphan, and is not-found for missing objects', async () => {
    const { world, ports } = await runningCluster();
    await ports.kube.apply([deployment('web', 2), deployment('api', 2)], OPTS);
    world.runUntilIdle();
    const rsBefore = await ports.kube.list('replicasets', { namespace: 'default' });

    const deleted = await ports.kube.delete({ kind: 'deployment', namespace: 'default', name: 'web' });
    const orphaned = await ports.kube.delete(
      { kind: 'Deployment', namespace: 'default', name: 'api' },
      { propagationPolicy: 'Orphan' },
    );
    world.runUntilIdle();
    const rsAfter = await ports.kube.list('replicasets', { namespace: 'default' });
    const pods = await ports.kube.listPods({ namespace: 'default' });

    expect(rsBefore.map((o) => o.metadata.name).every((n) => /^(web|api)-[a-z0-9]{10}$/.test(n))).toBe(true);
    expect([deleted, orphaned]).toEqual(['deleted', 'deleted']);
    expect(rsAfter.map((o) => o.metadata.name.split('-')[0])).toEqual(['api']);
    expect(rsAfter[0].metadata.ownerReferences ?? []).toEqual([]);
    expect(pods.map((p) => p.name.split('-')[0])).toEqual(['api', 'api']);
    expect(await ports.kube.delete({ kind: 'Deployment', namespace: 'default', name: 'web' })).toBe('not-found');
    expect(await ports.kube.delete({ kind: 'Deployment', name: 'api' })).toBe('not-found');
  });

  it('deleting a namespace deletes what is in it', async () => {
    const { ports } = await runningCluster();
    await ports.kube.apply(
      [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } },
        { ...cm('x', {}), metadata: { name: 'x', namespace: 'team' } },
      ],
      OPTS,
    );

    await ports.kube.delete({ kind: 'Namespace', name: 'team' });

    expect(await ports.kube.list('configmaps', { namespace: 'team' })).toEqual([]);
  });

  it('annotates objects, and a later apply keeps annotations it did not set', async () => {
    const { ports } = await runningCluster();
    await ports.kube.apply(
      [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team', annotations: { mine: '1' } } }],
      OPTS,
    );

    await ports.kube.annotate({ kind: 'Namespace', name: 'team' }, { 'zalando.org/delete-date': '2026-01-01' });
    await ports.kube.apply(
      [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team', annotations: { mine: '2' } } }],
      OPTS,
    );
    const [ns] = (await ports.kube.list('namespaces')).filter((o) => o.metadata.name === 'team');

    expect(ns.metadata.annotations).toEqual({ 'zalando.org/delete-date': '2026-01-01', mine: '2' });
    await expect(ports.kube.annotate({ kind: 'Namespace', name: 'nope' }, { a: 'b' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('patches nodes: cordon, labels (null removes), annotations and taints', async () => {
    const { ports } = await runningCluster();
    const [, worker] = await ports.kube.listNodes();

    await ports.kube.patchNode(worker.name, {
      unschedulable: true,
      labels: { 'lifecycle-status': 'decommission-pending', 'kubernetes.io/os': null },
      annotations: { 'cluster-lifecycle-manager.zalando.org/drain-start': '2026-01-01T00:00:00Z' },
      taints: [{ key: 'decommission-pending', value: 'rolling-upgrade', effect: 'PreferNoSchedule' }],
    });
    const patched = (await ports.kube.listNodes()).find((n) => n.name === worker.name)!;

    expect(patched.unschedulable).toBe(true);
    expect(patched.labels['lifecycle-status']).toBe('decommission-pending');
    expect(patched.labels).not.toHaveProperty('kubernetes.io/os');
    expect(patched.annotations).toEqual({
      'cluster-lifecycle-manager.zalando.org/drain-start': '2026-01-01T00:00:00Z',
    });
    expect(patched.taints).toEqual([
      { key: 'decommission-pending', value: 'rolling-upgrade', effect: 'PreferNoSchedule' },
    ]);
    await expect(ports.kube.patchNode('ip-1-2-3-4', { unschedulable: true })).rejects.toBeInstanceOf(NotFoundError);
  });
});
