import { HOLDER, TARGET, rollUntilDone, setupRoll, step, type RollScenario } from './roll-harness';
import { LEASE_TTL_MS } from '../../lambdas/tasks/step/run-record';
import { rollNodePool } from '../../lambdas/tasks/roll-node-pool';
import { LeaseHeldError } from '../../lambdas/shared/errors';
import type { RollStepOutput } from '../../lambdas/contracts/cluster-update';

/**
 * Kill the rollout after a step (the step function's in-memory state is dropped; the progress store and the
 * world are kept), let the lease expire, resume with a new holder: the roll finishes, nothing is
 * terminated twice, and the drain clock of nodes already draining is not restarted.
 */
const SCENARIO: RollScenario = {
  size: 6,
  podStartMs: 25_000,
  configItems: { update_canary: 'false' },
  workloads: (env, nodes) => {
    env.kube.addWorkload(
      { kind: 'Deployment', namespace: 'default', name: 'web', replicas: 12, labels: { app: 'web' } },
      Array.from({ length: 12 }, (_, i) => nodes[i % nodes.length]!),
    );
    env.kube.addPdb('default', 'web', { app: 'web' }, 9);
  },
};

async function uninterruptedSteps(): Promise<number> {
  return (await rollUntilDone(await setupRoll(SCENARIO))).steps;
}

type World = Awaited<ReturnType<typeof setupRoll>>;

async function drainClocks(world: World): Promise<Record<string, number | undefined>> {
  const run = await world.env.progress.getRun(world.cluster.id, TARGET);
  return Object.fromEntries(Object.entries(run?.pools.workers?.nodes ?? {}).map(([id, n]) => [id, n.drainStartedAt]));
}

async function runSteps(world: World, count: number): Promise<RollStepOutput | undefined> {
  let previous: RollStepOutput | undefined;
  for (let i = 1; i <= count; i++) {
    previous = (await step(world, i, HOLDER, previous)).output;
    if (previous.status === 'DONE') break;
    world.env.clock.advance(previous.waitSeconds * 1000);
  }
  return previous;
}

function expectFinishedCleanly(world: World): void {
  const pool = world.env.pools.pools.get('workers')!;
  expect([...world.env.pools.terminated].sort()).toEqual([...world.oldInstances].sort());
  expect(world.env.pools.terminatedTwice).toBe(0);
  expect(world.env.kube.pdbViolations).toBe(0);
  expect(pool.desired).toBe(world.base);
}

describe('rollNodePool reentrancy', () => {
  it('a second holder cannot step while the first holder’s lease is alive', async () => {
    const world = await setupRoll(SCENARIO);
    await runSteps(world, 1);

    const steal = rollNodePool(
      {
        clusterId: world.cluster.id,
        targetVersion: TARGET,
        holder: 'exec-2',
        pool: 'workers',
        options: { applyOnly: false },
      },
      world.env.ports,
    );

    await expect(steal).rejects.toBeInstanceOf(LeaseHeldError);
  });

  it('resumes after a kill following any step, without terminating twice or restarting drain clocks', async () => {
    const total = await uninterruptedSteps();
    expect(total).toBeGreaterThan(5);
    for (let kill = 1; kill < total; kill++) {
      const world = await setupRoll(SCENARIO);
      await runSteps(world, kill);
      const clocksBefore = await drainClocks(world);
      world.env.clock.advance(LEASE_TTL_MS + 60_000);

      const resumed = await rollUntilDone(world, { holder: 'exec-2' });

      expect(resumed.last.status).toBe('DONE');
      expectFinishedCleanly(world);
      const clocksAfter = await drainClocks(world);
      for (const [id, startedAt] of Object.entries(clocksBefore))
        expect({ id, startedAt: clocksAfter[id] }).toEqual({ id, startedAt });
    }
  });

  it('a step whose progress write was lost: cordoned nodes are adopted and keep the drain-start annotation time', async () => {
    const world = await setupRoll(SCENARIO);
    // Run until the step that cordons, then throw away that step's writes to the run record.
    let previous: RollStepOutput | undefined;
    let cordonedAt = 0;
    for (let i = 1; i < 50; i++) {
      const saved = structuredClone(world.env.progress.data.runs);
      const patches = world.env.kube.patches.length;
      const stepAt = world.env.clock.now();
      const record = await step(world, i, HOLDER, previous);
      if (world.env.kube.patches.slice(patches).some((p) => p.patch.unschedulable)) {
        // (the step may then have waited in process for its drain: the cordon was at the step's start)
        cordonedAt = stepAt;
        world.env.progress.data.runs = saved;
        break;
      }
      previous = record.output;
      world.env.clock.advance(record.output.waitSeconds * 1000);
    }
    expect(cordonedAt).toBeGreaterThan(0);
    const cordoned = [...world.env.kube.nodes.values()]
      .filter((n) => n.unschedulable)
      .map((n) => n.providerId.split('/').pop()!);
    expect(cordoned.length).toBeGreaterThan(0);
    world.env.clock.advance(LEASE_TTL_MS + 60_000);
    // A forced deletion an earlier run made on one of them is on the node too (CLM's last-forced-drain).
    const forcedAt = cordonedAt + 1_000;
    await world.env.kube.patchNode(world.env.pools.nodeName(cordoned[0]!), {
      annotations: { 'cluster-lifecycle-manager.zalando.org/last-forced-drain': new Date(forcedAt).toISOString() },
    });

    await step(world, 1, 'exec-2');

    const clocks = await drainClocks(world);
    for (const id of cordoned) expect({ id, startedAt: clocks[id] }).toEqual({ id, startedAt: cordonedAt });
    const run = await world.env.progress.getRun(world.cluster.id, TARGET);
    expect(run?.pools.workers?.nodes[cordoned[0]!]?.lastForcedAt).toBe(forcedAt);
    await rollUntilDone(world, { holder: 'exec-2' });
    expectFinishedCleanly(world);
  });
});
