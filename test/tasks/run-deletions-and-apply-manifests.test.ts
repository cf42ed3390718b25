import { runDeletions } from '../../lambdas/tasks/manifests/run-deletions';
import { applyManifests } from '../../lambdas/tasks/apply-manifests';
import type { ResourcesArtifact } from '../../lambdas/contracts/artifacts';
import type { RenderedManifestFile } from '../../lambdas/core/render/render-manifests';
import type { KubeObject } from '../../lambdas/ports/kube-cluster';
import { FakeClock, FakeKubeCluster, fakeEnv, seedRunWithResources, testCluster, type FakeEnv } from '../support/fakes';

const NOW = Date.parse('2024-05-01T12:00:00Z');

function obj(
  kind: string,
  name: string,
  namespace?: string,
  extra: Partial<KubeObject['metadata']> = {},
  apiVersion = 'v1',
): KubeObject {
  return { apiVersion, kind, metadata: { name, ...(namespace ? { namespace } : {}), ...extra } };
}

async function kubeWith(objects: KubeObject[]): Promise<FakeKubeCluster> {
  const kube = new FakeKubeCluster(new FakeClock(NOW));
  await kube.apply(objects, { fieldManager: 'test' });
  kube.calls.length = 0;
  return kube;
}

const names = (kube: FakeKubeCluster): string[] => [...kube.objects.keys()].sort();

describe('runDeletions', () => {
  it('deletes by name; not found is fine', async () => {
    const kube = await kubeWith([obj('Deployment', 'old', 'kube-system'), obj('Deployment', 'keep', 'kube-system')]);

    const deleted = await runDeletions(
      kube,
      [
        { kind: 'Deployment', namespace: 'kube-system', name: 'old' },
        { kind: 'Deployment', namespace: 'kube-system', name: 'never-existed' },
      ],
      NOW,
    );

    expect(deleted).toEqual(['Deployment kube-system/old']);
    expect(names(kube)).toEqual(['Deployment/kube-system/keep']);
  });

  it('annotates a Namespace with CLM’s delete protection annotations before deleting it', async () => {
    const kube = await kubeWith([obj('Namespace', 'legacy')]);
    let annotationsAtDelete: Record<string, string> | undefined;
    const original = kube.delete.bind(kube);
    kube.delete = async (ref, options) => {
      annotationsAtDelete = { ...kube.objects.get(`Namespace//${ref.name}`)?.metadata.annotations };
      return original(ref, options);
    };

    await runDeletions(kube, [{ kind: 'Namespace', name: 'legacy' }], NOW);

    expect(kube.calls).toEqual(['annotate Namespace//legacy', 'delete Namespace//legacy']);
    expect(annotationsAtDelete).toEqual({
      'zalando.org/delete-date': '2024-05-01',
      'zalando.org/delete-namespace': 'legacy',
    });
  });

  it('deleting a Namespace that is already gone is fine', async () => {
    const kube = await kubeWith([]);

    expect(await runDeletions(kube, [{ kind: 'Namespace', name: 'gone' }], NOW)).toEqual([]);
  });

  it('deletes by selector and by labels, each object in its own namespace, across namespaces when none is given', async () => {
    const kube = await kubeWith([
      obj('ConfigMap', 'a', 'ns1', { labels: { app: 'old', tier: 'x' } }),
      obj('ConfigMap', 'b', 'ns2', { labels: { app: 'old', tier: 'y' } }),
      obj('ConfigMap', 'c', 'ns2', { labels: { app: 'new' } }),
    ]);

    const bySelector = await runDeletions(kube, [{ kind: 'ConfigMap', selector: 'app=old,tier=x' }], NOW);
    const byLabels = await runDeletions(kube, [{ kind: 'ConfigMap', labels: { app: 'old' } }], NOW);

    expect(bySelector).toEqual(['ConfigMap ns1/a']);
    expect(byLabels).toEqual(['ConfigMap ns2/b']);
    expect(names(kube)).toEqual(['ConfigMap/ns2/c']);
  });

  it('limits a selector to the given namespace', async () => {
    const kube = await kubeWith([
      obj('ConfigMap', 'a', 'ns1', { labels: { app: 'old' } }),
      obj('ConfigMap', 'a', 'ns2', { labels: { app: 'old' } }),
    ]);

    await runDeletions(kube, [{ kind: 'ConfigMap', namespace: 'ns2', labels: { app: 'old' } }], NOW);

    expect(names(kube)).toEqual(['ConfigMap/ns1/a']);
  });

  it('has_owner true deletes only owned objects, false only unowned ones', async () => {
    const owned = { labels: { app: 'x' }, ownerReferences: [{ kind: 'Deployment', name: 'x' }] };
    const objects = [
      obj('ReplicaSet', 'owned', 'ns', owned),
      obj('ReplicaSet', 'bare', 'ns', { labels: { app: 'x' } }),
    ];
    const onlyOwned = await kubeWith(objects);
    const onlyBare = await kubeWith(objects);

    await runDeletions(onlyOwned, [{ kind: 'ReplicaSet', labels: { app: 'x' }, hasOwner: true }], NOW);
    await runDeletions(onlyBare, [{ kind: 'ReplicaSet', selector: 'app=x', hasOwner: false }], NOW);

    expect(names(onlyOwned)).toEqual(['ReplicaSet/ns/bare']);
    expect(names(onlyBare)).toEqual(['ReplicaSet/ns/owned']);
  });

  it('runs entries in order', async () => {
    const kube = await kubeWith([obj('Service', 's', 'ns'), obj('Deployment', 'd', 'ns')]);

    await runDeletions(
      kube,
      [
        { kind: 'Service', namespace: 'ns', name: 's' },
        { kind: 'Deployment', namespace: 'ns', name: 'd' },
      ],
      NOW,
    );

    expect(kube.calls).toEqual(['delete Service/ns/s', 'delete Deployment/ns/d']);
  });
});

