import { nodePoolStackName } from '../../lambdas/core/cloudformation/stack-names';
import { clusterRef, runningCluster, testCluster } from './fixtures';

const CLUSTER = testCluster().id;

function scenario(pdb: Record<string, unknown>, replicas = 3, extra: Record<string, unknown> = {}) {
  return {
    timings: { podStartSeconds: 10, podTerminationSeconds: 30 },
    clusters: {
      [CLUSTER]: {
        workloads: [{ kind: 'Deployment' as const, name: 'web', replicas }],
        pdbs: [{ name: 'web', selector: { app: 'web' }, ...pdb }],
      },
    },
    ...extra,
  };
}

describe('simulated PodDisruptionBudgets', () => {
  it('blocks an eviction while the replacement is not Ready, and allows it once it is', async () => {
    const { world, ports } = await runningCluster(scenario({ maxUnavailable: 1 }));
    const [first, second] = await ports.kube.listPods({ namespace: 'default' });
    const before = await ports.kube.listPdbs('default');

    const one = await ports.kube.evictPod('default', first.name);
    const blocked = await ports.kube.evictPod('default', second.name);
    const whileBlocked = await ports.kube.listPdbs();
    world.advance(10_000);
    const two = await ports.kube.evictPod('default', second.name);

    expect(before).toEqual([
      {
        namespace: 'default',
        name: 'web',
        selector: { matchLabels: { app: 'web' } },
        maxUnavailable: 1,
        disruptionsAllowed: 1,
        currentHealthy: 3,
        desiredHealthy: 2,
        expectedPods: 3,
      },
    ]);
    expect([one, blocked, two]).toEqual(['evicted', 'blocked-by-pdb', 'evicted']);
    expect(whileBlocked[0]).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 });
    expect(world.invariants()).toEqual({ pdbViolations: 0, nodesTerminatedTwice: 0, details: [] });
  });

  it.each([
    [{ minAvailable: 2 }, 2, 4, 2],
    [{ minAvailable: '50%' }, 2, 4, 2],
    [{ maxUnavailable: '30%' }, 2, 4, 2],
    [{ minAvailable: 4 }, 4, 4, 0],
  ])('computes allowed disruptions like the disruption controller for %j', async (pdb, desired, expected, allowed) => {
    const { ports } = await runningCluster(scenario(pdb, 4));

    expect((await ports.kube.listPdbs())[0]).toMatchObject({
      desiredHealthy: desired,
      expectedPods: expected,
      currentHealthy: 4,
      disruptionsAllowed: allowed,
    });
  });

  it('lets an unhealthy pod go while the budget is met, but not a healthy one', async () => {
    const { ports, world } = await runningCluster({
      clusters: {
        [CLUSTER]: {
          workloads: [
            { kind: 'Deployment', name: 'web', replicas: 3 },
            { kind: 'Pod', name: 'straggler', labels: { app: 'web' } },
          ],
          pdbs: [{ name: 'web', selector: { app: 'web' }, minAvailable: 3 }],
        },
      },
      faults: { podsNeverReady: [{ namePrefix: 'straggler' }] },
    });
    const healthy = (await ports.kube.listPods({ namespace: 'default' })).find((p) => p.ready)!;

    expect(await ports.kube.evictPod('default', healthy.name)).toBe('blocked-by-pdb');
    expect(await ports.kube.evictPod('default', 'straggler')).toBe('evicted');
    expect(world.invariants().pdbViolations).toBe(0);
  });

  it('refuses to evict an unhealthy pod while the budget is not met', async () => {
    const { ports } = await runningCluster(
      scenario({ minAvailable: 2 }, 3, { faults: { podsNeverReady: [{ namePrefix: 'web-' }] } }),
    );
    const pods = await ports.kube.listPods({ namespace: 'default' });

    expect(pods.every((p) => !p.ready)).toBe(true);
    expect(await ports.kube.evictPod('default', pods[0].name)).toBe('blocked-by-pdb');
  });

  it('refuses evictions until the scenario time a blocked PDB is released', async () => {
    const { world, ports } = await runningCluster(scenario({ maxUnavailable: 1, blockEvictionsUntilSeconds: 600 }));
    const [pod] = await ports.kube.listPods({ namespace: 'default' });
    const early = await ports.kube.evictPod('default', pod.name);
    const pdbEarly = (await ports.kube.listPdbs())[0];

    world.advanceTo(Date.parse(world.scenario.startTime) + 600_000);
    const late = await ports.kube.evictPod('default', pod.name);

    expect(world.now - Date.parse('2026-01-01T00:00:00Z')).toBe(600_000);
    expect(early).toBe('blocked-by-pdb');
    expect(pdbEarly.disruptionsAllowed).toBe(0);
    expect(late).toBe('evicted');
  });

  it('counts a forced delete that leaves a PDB below its minimum', async () => {
    const { ports, world } = await runningCluster(scenario({ minAvailable: 3 }));
    const [pod] = await ports.kube.listPods({ namespace: 'default' });

    expect(await ports.kube.evictPod('default', pod.name)).toBe('blocked-by-pdb');
    expect(await ports.kube.deletePod('default', pod.name)).toBe('deleted');
    expect(await ports.kube.deletePod('default', 'nope')).toBe('not-found');

    const inv = world.invariants();
    expect(inv.pdbViolations).toBe(1);
    expect(inv.details).toEqual([
      `t=220s cluster ${CLUSTER}: PDB default/web has 2 healthy pods, needs 3, after forced delete of pod default/${pod.name}`,
    ]);
  });

  it('counts a node terminated with pods a PDB needs still on it', async () => {
    const { world, ports, cluster } = await runningCluster(scenario({ maxUnavailable: 1 }), 3);
    const nodeOf = async (name: string) => (await ports.kube.listNodes()).find((n) => n.name === name)!;
    const pods = await ports.kube.listPods({ namespace: 'default' });
    const crowded = pods[0].nodeName!;
    const instanceId = (await nodeOf(crowded)).providerId.split('/').pop()!;

    await ports.pools.terminate(clusterRef(cluster), instanceId, false);
    world.runUntilIdle();

    expect(pods.filter((p) => p.nodeName === crowded).length).toBeGreaterThan(1);
    expect(world.invariants().pdbViolations).toBe(1);
    expect(world.invariants().details[0]).toContain(`after termination of instance ${instanceId}`);
  });

  it('does not count pods lost while the cluster is being decommissioned', async () => {
    const { world, ports, cluster } = await runningCluster(scenario({ maxUnavailable: 1 }), 3);
    const decommissioning = world.forCluster({ ...cluster, lifecycleStatus: 'decommission-requested' });

    await decommissioning.stacks.delete(nodePoolStackName(cluster, 'default-worker'), {
      disableTerminationProtection: true,
    });
    world.runUntilIdle();

    expect(await ports.kube.listPods({ namespace: 'default' })).toHaveLength(3);
    expect((await ports.kube.listPods({ namespace: 'default' })).every((p) => !p.nodeName)).toBe(true);
    expect(world.invariants().pdbViolations).toBe(0);
  });

  it('does not count pods lost after markDecommissioning, but did before', async () => {
    const { world, ports, cluster } = await runningCluster(scenario({ minAvailable: 3 }), 3);
    const [first] = await ports.kube.listPods({ namespace: 'default' });
    await ports.kube.deletePod('default', first.name);
    const before = world.invariants().pdbViolations;

    world.markDecommissioning(cluster.id);
    await ports.stacks.delete(nodePoolStackName(cluster, 'default-worker'), { disableTerminationProtection: true });
    world.runUntilIdle();

    expect(before).toBe(1);
    expect(world.invariants().pdbViolations).toBe(1);
  });

  it('does not count a node that was cordoned and drained within the budget first', async () => {
    const { world, ports, cluster } = await runningCluster(scenario({ maxUnavailable: 1 }), 3);
    const node = (await ports.kube.listPods({ namespace: 'default' }))[0].nodeName!;
    const instanceId = (await ports.kube.listNodes())
      .find((n) => n.name === node)!
      .providerId.split('/')
      .pop()!;
    await ports.kube.patchNode(node, { unschedulable: true });

    let rounds = 0;
    for (
      let left = await ports.kube.listPods({ nodeName: node });
      left.some((p) => !p.deleting);
      left = await ports.kube.listPods({ nodeName: node })
    ) {
      for (const pod of left.filter((p) => !p.deleting)) await ports.kube.evictPod(pod.namespace, pod.name);
      world.advance(10_000);
      rounds += 1;
    }
    world.runUntilIdle();
    await ports.pools.terminate(clusterRef(cluster), instanceId, true);
    world.runUntilIdle();

    expect(rounds).toBe(3);
    expect((await ports.kube.listPods({ namespace: 'default' })).filter((p) => p.ready)).toHaveLength(3);
    expect(world.invariants()).toEqual({ pdbViolations: 0, nodesTerminatedTwice: 0, details: [] });
  });

  it('returns not-found when evicting a pod that does not exist', async () => {
    const { ports } = await runningCluster(scenario({ maxUnavailable: 1 }));

    expect(await ports.kube.evictPod('default', 'ghost')).toBe('not-found');
  });
});
