// Rolls of four clusters of one account at once, in the simulated world, each a whole cluster-update execution on the
// deployed ASL, overlapping in virtual time. The account's EC2 RunInstances bucket is small (8 instances, 1 every
// 20 s). With the launch budget set to the same, the rolls share it: together they never launch more than it allows,
// EC2 never throttles a launch, and every roll still finishes. With a budget larger than EC2's bucket, the same rolls
// trip EC2's throttling: what the budget is for.
import { withinBucket } from '../../lambdas/core/capacity/launch-bucket';
import { ACCOUNT, REGION, WORKERS, oneAccountFleet, targetOf } from './support/one-account-fleet';

const EC2 = { runInstancesBurst: 8, runInstancesPerSecond: 0.05 };

/** Create the clusters, let EC2's bucket fill up again, then roll every worker pool at once. */
async function rollAll(launches: { perSecond: number; burst: number }) {
  const fleet = await oneAccountFleet({
    clusters: 4,
    scenario: { seed: 11, quotas: EC2 },
    settings: { launchesPerSecond: launches.perSecond, launchBurst: launches.burst },
  });
  try {
    const { sim } = fleet;
    const created = await fleet.updateAll('create');
    expect(created.map((r) => r.status)).toEqual(Array(4).fill('SUCCEEDED'));
    sim.world.advance(3_600_000);
    fleet.newWorkerImage();
    const rollStart = sim.world.now;
    const throttledBefore = sim.world.apiCalls()['ec2.RunInstances.throttled'] ?? 0;
    const rolled = await fleet.updateAll('roll');
    const runs = await Promise.all(fleet.ids.map((id, i) => sim.progress.getRun(id, targetOf(rolled[i]!))));
    return {
      rolled,
      pools: runs.map((run) => run!.pools.workers!),
      rollStart,
      invariants: sim.world.invariants(),
      launches: sim.world.asgLaunches(ACCOUNT, REGION).filter((t) => t >= rollStart),
      throttled: (sim.world.apiCalls()['ec2.RunInstances.throttled'] ?? 0) - throttledBefore,
    };
  } finally {
    fleet.dispose();
  }
}

describe('rolls of one account at once, under a shared launch budget', () => {
  it('never launch more than the budget together, so EC2 never throttles them, and all finish', async () => {
    const budget = { perSecond: EC2.runInstancesPerSecond, burst: EC2.runInstancesBurst };
    const { rolled, pools, launches, throttled, invariants, rollStart } = await rollAll(budget);

    expect(rolled.map((r) => r.status)).toEqual(Array(4).fill('SUCCEEDED'));
    for (const pool of pools) expect(pool).toMatchObject({ replaced: WORKERS, total: WORKERS });
    expect(launches).toHaveLength(4 * WORKERS);
    expect(withinBucket(launches, budget)).toMatchObject({ ok: true });
    expect(throttled).toBe(0);
    // The budget held launches back (the rolls really competed for it), and the rolls overlapped in time.
    expect(pools.reduce((n, pool) => n + (pool.launchesDeferred ?? 0), 0)).toBeGreaterThan(0);
    const spans = pools.map((pool) => [pool.startedAt!, pool.completedAt!] as const);
    const overlapping = spans.filter(([s1, e1], i) => spans.some(([s2, e2], j) => i !== j && s1 < e2 && s2 < e1));
    expect(overlapping).toHaveLength(4);
    expect(Math.min(...spans.map(([start]) => start))).toBeGreaterThanOrEqual(rollStart);
    expect(invariants).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  });

  it('trip EC2 throttling when the budget is larger than the bucket (what the budget prevents)', async () => {
    const { rolled, throttled, pools, launches, invariants } = await rollAll({ perSecond: 10, burst: 1000 });
    expect(throttled).toBeGreaterThan(0);
    // The throttled launches were not lost: Auto Scaling made them later, within EC2's bucket, and the rolls waited.
    expect(rolled.map((r) => r.status)).toEqual(Array(4).fill('SUCCEEDED'));
    for (const pool of pools) expect(pool).toMatchObject({ replaced: WORKERS, total: WORKERS });
    expect(launches).toHaveLength(4 * WORKERS);
    expect(
      withinBucket(launches, { perSecond: EC2.runInstancesPerSecond, burst: EC2.runInstancesBurst }),
    ).toMatchObject({
      ok: true,
    });
    expect(invariants).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  });
});
