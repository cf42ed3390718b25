import { cleanUpLeftovers, MAX_CLEANUP_PASSES } from '../../lambdas/tasks/clean-up-leftovers';
import type { RunRecord } from '../../lambdas/core/model/run';
import { fakeEnv, seedRun, testCluster, type FakeEnv } from '../support/fakes';

const cluster = testCluster();
const NAME = cluster.id;
const INIT = { targetVersion: 'decommission#1', holder: 'exec-1', action: 'decommission' } as const;
const toRef = (run: RunRecord) => ({ clusterId: run.clusterId, targetVersion: run.targetVersion, holder: run.holder });

async function arrange(): Promise<{ env: FakeEnv; ref: Parameters<typeof cleanUpLeftovers>[0] }> {
  const env = fakeEnv({ clusters: [cluster] });
  const ref = await seedRun(env, cluster, INIT).then(toRef);
  env.leftovers
    .add(NAME, { kind: 'classic-load-balancer', id: 'a0b1c2', securityGroups: ['sg-lb'] })
    .add(NAME, { kind: 'security-group', id: 'sg-lb' })
    .add(NAME, { kind: 'volume', id: 'vol-1', state: 'available' })
    .add(NAME, { kind: 'network-interface', id: 'eni-1', state: 'available' })
    .add('another-cluster', { kind: 'volume', id: 'vol-other', state: 'available' });
  return { env, ref };
}

describe('cleanUpLeftovers (decommission)', () => {
  it('deletes in passes: the load balancer first, its security group once it is gone; records every deletion', async () => {
    // Arrange
    const { env, ref } = await arrange();

    // Act
    const first = await cleanUpLeftovers(ref, env.ports);
    const second = await cleanUpLeftovers(ref, env.ports);

    // Assert
    expect(first).toMatchObject({ status: 'IN_PROGRESS', waitSeconds: 15 });
    expect(first.message).toBe(
      '3 deleted so far (now: classic-load-balancer a0b1c2, network-interface eni-1, volume vol-1); waiting for security-group sg-lb',
    );
    expect(second).toEqual({
      status: 'DONE',
      waitSeconds: 1,
      message: 'Deleted classic-load-balancer a0b1c2, network-interface eni-1, volume vol-1, security-group sg-lb',
    });
    expect([...env.leftovers.items.keys()]).toEqual(['vol-other']);
    const run = await env.progress.getRun(ref.clusterId, ref.targetVersion);
    expect(run?.leftovers).toEqual({
      passes: 2,
      deleted: ['classic-load-balancer a0b1c2', 'network-interface eni-1', 'volume vol-1', 'security-group sg-lb'],
      kept: [],
      remaining: [],
      unchecked: [],
      completedAt: expect.any(Number),
    });
  });

  it('keeps the volumes with keepVolumes and says so', async () => {
    const { env, ref } = await arrange();

    await cleanUpLeftovers(ref, env.ports, { keepVolumes: true });
    const done = await cleanUpLeftovers(ref, env.ports, { keepVolumes: true });

    expect(done.message).toBe(
      'Deleted classic-load-balancer a0b1c2, network-interface eni-1, security-group sg-lb; kept volume vol-1 (--keep-volumes)',
    );
    expect(env.leftovers.items.has('vol-1')).toBe(true);
    expect(env.leftovers.calls.filter((c) => c.includes('vol-1'))).toEqual([]);
  });

  it('a finished cleanup is not repeated when the task runs again (a retried state)', async () => {
    const { env, ref } = await arrange();
    await cleanUpLeftovers(ref, env.ports);
    await cleanUpLeftovers(ref, env.ports);
    const calls = env.leftovers.calls.length;

    const again = await cleanUpLeftovers(ref, env.ports);

    expect(again.status).toBe('DONE');
    expect(env.leftovers.calls).toHaveLength(calls);
  });

  it(`stops after ${MAX_CLEANUP_PASSES} passes with what is still in use recorded as remaining`, async () => {
    const env = fakeEnv({ clusters: [cluster] });
    const ref = await seedRun(env, cluster, INIT).then(toRef);
    env.leftovers.add(NAME, { kind: 'volume', id: 'vol-attached', state: 'in-use' });

    const steps = [];
    for (let i = 0; i < MAX_CLEANUP_PASSES; i++) steps.push(await cleanUpLeftovers(ref, env.ports));

    expect(steps.slice(0, -1).every((s) => s.status === 'IN_PROGRESS')).toBe(true);
    expect(steps.at(-1)).toMatchObject({
      status: 'DONE',
      message: `Nothing left behind to delete; still in use after ${MAX_CLEANUP_PASSES} passes, left: volume vol-attached`,
    });
    expect((await env.progress.getRun(ref.clusterId, ref.targetVersion))?.leftovers?.remaining).toEqual([
      'volume vol-attached',
    ]);
  });

  it('says which kinds the adapter could not look for', async () => {
    const env = fakeEnv({ clusters: [cluster] });
    const ref = await seedRun(env, cluster, INIT).then(toRef);
    env.leftovers.unchecked = ['classic-load-balancer', 'load-balancer'];

    const done = await cleanUpLeftovers(ref, env.ports);

    expect(done.message).toBe(
      'Nothing left behind to delete; not checked (no API client): classic-load-balancer, load-balancer',
    );
  });
});
