import { fieldsV1Paths } from '../../lambdas/core/manifests/field-paths';
import { objectHealth } from '../../lambdas/core/manifests/workload-health';
import type { KubeObject } from '../../lambdas/ports/kube-cluster';
import { runningCluster, testCluster } from './fixtures';

const CLM = { fieldManager: 'clm' };

const deployment = (image: string, extra: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' }, annotations: extra },
      spec: { containers: [{ name: 'web', image }] },
    },
  },
});

const managers = (object: KubeObject): Record<string, string[]> =>
  Object.fromEntries(
    ((object.metadata.managedFields ?? []) as { manager: string; fieldsV1: unknown }[]).map((e) => [
      e.manager,
      fieldsV1Paths(e.fieldsV1),
    ]),
  );

describe('simulated server-side apply per field manager', () => {
  it('records our fields in managedFields, hands an edited field to its editor, and names it in a dry run', async () => {
    // Arrange
    const { world, ports } = await runningCluster();
    await ports.kube.apply([deployment('web:1')], CLM);
    world.addLiveEdits([
      {
        atSeconds: (world.now - Date.parse('2026-01-01T00:00:00.000Z')) / 1000 + 60,
        cluster: testCluster().id,
        kind: 'deployment',
        namespace: 'default',
        name: 'web',
        patch: { spec: { replicas: 5 }, metadata: { labels: { team: 'x' } } },
      },
    ]);

    // Act
    world.advance(120_000);
    const [edited] = await ports.kube.list('Deployment', { namespace: 'default' });
    const dry = await ports.kube.apply([deployment('web:1')], { ...CLM, dryRun: true });
    const [afterDry] = await ports.kube.list('Deployment', { namespace: 'default' });
    await ports.kube.apply([deployment('web:1')], CLM);
    const [repaired] = await ports.kube.list('Deployment', { namespace: 'default' });

    // Assert: the editor owns replicas and its label; ours no longer lists replicas
    expect(edited!.spec).toEqual(expect.objectContaining({ replicas: 5 }));
    expect(managers(edited!)['kubectl-edit']).toEqual(['metadata.labels.team', 'spec.replicas']);
    expect(managers(edited!)['clm']).not.toContain('spec.replicas');
    expect(managers(edited!)['clm']).toContain('spec.template.spec.containers[name=web].image');
    expect(edited!.metadata.generation).toBe(2);
    // the dry run names the field and its owner, and changes nothing
    expect(dry[0]).toEqual(
      expect.objectContaining({ action: 'configured', changes: [{ path: 'spec.replicas', manager: 'kubectl-edit' }] }),
    );
    expect((afterDry!.spec as { replicas: number }).replicas).toBe(5);
    // the re-apply restores our value, takes the field back and keeps the other manager's label
    expect((repaired!.spec as { replicas: number }).replicas).toBe(2);
    expect(repaired!.metadata.labels).toEqual({ app: 'web', team: 'x' });
    expect(managers(repaired!)['kubectl-edit']).toEqual(['metadata.labels.team']);
  });

  it('drops a field its manager no longer applies, unless another manager owns it', async () => {
    const { ports } = await runningCluster();
    const cm = (data: Record<string, string>): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'default' },
      data,
    });
    await ports.kube.apply([cm({ a: '1', b: '2' })], CLM);
    await ports.kube.apply([cm({ b: '2', x: '9' })], { fieldManager: 'other' });

    const result = await ports.kube.apply([cm({ a: '1' })], CLM);
    const [live] = await ports.kube.list('ConfigMap', { namespace: 'default' });

    expect(result[0]!.action).toBe('unchanged');
    // b is still the other manager's; nothing was removed
    expect(live!.data).toEqual({ a: '1', b: '2', x: '9' });
    await ports.kube.apply([cm({ b: '2', x: '9' })], { fieldManager: 'gone' });
    await ports.kube.apply([cm({})], { fieldManager: 'other' });
    await ports.kube.apply([cm({})], { fieldManager: 'gone' });
    const [after] = await ports.kube.list('ConfigMap', { namespace: 'default' });
    expect(after!.data).toEqual({ a: '1' });
  });
});

describe('simulated workload status', () => {
  it('reports a Deployment in progress until its pods are Ready, then current; never-ready pods keep it in progress', async () => {
    const { world, ports } = await runningCluster();
    await ports.kube.apply([deployment('web:1')], CLM);
    const [starting] = await ports.kube.list('Deployment', { namespace: 'default' });

    world.advance(60_000);
    const [ready] = await ports.kube.list('Deployment', { namespace: 'default' });
    await ports.kube.apply([deployment('web:2', { 'simulate.clm.io/never-ready': 'true' })], CLM);
    world.advance(600_000);
    const [stuck] = await ports.kube.list('Deployment', { namespace: 'default' });

    expect(objectHealth(starting!).state).toBe('in-progress');
    expect(objectHealth(ready!)).toEqual({ state: 'current', reason: '2/2 available, 2/2 updated' });
    expect(stuck!.status).toEqual(expect.objectContaining({ observedGeneration: 2, updatedReplicas: 2 }));
    expect(objectHealth(stuck!)).toEqual({ state: 'in-progress', reason: '0/2 available, 2/2 updated' });
  });

  it('rolls a DaemonSet to a new template one pod at a time', async () => {
    const { world, ports } = await runningCluster({}, 3);
    const ds = (image: string): KubeObject => ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image }] } },
      },
    });
    await ports.kube.apply([ds('a:1')], CLM);
    world.advance(60_000);
    await ports.kube.apply([ds('a:2')], CLM);
    const [changed] = await ports.kube.list('DaemonSet', { namespace: 'default' });
    world.advance(600_000);
    const [rolled] = await ports.kube.list('DaemonSet', { namespace: 'default' });

    expect(objectHealth(changed!).state).toBe('in-progress');
    expect(objectHealth(rolled!)).toEqual({ state: 'current', reason: '3/3 available, 3/3 updated' });
  });
});
