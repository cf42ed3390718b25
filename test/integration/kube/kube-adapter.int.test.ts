import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDeletions } from '../../../lambdas/core/deletions/parse-deletions';
import { runDeletions } from '../../../lambdas/tasks/manifests/run-deletions';
import type { KubeObject, PodInfo } from '../../../lambdas/ports/kube-cluster';
import { eventually } from '../support/eventually';
import { FIELD_MANAGER, KWOK_NODES, KubeExampleCluster, ordered } from '../support/kube-example-cluster';

// The Kubernetes adapter against a real kube-apiserver + controller-manager + scheduler, KWOK as the kubelets.
const cluster = new KubeExampleCluster();
const kube = cluster.kube;
const FM = FIELD_MANAGER;

const podsOf = (namespace: string, selector: string) => kube.listPods({ namespace, labelSelector: selector });
const running = (pods: PodInfo[]) => pods.filter((p) => p.phase === 'Running' && p.ready && !p.deleting);

beforeAll(() => cluster.setUp());
afterAll(() => cluster.tearDown(), 180_000);

describe('ClientNodeKubeCluster on kube-apiserver + KWOK', () => {
  it('server-side applies the example manifests, CRD first then the objects using it', async () => {
    const [first, rest] = ordered(cluster.exampleObjects());
    expect(first.map((o) => o.kind)).toContain('CustomResourceDefinition');
    expect(rest.map((o) => o.kind)).toContain('BackupPolicy');
    const created = await kube.apply(first, { fieldManager: FM });
    expect(created.map((r) => r.action)).toEqual(first.map(() => 'created'));
    // The CRD is served a moment after it is created: the adapter waits for its kind (appliedCrd) or we retry.
    const results = await eventually('objects using the CRD applied', () => kube.apply(rest, { fieldManager: FM }));
    expect(results).toHaveLength(rest.length);
    const policies = await kube.list('backuppolicies', { namespace: 'data' });
    expect(policies.map((p) => p.metadata.name)).toEqual([expect.any(String)]);
  });

  it('re-applying the same manifests is a no-op', async () => {
    const [first, rest] = ordered(cluster.exampleObjects());
    const again = await kube.apply([...first, ...rest], { fieldManager: FM });
    expect(again.filter((r) => r.action !== 'unchanged')).toEqual([]);
  });

  it('the real scheduler places the example workloads on the KWOK nodes and KWOK runs them', async () => {
    await eventually(
      'web, coredns and database pods running',
      async () => {
        const [web, dns, db] = await Promise.all([
          kube.listPods({ namespace: 'web' }),
          kube.listPods({ namespace: 'kube-system' }),
          kube.listPods({ namespace: 'data' }),
        ]);
        return running(web).length >= 2 && running(dns).length >= 2 && running(db).length >= 2;
      },
      120_000,
    );
    const pods = await kube.listPods({ namespace: 'web' });
    expect(pods.every((p) => p.nodeName && KWOK_NODES.includes(p.nodeName))).toBe(true);
  });

  it('runs each deletions.yaml selector kind (name, selector, labels + has_owner) with its propagation policy', async () => {
    const deletions = parseDeletions(
      readFileSync(join(cluster.rendered.dir, 'deletions.yaml'), 'utf8'),
      'deletions.yaml',
    );
    const labels = (extra: Record<string, string>) => ({ ...extra });
    const owner = (
      await kube.apply(
        [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'canary-owner', namespace: 'data' } }],
        { fieldManager: FM },
      )
    )[0]!;
    expect(owner.action).toBe('created');
    const ownerUid = (await kube.list('ConfigMap', { namespace: 'data' })).find(
      (c) => c.metadata.name === 'canary-owner',
    )!.metadata.uid!;
    const job = (name: string, version: string): KubeObject => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name, namespace: 'data', labels: labels({ app: 'backup-tool', version }) },
      spec: {
        template: {
          metadata: { labels: { app: 'backup-tool', version } },
          spec: { restartPolicy: 'Never', containers: [{ name: 'backup', image: 'backup-tool:1' }] },
        },
      },
    });
    await kube.apply(
      [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'load-test' } },
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web-frontend', namespace: 'web' },
          spec: {
            replicas: 1,
            selector: { matchLabels: { app: 'web-frontend' } },
            template: {
              metadata: { labels: { app: 'web-frontend' } },
              spec: { containers: [{ name: 'c', image: 'web:1' }] },
            },
          },
        },
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'canary', namespace: 'web', labels: { experiment: 'legacy-canary' } },
        },
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name: 'canary-owned',
            namespace: 'data',
            labels: { experiment: 'legacy-canary' },
            ownerReferences: [
              { apiVersion: 'v1', kind: 'ConfigMap', name: 'canary-owner', uid: ownerUid } as {
                kind: string;
                name: string;
                uid: string;
              },
            ],
          },
        },
        job('backup-v1', 'v1'),
        job('backup-v2', 'v2'),
      ],
      { fieldManager: FM },
    );
    await eventually(
      'backup job pods exist',
      async () => (await podsOf('data', 'app=backup-tool,version=v1')).length === 1,
    );

    const deleted = await runDeletions(kube, [...deletions.preApply, ...deletions.postApply], Date.UTC(2026, 10, 22));
    expect(deleted.sort()).toEqual(
      ['ConfigMap web/canary', 'Deployment web/web-frontend', 'Job data/backup-v1', 'Namespace load-test'].sort(),
    );

    const configMaps = (await kube.list('ConfigMap', { labelSelector: 'experiment=legacy-canary' })).map(
      (c) => `${c.metadata.namespace}/${c.metadata.name}`,
    );
    expect(configMaps).toEqual(['data/canary-owned']); // has_owner: false keeps the owned one
    // Foreground: the Job goes only after its pods; both end up gone, v2 (version!=v2 excludes it) stays.
    await eventually(
      'backup-v1 and its pods gone',
      async () =>
        (await kube.list('Job', { namespace: 'data' })).every((j) => j.metadata.name !== 'backup-v1') &&
        (await podsOf('data', 'app=backup-tool,version=v1')).length === 0,
    );
    expect((await kube.list('Job', { namespace: 'data' })).map((j) => j.metadata.name)).toEqual(['backup-v2']);
    const namespace = (await kube.list('Namespace')).find((n) => n.metadata.name === 'load-test');
    if (namespace) {
      expect(namespace.metadata.annotations).toMatchObject({
        'zalando.org/delete-date': '2026-11-22',
        'zalando.org/delete-namespace': 'load-test',
      });
      expect((namespace.status as { phase?: string }).phase).toBe('Terminating');
    }
    await expect(runDeletions(kube, deletions.preApply, Date.UTC(2026, 10, 22))).resolves.toEqual([]); // name not found is fine
  });

  it('Orphan propagation leaves the dependents behind; Background takes them', async () => {
    const dep = (name: string): KubeObject => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } },
      },
    });
    await kube.apply([dep('orphan-me'), dep('take-me')], { fieldManager: FM });
    const replicaSets = async (app: string) =>
      (await kube.list('ReplicaSet', { namespace: 'web', labelSelector: `app=${app}` })).filter(
        (r) => !r.metadata.deletionTimestamp,
      );
    await eventually(
      'replica sets created',
      async () => (await replicaSets('orphan-me')).length === 1 && (await replicaSets('take-me')).length === 1,
    );
    expect(
      await kube.delete({ kind: 'deployment', namespace: 'web', name: 'orphan-me' }, { propagationPolicy: 'Orphan' }),
    ).toBe('deleted');
    expect(
      await kube.delete(
        { kind: 'deployments.v1.apps', namespace: 'web', name: 'take-me' },
        { propagationPolicy: 'Background' },
      ),
    ).toBe('deleted');
    await eventually('take-me replica set collected', async () => (await replicaSets('take-me')).length === 0);
    const orphaned = await replicaSets('orphan-me');
    expect(orphaned).toHaveLength(1);
    expect(orphaned[0]!.metadata.ownerReferences ?? []).toEqual([]);
    await kube.delete({ kind: 'ReplicaSet', namespace: 'web', name: orphaned[0]!.metadata.name });
  });

  it('eviction is refused (429) while a PodDisruptionBudget allows no disruption, and allowed once it does', async () => {
    const app = 'pdb-guarded';
    await kube.apply(
      [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: app, namespace: 'web' },
          spec: {
            replicas: 2,
            selector: { matchLabels: { app } },
            template: { metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } },
          },
        },
        {
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudget',
          metadata: { name: app, namespace: 'web' },
          spec: { minAvailable: 2, selector: { matchLabels: { app } } },
        },
      ],
      { fieldManager: FM },
    );
    await eventually(
      '2 pods running, PDB observed',
      async () =>
        running(await podsOf('web', `app=${app}`)).length === 2 &&
        (await kube.listPdbs('web')).some((p) => p.name === app && p.currentHealthy === 2),
    );
    const pdb = (await kube.listPdbs('web')).find((p) => p.name === app)!;
    expect(pdb).toMatchObject({ minAvailable: 2, disruptionsAllowed: 0, expectedPods: 2 });
    const victim = running(await podsOf('web', `app=${app}`))[0]!;
    await expect(kube.evictPod('web', victim.name)).resolves.toBe('blocked-by-pdb');
    expect((await podsOf('web', `app=${app}`)).find((p) => p.name === victim.name)?.deleting).toBe(false);

    await kube.apply(
      [
        {
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudget',
          metadata: { name: app, namespace: 'web' },
          spec: { minAvailable: 1, selector: { matchLabels: { app } } },
        },
      ],
      { fieldManager: FM },
    );
    await eventually(
      'PDB allows one disruption',
      async () => (await kube.listPdbs('web')).find((p) => p.name === app)?.disruptionsAllowed === 1,
    );
    await expect(kube.evictPod('web', victim.name)).resolves.toBe('evicted');
    await expect(kube.evictPod('web', 'no-such-pod')).resolves.toBe('not-found');
  });

  it('a cordoned node gets no new pods; evicted ReplicaSet and StatefulSet pods come back on other nodes', async () => {
    const target = KWOK_NODES[0]!;
    await kube.patchNode(target, { unschedulable: true, labels: { 'lifecycle-status': 'draining' } });
    const cordoned = (await kube.listNodes()).find((n) => n.name === target)!;
    expect(cordoned).toMatchObject({
      unschedulable: true,
      labels: expect.objectContaining({ 'lifecycle-status': 'draining' }),
    });

    // Make sure something owned by a ReplicaSet and by a StatefulSet runs on the target first.
    const onTarget = async () =>
      (await kube.listPods({ nodeName: target })).filter(
        (p) => !p.deleting && (p.owner?.kind === 'ReplicaSet' || p.owner?.kind === 'StatefulSet'),
      );
    const before = await onTarget();
    expect(before.length).toBeGreaterThan(0);
    const evictedKinds = new Set<string>();
    await eventually(
      'every ReplicaSet/StatefulSet pod evicted from the cordoned node (retrying while PDBs block)',
      async () => {
        for (const pod of await onTarget()) {
          if ((await kube.evictPod(pod.namespace, pod.name, 0)) === 'evicted') evictedKinds.add(pod.owner!.kind);
        }
        return (await onTarget()).length === 0;
      },
      120_000,
    );
    expect([...evictedKinds].length).toBeGreaterThan(0);

    const beforeNames = new Set(before.map((p) => `${p.namespace}/${p.owner!.kind}`));
    await eventually(
      'replacements running elsewhere',
      async () => {
        const all = await kube.listPods();
        for (const key of beforeNames) {
          const [namespace] = key.split('/');
          const replacements = all.filter(
            (p) =>
              p.namespace === namespace && !before.some((b) => b.uid === p.uid) && p.phase === 'Running' && !p.deleting,
          );
          if (replacements.length === 0 || replacements.some((p) => p.nodeName === target)) return false;
        }
        return true;
      },
      120_000,
    );
    expect(await onTarget()).toEqual([]);
    await kube.patchNode(target, { unschedulable: false, labels: { 'lifecycle-status': null } });
  });
});
