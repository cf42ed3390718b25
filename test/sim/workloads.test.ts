import type { KubeObject } from '../../lambdas/ports/kube-cluster';
import { clusterRef, runningCluster, testCluster } from './fixtures';

const CLUSTER = testCluster().id;
const OPTS = { fieldManager: 'clm' };

describe('simulated nodes, scheduler and controllers', () => {
  it('joins nodes when instances are InService, with the pool, zone, role and lifecycle labels', async () => {
    const { ports, cluster } = await runningCluster({}, 1);
    const nodes = await ports.kube.listNodes();
    const pool = await ports.pools.getPool(clusterRef(cluster), 'default-worker');

    expect(nodes.map((n) => n.name)).toEqual([
      'ip-10-0-0-4.eu-central-1.compute.internal',
      'ip-10-0-0-5.eu-central-1.compute.internal',
    ]);
    const [master, worker] = nodes;
    expect(master.labels).toMatchObject({
      'node.kubernetes.io/node-pool': 'master-default',
      'node.kubernetes.io/role': 'master',
      'lifecycle-status': 'ready',
    });
    expect(master.taints).toEqual([{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }]);
    expect(worker).toMatchObject({
      providerId: `aws:///eu-central-1a/${pool!.instances[0].instanceId}`,
      ready: true,
      unschedulable: false,
      zone: 'eu-central-1a',
      taints: [],
      labels: {
        'node.kubernetes.io/node-pool': 'default-worker',
        'node.kubernetes.io/role': 'worker',
        'lifecycle-status': 'ready',
        'topology.kubernetes.io/zone': 'eu-central-1a',
        'kubernetes.io/hostname': worker.name,
      },
    });
  });

  it('recreates a Deployment pod as soon as one is evicted, and the evicted pod goes after its grace period', async () => {
    const { world, ports } = await runningCluster({
      timings: { podTerminationSeconds: 30 },
      clusters: { [CLUSTER]: { workloads: [{ kind: 'Deployment', name: 'web', replicas: 3 }] } },
    });
    const [victim] = await ports.kube.listPods({ namespace: 'default' });

    expect(await ports.kube.evictPod('default', victim.name)).toBe('evicted');
    const during = await ports.kube.listPods({ namespace: 'default' });
    world.advance(30_000);
    const after = await ports.kube.listPods({ namespace: 'default' });

    expect(during).toHaveLength(4);
    expect(during.find((p) => p.name === victim.name)).toMatchObject({ deleting: true, ready: false });
    expect(after).toHaveLength(3);
    expect(after.map((p) => p.name)).not.toContain(victim.name);
    expect(after.every((p) => p.owner?.kind === 'ReplicaSet' && p.owner.name.startsWith('web-'))).toBe(true);
  });

  it('rolls a Deployment to a new ReplicaSet when its pod template changes', async () => {
    const { world, ports } = await runningCluster({
      clusters: { [CLUSTER]: { workloads: [{ kind: 'Deployment', name: 'web', replicas: 2 }] } },
    });
    const [web] = await ports.kube.list('deployments', { namespace: 'default' });
    const changed = structuredClone(web) as unknown as {
      spec: { template: { metadata: { labels: Record<string, string> } } };
      status?: unknown;
    };
    delete changed.status;
    changed.spec.template.metadata.labels.version = 'v2';

    await ports.kube.apply([changed as unknown as KubeObject], OPTS);
    world.runUntilIdle();
    const sets = await ports.kube.list('replicasets', { namespace: 'default' });
    const [status] = await ports.kube.list('deployments', { namespace: 'default' });

    expect(sets.map((rs) => (rs.spec as { replicas: number }).replicas).sort()).toEqual([0, 2]);
    expect(status.status).toMatchObject({ replicas: 2, readyReplicas: 2, updatedReplicas: 2 });
  });

  it('reschedules a StatefulSet pod only in the zone its volume is bound to', async () => {
    const { world, ports } = await runningCluster(
      {
        clusters: {
          [CLUSTER]: { workloads: [{ kind: 'StatefulSet', name: 'db', replicas: 1, volumeClaims: ['data'] }] },
        },
      },
      6,
    );
    const [db] = await ports.kube.listPods({ namespace: 'default' });
    const nodes = await ports.kube.listNodes();
    const home = nodes.find((n) => n.name === db.nodeName)!;
    const sameZone = nodes.filter(
      (n) => n.zone === home.zone && n.name !== home.name && n.labels['node.kubernetes.io/role'] === 'worker',
    );

    await ports.kube.patchNode(home.name, { unschedulable: true });
    await ports.kube.evictPod('default', 'db-0');
    world.runUntilIdle();
    const [moved] = await ports.kube.listPods({ namespace: 'default' });
    await ports.kube.patchNode(moved.nodeName!, { unschedulable: true });
    await ports.kube.evictPod('default', 'db-0');
    world.runUntilIdle();
    const [stuck] = await ports.kube.listPods({ namespace: 'default' });

    expect(home.volumesAttached).toBe(true);
    expect(sameZone).toHaveLength(1);
    expect(moved).toMatchObject({ name: 'db-0', nodeName: sameZone[0].name, ready: true });
    expect(moved.uid).not.toBe(db.uid);
    expect(stuck.nodeName).toBeUndefined();
    expect(stuck.phase).toBe('Pending');
  });

  it('runs one DaemonSet pod per tolerated node, never moves it, and covers new nodes', async () => {
    const tolerations = [{ operator: 'Exists' as const }];
    const { world, ports, cluster } = await runningCluster(
      {
        clusters: {
          [CLUSTER]: {
            workloads: [
              { kind: 'DaemonSet', name: 'agent', namespace: 'kube-system', tolerations },
              { kind: 'DaemonSet', name: 'workers-only', namespace: 'kube-system' },
            ],
          },
        },
      },
      2,
    );
    const byName = async (prefix: string) =>
      (await ports.kube.listPods({ namespace: 'kube-system' })).filter((p) => p.name.startsWith(`${prefix}-`));
    const agents = await byName('agent');
    const target = agents.find((p) => p.nodeName?.includes('10-0-32'))!;

    await ports.kube.patchNode(target.nodeName!, {
      unschedulable: true,
      taints: [{ key: 'decommission-pending', value: 'rolling-upgrade', effect: 'NoSchedule' }],
    });
    world.runUntilIdle();
    const afterCordon = await byName('agent');
    await ports.kube.evictPod('kube-system', target.name);
    world.runUntilIdle();
    const afterEvict = await byName('agent');
    await ports.pools.scale(clusterRef(cluster), 'default-worker', 3);
    world.runUntilIdle();

    expect(agents).toHaveLength(3);
    expect(await byName('workers-only')).toHaveLength(3);
    expect(afterCordon.map((p) => [p.name, p.nodeName])).toEqual(agents.map((p) => [p.name, p.nodeName]));
    expect(afterEvict.map((p) => p.nodeName).sort()).toEqual(agents.map((p) => p.nodeName).sort());
    expect(afterEvict.find((p) => p.nodeName === target.nodeName)?.name).not.toBe(target.name);
    expect(await byName('agent')).toHaveLength(4);
  });

  it('schedules around NoSchedule taints, prefers nodes without PreferNoSchedule taints, and honours nodeSelector', async () => {
    const { world, ports } = await runningCluster({}, 3);
    const [, a, b, c] = await ports.kube.listNodes();
    await ports.kube.patchNode(a.name, { taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] });
    await ports.kube.patchNode(b.name, {
      taints: [{ key: 'decommission-pending', value: 'rolling-upgrade', effect: 'PreferNoSchedule' }],
    });
    await ports.kube.apply([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps' } }], OPTS);

    await ports.kube.apply(
      [1, 2, 3].map((i): KubeObject => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `p${i}`, namespace: 'apps' },
        spec: {},
      })),
      OPTS,
    );
    await ports.kube.apply(
      [
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'pinned', namespace: 'apps' },
          spec: {
            nodeSelector: { 'kubernetes.io/hostname': a.name },
            tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'x', effect: 'NoSchedule' }],
          },
        },
      ],
      OPTS,
    );
    world.runUntilIdle();
    const placed = Object.fromEntries(
      (await ports.kube.listPods({ namespace: 'apps' })).map((p) => [p.name, p.nodeName]),
    );

    expect([placed.p1, placed.p2, placed.p3]).toEqual([c.name, c.name, c.name]);
    expect(placed.pinned).toBe(a.name);
  });

  it('leaves pods that a scenario fault marks as never ready unready', async () => {
    const { ports } = await runningCluster({
      clusters: {
        [CLUSTER]: {
          workloads: [
            { kind: 'Deployment', name: 'web', replicas: 2 },
            { kind: 'Deployment', name: 'broken', replicas: 1 },
          ],
        },
      },
      faults: { podsNeverReady: [{ labelSelector: 'app=broken' }] },
    });
    const pods = await ports.kube.listPods({ namespace: 'default' });

    expect(pods.filter((p) => p.ready).map((p) => p.labels.app)).toEqual(['web', 'web']);
    // It runs (its containers started) but its readiness never passes: Running, not Ready, as a failing probe leaves it.
    expect(pods.find((p) => p.labels.app === 'broken')).toMatchObject({ ready: false, phase: 'Running' });
  });

  it('deletes a pod at once with a zero grace period, and after the given one otherwise', async () => {
    const { world, ports } = await runningCluster({
      clusters: {
        [CLUSTER]: {
          workloads: [{ kind: 'Deployment', name: 'web', replicas: 2, terminationGracePeriodSeconds: 300 }],
        },
      },
    });
    const [a, b] = await ports.kube.listPods({ namespace: 'default' });

    await ports.kube.deletePod('default', a.name, 0);
    await ports.kube.deletePod('default', b.name, 5);
    const right = (await ports.kube.listPods({ namespace: 'default' })).map((p) => p.name);
    world.advance(5_000);
    const later = (await ports.kube.listPods({ namespace: 'default' })).map((p) => p.name);

    expect(a.terminationGracePeriodSeconds).toBe(300);
    expect(right).not.toContain(a.name);
    expect(right).toContain(b.name);
    expect(later).not.toContain(b.name);
    expect(later).toHaveLength(2);
  });

  it('scales a Deployment through scaleDeployment', async () => {
    const { world, ports } = await runningCluster({
      clusters: {
        [CLUSTER]: { workloads: [{ kind: 'Deployment', name: 'coredns', namespace: 'kube-system', replicas: 2 }] },
      },
    });
    await ports.kube.scaleDeployment('kube-system', 'coredns', 0);
    world.runUntilIdle();

    expect(await ports.kube.listPods({ namespace: 'kube-system' })).toEqual([]);
  });
});
