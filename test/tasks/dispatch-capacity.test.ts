import type { Cluster } from '../../lambdas/core/model/cluster';
import { runFleetPass } from '../../lambdas/tasks/fleet/fleet-pass';
import { withinBucket } from '../../lambdas/core/capacity/launch-bucket';
import { FleetWorld } from '../support/fleet/fleet-world';
import { COMMIT_A, COMMIT_B, fleetCluster, settings } from '../core/dispatch/fleet-fixtures';

const MIN = 60_000;

/** `count` test clusters at commit A in one account (eu-central-1). */
function inAccount(account: string, count: number, prefix: string): Cluster[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `${prefix}-${i}`;
    return fleetCluster(name, 'test', {
      current: COMMIT_A,
      id: `aws:${account}:eu-central-1:${name}`,
      infrastructureAccount: `aws:${account}`,
    });
  });
}

const BUSY = '111111111111';
const QUIET = '222222222222';
const accountOf = (world: FleetWorld, clusterId: string) => world.cluster(clusterId).infrastructureAccount;
const runningIn = (world: FleetWorld, account: string) =>
  world.executions.running().filter((e) => accountOf(world, e.clusterId) === `aws:${account}`).length;

describe('the dispatcher under per-account caps', () => {
  it('never has more than maxConcurrentPerAccount updates running in one account; other accounts are not held back', async () => {
    const fleet = [...inAccount(BUSY, 50, 'busy'), ...inAccount(QUIET, 5, 'quiet')];
    const world = new FleetWorld(fleet, settings({ maxConcurrent: 100, maxConcurrentPerAccount: 5 }));
    world.refs.set('main', COMMIT_B);

    const first = await world.pass();
    expect(runningIn(world, BUSY)).toBe(5);
    expect(runningIn(world, QUIET)).toBe(5);
    const held = first.skipped.filter((s) => s.reason === 'capacity-account');
    expect(held).toHaveLength(45);
    expect(held[0]!.message).toBe(
      `5 updates running in account aws:${BUSY} in eu-central-1, the cap is 5 (maxConcurrentPerAccount)`,
    );

    // Executions end a few at a time (the oldest two, then all of the quiet account), passes every 5 minutes.
    let maxBusy = 0;
    for (
      let round = 0;
      round < 60 && world.clusters.some((c) => !c.status.currentVersion.startsWith(COMMIT_B));
      round++
    ) {
      const oldest = new Set(
        world.executions
          .running()
          .slice(0, 2)
          .map((e) => e.name),
      );
      await world.finishRunning(
        undefined,
        (e) => oldest.has(e.name) || accountOf(world, e.clusterId) === `aws:${QUIET}`,
      );
      world.clock.advance(4 * MIN);
      await world.pass({ trigger: 'execution' });
      maxBusy = Math.max(maxBusy, runningIn(world, BUSY));
      expect(runningIn(world, BUSY)).toBeLessThanOrEqual(5);
    }
    expect(maxBusy).toBe(5);
    expect(world.clusters.filter((c) => !c.status.currentVersion.startsWith(COMMIT_B))).toEqual([]);
    expect(world.executions.started).toHaveLength(55);
  });

  it('runs the whole account at once without the cap (what the cap prevents)', async () => {
    const world = new FleetWorld(inAccount(BUSY, 50, 'busy'), settings({ maxConcurrent: 100 }));
    world.refs.set('main', COMMIT_B);
    await world.pass();
    expect(runningIn(world, BUSY)).toBe(50);
  });

  it('caps a region across accounts with maxConcurrentPerRegion', async () => {
    const fleet = [...inAccount(BUSY, 8, 'busy'), ...inAccount(QUIET, 8, 'quiet')];
    const world = new FleetWorld(fleet, settings({ maxConcurrent: 100, maxConcurrentPerRegion: 6 }));
    world.refs.set('main', COMMIT_B);
    const plan = await world.pass();
    expect(world.executions.running()).toHaveLength(6);
    expect(plan.skipped.filter((s) => s.reason === 'capacity-region')).toHaveLength(10);
  });

  it('starts at most startsPerSecond × 60 s executions in one pass; the next pass goes on', async () => {
    const world = new FleetWorld(inAccount(BUSY, 50, 'busy'), settings({ maxConcurrent: 100, startsPerSecond: 0.5 }));
    world.refs.set('main', COMMIT_B);
    const before = world.clock.now();
    const plan = await world.pass();
    expect(plan.starts).toHaveLength(30);
    expect(plan.skipped.filter((s) => s.reason === 'pacing')).toHaveLength(20);
    // One start every 2 s: the 30th 58 s after the first.
    expect(world.executions.started[29]!.startedAt - world.executions.started[0]!.startedAt).toBe(58_000);
    expect(world.clock.now() - before).toBe(58_000);
    await world.pass();
    expect(world.executions.started).toHaveLength(50);
  });
});

describe('throttled StartExecution', () => {
  it('is retried with back-off and counted, not failed', async () => {
    const quota = { burst: 10, perSecond: 2 };
    const world = new FleetWorld(
      inAccount(BUSY, 40, 'busy'),
      settings({ maxConcurrent: 100, startsPerSecond: 10 }),
      undefined,
      quota,
    );
    world.refs.set('main', COMMIT_B);

    const { report } = await runFleetPass(world.ports, { trigger: 'schedule' });

    expect(world.executions.throttled).toBeGreaterThan(0);
    expect(report.throttles).toBe(world.executions.throttled);
    expect(report.starts.map((s) => s.how)).toEqual(Array(40).fill('started'));
    expect(world.executions.running()).toHaveLength(40);
    expect(withinBucket(world.executions.admitted, quota).ok).toBe(true);
  });

  it('leaves what stays throttled after the back-off to the next pass, recording what did start', async () => {
    const world = new FleetWorld(
      inAccount(BUSY, 12, 'busy'),
      settings({ maxConcurrent: 100, startsPerSecond: 1 }),
      undefined,
      { burst: 5, perSecond: 0.01 },
    );
    world.refs.set('main', COMMIT_B);

    const { report } = await runFleetPass(world.ports, { trigger: 'schedule' });

    expect(report.starts.filter((s) => s.how === 'started')).toHaveLength(5);
    expect(report.starts.filter((s) => s.how === 'throttled')).toHaveLength(7);
    expect(report.throttles).toBe(5); // the sixth start, tried 5 times; the rest not tried in this pass
    const stored = await world.store.loadFleet();
    expect([...stored.clusters.values()].filter((s) => s.execution?.state === 'running')).toHaveLength(5);

    world.clock.advance(10 * MIN);
    const next = await runFleetPass(world.ports, { trigger: 'schedule' });
    expect(next.report.starts.filter((s) => s.how === 'started')).toHaveLength(5);
  });
});
