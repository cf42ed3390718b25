import { nodePoolStackName } from '../../lambdas/core/cloudformation/stack-names';
import { NotFoundError } from '../../lambdas/shared/errors';
import { clusterRef, runningCluster } from './fixtures';

const WORKERS = 'default-worker';

async function pool(r: Awaited<ReturnType<typeof runningCluster>>) {
  return (await r.ports.pools.getPool(clusterRef(r.cluster), WORKERS))!;
}

describe('simulated Auto Scaling and EC2', () => {
  it('launches instances balanced over the AZs and boots them in instanceBootSeconds', async () => {
    const r = await runningCluster({ timings: { instanceBootSeconds: 90 } }, 0);
    await r.ports.pools.scale(clusterRef(r.cluster), WORKERS, 6);

    const pending = await pool(r);
    r.world.advance(89_999);
    const stillPending = await pool(r);
    const nodesBefore = await r.ports.kube.listNodes();
    r.world.advance(1);
    const booted = await pool(r);
    const nodesAfter = await r.ports.kube.listNodes();

    expect(pending.desired).toBe(6);
    expect(pending.instances.map((i) => i.lifecycleState)).toEqual(Array(6).fill('Pending'));
    expect(stillPending.instances.every((i) => i.lifecycleState === 'Pending')).toBe(true);
    expect(booted.instances.every((i) => i.lifecycleState === 'InService' && i.healthy)).toBe(true);
    expect(nodesBefore).toHaveLength(1);
    expect(nodesAfter.map((n) => n.providerId.split('/').pop()).sort()).toEqual(
      [nodesBefore[0].providerId.split('/').pop(), ...booted.instances.map((i) => i.instanceId)].sort(),
    );
    const perAz = booted.instances.reduce<Record<string, number>>(
      (acc, i) => ({ ...acc, [i.availabilityZone]: (acc[i.availabilityZone] ?? 0) + 1 }),
      {},
    );
    expect(perAz).toEqual({ 'eu-central-1a': 2, 'eu-central-1b': 2, 'eu-central-1c': 2 });
    expect(booted.instances.every((i) => /^i-[0-9a-f]{17}$/.test(i.instanceId))).toBe(true);
  });

  it('joins a booted instance as a NotReady Node that turns Ready nodeReadySeconds later', async () => {
    const r = await runningCluster({ timings: { instanceBootSeconds: 90, nodeReadySeconds: 20 } }, 0);
    await r.ports.pools.scale(clusterRef(r.cluster), WORKERS, 1);
    const readyOf = async () => {
      const [instance] = (await pool(r)).instances;
      return (await r.ports.kube.listNodes()).find((n) => n.providerId.endsWith(`/${instance!.instanceId}`))?.ready;
    };

    r.world.advance(90_000);
    const joined = await readyOf();
    r.world.advance(19_999);
    const stillNotReady = await readyOf();
    r.world.advance(1);

    expect([joined, stillNotReady, await readyOf()]).toEqual([false, false, true]);
  });

  it('makes running instances outdated when the launch template changes, and launches new ones on the new version', async () => {
    const r = await runningCluster({}, 3);
    const before = await pool(r);

    await r.deployPool(WORKERS, { userData: 'v2' });
    r.world.runUntilIdle();
    const after = await pool(r);
    await r.ports.pools.scale(clusterRef(r.cluster), WORKERS, 4);
    r.world.runUntilIdle();
    const surged = await pool(r);

    expect(before.instances.map((i) => [i.outdated, i.launchTemplateVersion])).toEqual(Array(3).fill([false, '1']));
    expect(after.instances.map((i) => i.outdated)).toEqual([true, true, true]);
    const fresh = surged.instances.filter((i) => !i.outdated);
    expect(fresh).toHaveLength(1);
    expect(fresh[0].launchTemplateVersion).toBe('2');
  });

  it('treats a changed instance type as outdated', async () => {
    const r = await runningCluster({}, 2);
    await r.deployPool(WORKERS, { instanceType: 'm5.xlarge' });
    r.world.runUntilIdle();

    expect((await pool(r)).instances.every((i) => i.outdated && i.instanceType === 'm5.large')).toBe(true);
  });

  it('replaces an instance terminated without decrement, and not one terminated with decrement', async () => {
    const r = await runningCluster({ timings: { instanceTerminateSeconds: 30 } }, 3);
    const [first, second] = (await pool(r)).instances;

    await r.ports.pools.terminate(clusterRef(r.cluster), first.instanceId, false);
    const replacing = await pool(r);
    r.world.runUntilIdle();
    await r.ports.pools.terminate(clusterRef(r.cluster), second.instanceId, true);
    r.world.runUntilIdle();
    const final = await pool(r);

    expect(replacing.desired).toBe(3);
    expect(replacing.instances.find((i) => i.instanceId === first.instanceId)?.lifecycleState).toBe('Terminating');
    expect(replacing.instances.filter((i) => i.lifecycleState === 'Pending')).toHaveLength(1);
    expect(final.desired).toBe(2);
    expect(final.instances.map((i) => i.instanceId)).not.toContain(first.instanceId);
    expect(final.instances.map((i) => i.instanceId)).not.toContain(second.instanceId);
    expect(final.instances).toHaveLength(2);
    expect(r.world.invariants().nodesTerminatedTwice).toBe(0);
  });

  it('lowers MinSize when a decrement would go below it', async () => {
    const r = await runningCluster({}, 2);
    const [a, b] = (await pool(r)).instances;
    await r.ports.pools.terminate(clusterRef(r.cluster), a.instanceId, true);
    await r.ports.pools.terminate(clusterRef(r.cluster), b.instanceId, true);

    expect(await pool(r)).toMatchObject({ desired: 0, min: 0 });
  });

  it('counts a second termination of the same instance as an invariant violation and does nothing else', async () => {
    const r = await runningCluster({}, 2);
    const [a] = (await pool(r)).instances;
    await r.ports.pools.terminate(clusterRef(r.cluster), a.instanceId, true);
    const once = await pool(r);
    await r.ports.pools.terminate(clusterRef(r.cluster), a.instanceId, true);
    r.world.runUntilIdle();
    await r.ports.pools.terminate(clusterRef(r.cluster), a.instanceId, false);

    const inv = r.world.invariants();
    expect(inv.nodesTerminatedTwice).toBe(2);
    expect(inv.details[0]).toContain(`instance ${a.instanceId}`);
    expect((await pool(r)).desired).toBe(once.desired);
    await expect(r.ports.pools.terminate(clusterRef(r.cluster), 'i-00000000000000000', true)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('widens MinSize/MaxSize when scaling beyond them, and marks a pool for decommission', async () => {
    const r = await runningCluster({}, 2);
    await r.ports.pools.scale(clusterRef(r.cluster), WORKERS, 25);
    const scaled = await pool(r);
    await r.ports.pools.markForDecommission(clusterRef(r.cluster), WORKERS);

    expect(scaled).toMatchObject({ desired: 25, max: 25 });
    expect(await pool(r)).toMatchObject({ min: 0, desired: 25 });
  });

  it('keeps the desired capacity on stack updates without DesiredCapacity, as AWS does', async () => {
    const r = await runningCluster({}, 2);
    await r.deployPool(WORKERS, { desired: undefined, userData: 'v1' });
    r.world.runUntilIdle();
    await r.ports.pools.scale(clusterRef(r.cluster), WORKERS, 5);
    await r.deployPool(WORKERS, { desired: undefined, userData: 'v2' });
    r.world.runUntilIdle();

    expect((await pool(r)).desired).toBe(5);
  });

  it('terminates the instances of a deleted pool stack and removes their nodes', async () => {
    const r = await runningCluster({}, 3);
    await r.ports.stacks.delete(nodePoolStackName(r.cluster, WORKERS), { disableTerminationProtection: true });
    r.world.runUntilIdle();

    expect(await r.ports.pools.getPool(clusterRef(r.cluster), WORKERS)).toBeUndefined();
    expect((await r.ports.kube.listNodes()).map((n) => n.labels['node.kubernetes.io/node-pool'])).toEqual([
      'master-default',
    ]);
  });
});