describe('applyManifests apply phase', () => {
  const TARGET = 'c0ffee#abc';
  const HOLDER = 'exec-1';

  async function setup(
    manifests: RenderedManifestFile[],
    extra: Partial<ResourcesArtifact> = {},
  ): Promise<{ env: FakeEnv; ref: { clusterId: string; targetVersion: string; holder: string } }> {
    const cluster = testCluster();
    const env = fakeEnv({ clusters: [cluster] });
    await seedRunWithResources(env, cluster, { targetVersion: TARGET, holder: HOLDER }, { manifests, ...extra });
    return { env, ref: { clusterId: cluster.id, targetVersion: TARGET, holder: HOLDER } };
  }

  const file = (component: string, objects: KubeObject[]): RenderedManifestFile => ({
    source: 'main',
    component,
    file: `${component}/main.yaml`,
    objects,
  });

  it('applies CRDs and Namespaces first, then components in order', async () => {
    const { env, ref } = await setup([
      file('01-app', [obj('Deployment', 'app', 'team', {}, 'apps/v1'), obj('Namespace', 'team')]),
      file('02-crd', [
        obj('Widget', 'w1', 'team', {}, 'example.org/v1'),
        obj('CustomResourceDefinition', 'widgets.example.org', undefined, {}, 'apiextensions.k8s.io/v1'),
      ]),
    ]);

    const step = await applyManifests(ref, 'apply', env.ports);

    expect(env.kube.calls.filter((c) => c.startsWith('apply'))).toEqual([
      'apply Namespace//team',
      'apply CustomResourceDefinition//widgets.example.org',
      'apply Deployment/team/app',
      'apply Widget/team/w1',
    ]);
    expect(step).toMatchObject({
      status: 'DONE',
      message: 'Applied 4 object(s): 4 created, 0 configured, 0 unchanged; pruned 0',
    });
    expect(await env.progress.getInventory(ref.clusterId)).toHaveLength(4);
    expect((await env.progress.getRun(ref.clusterId, TARGET))?.manifestPhases.apply).toBe(env.clock.now());
  });

  it('prunes objects applied last time and no longer rendered, never Namespaces, CRDs or PVCs', async () => {
    const { env, ref } = await setup([file('app', [obj('Deployment', 'app', 'team', {}, 'apps/v1')])]);
    const previous = [
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'team', name: 'app' },
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'team', name: 'gone' },
      { apiVersion: 'v1', kind: 'Namespace', name: 'old-ns' },
      { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'old.example.org' },
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: 'team', name: 'data' },
    ];
    await env.progress.putInventory(ref.clusterId, previous);
    await env.kube.apply(
      [
        obj('ConfigMap', 'gone', 'team'),
        obj('Namespace', 'old-ns'),
        obj('CustomResourceDefinition', 'old.example.org'),
        obj('PersistentVolumeClaim', 'data', 'team'),
      ],
      { fieldManager: 'test' },
    );

    const step = await applyManifests(ref, 'apply', env.ports);

    expect(env.kube.calls.filter((c) => c.startsWith('delete'))).toEqual(['delete ConfigMap/team/gone']);
    expect(step.message).toMatch(/pruned 1 \(v1\/ConfigMap\/team\/gone\)$/);
    expect(await env.progress.getInventory(ref.clusterId)).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'team', name: 'app' },
    ]);
  });

  it('a phase already done in this run is not repeated', async () => {
    const { env, ref } = await setup([file('app', [obj('ConfigMap', 'c', 'team')])]);
    await applyManifests(ref, 'apply', env.ports);
    const calls = env.kube.calls.length;

    const again = await applyManifests(ref, 'apply', env.ports);

    expect(again.message).toBe('apply already done in this run');
    expect(env.kube.calls.length).toBe(calls);
  });

  it('pre-deletions run the Kubernetes deletions once, then wait for CloudFormation deletions', async () => {
    const { env, ref } = await setup([], {
      deletions: { preApply: [{ kind: 'ConfigMap', namespace: 'team', name: 'old' }], postApply: [] },
      cfDeletions: { preApply: [{ stackName: 'legacy-stack' }], postApply: [] },
    });
    await env.kube.apply([obj('ConfigMap', 'old', 'team')], { fieldManager: 'test' });
    env.stacks.setStack('legacy-stack', '{}', 'UPDATE_COMPLETE');

    const first = await applyManifests(ref, 'pre-deletions', env.ports);
    await env.kube.apply([obj('ConfigMap', 'old', 'team')], { fieldManager: 'test' });
    const polls: string[] = [];
    let step = first;
    while (step.status !== 'DONE' && polls.length < 10) {
      step = await applyManifests(ref, 'pre-deletions', env.ports);
      polls.push(step.status);
    }

    expect(first).toMatchObject({
      status: 'IN_PROGRESS',
      message: 'Deleted 1 object(s); waiting for stack deletion: legacy-stack',
    });
    expect(step.status).toBe('DONE');
    expect(env.kube.callCount('delete ConfigMap/team/old')).toBe(1);
    expect(env.kube.objects.has('ConfigMap/team/old')).toBe(true);
    expect(env.stacks.stacks.get('legacy-stack')?.status).toBe('DELETE_COMPLETE');
  });

  it("cf-deletions lift a protected stack's termination protection just before deleting it", async () => {
    const { env, ref } = await setup([], {
      deletions: { preApply: [], postApply: [] },
      cfDeletions: { preApply: [{ stackName: 'legacy-stack' }], postApply: [] },
    });
    env.stacks.setStack('legacy-stack', '{}', 'UPDATE_COMPLETE');
    env.stacks.setTerminationProtection('legacy-stack', true);

    await applyManifests(ref, 'pre-deletions', env.ports);

    expect(env.stacks.calls).toEqual(['disableTerminationProtection legacy-stack', 'delete legacy-stack']);
  });

  it("cf-deletions never lift the main stack's protection: naming it is refused and the stack stays", async () => {
    const main = testCluster().localId;
    const { env, ref } = await setup([], {
      deletions: { preApply: [], postApply: [] },
      cfDeletions: { preApply: [{ stackName: main }], postApply: [] },
    });
    env.stacks.setStack(main, '{}', 'UPDATE_COMPLETE');
    env.stacks.setTerminationProtection(main, true);

    await expect(applyManifests(ref, 'pre-deletions', env.ports)).rejects.toThrow(
      `Stack [${main}] cannot be deleted while TerminationProtection is enabled`,
    );
    expect(env.stacks.calls).toEqual([]);
    expect(env.stacks.stacks.get(main)?.status).toBe('UPDATE_COMPLETE');
  });
});
