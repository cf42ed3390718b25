import { withinBucket } from '../../lambdas/core/capacity/launch-bucket';
import { clusterRef, runningCluster } from './fixtures';

const WORKERS = 'default-worker';

describe("the simulated account's RunInstances bucket", () => {
  it('throttles Auto Scaling launches beyond the bucket, counts them, and launches them as it refills', async () => {
    // Arrange: a bucket of 5 instances refilled at 0.5 per second; the pool's 3 workers and the master took 4.
    const quotas = { runInstancesBurst: 5, runInstancesPerSecond: 0.5 };
    const r = await runningCluster({ quotas }, 3);
    r.world.advance(60_000); // full again
    const throttledBefore = r.world.apiCalls()['ec2.RunInstances.throttled'] ?? 0;

    // Act: ask for 12 more at once.
    await r.ports.pools.scale(clusterRef(r.cluster), WORKERS, 15);
    const right = (await r.ports.pools.getPool(clusterRef(r.cluster), WORKERS))!.instances.length;
    r.world.advance(10_000);
    const afterRetry = (await r.ports.pools.getPool(clusterRef(r.cluster), WORKERS))!.instances.length;
    r.world.advance(60_000);
    const settled = (await r.ports.pools.getPool(clusterRef(r.cluster), WORKERS))!.instances.length;

    // Assert: 5 at once, 5 more when the group retried 10 s later, the rest by the following retries.
    expect([right, afterRetry, settled]).toEqual([3 + 5, 3 + 10, 15]);
    expect((r.world.apiCalls()['ec2.RunInstances.throttled'] ?? 0) - throttledBefore).toBeGreaterThanOrEqual(2);
    const launches = r.world.asgLaunches(r.cluster.infrastructureAccount.replace('aws:', ''), r.cluster.region);
    expect(launches).toHaveLength(16);
    expect(withinBucket(launches, { burst: 5, perSecond: 0.5 }).ok).toBe(true);
  });

  it("has AWS's defaults: 1,000 at once, 2 per second", async () => {
    const r = await runningCluster({}, 0);
    await r.ports.pools.scale(clusterRef(r.cluster), WORKERS, 300);
    expect((await r.ports.pools.getPool(clusterRef(r.cluster), WORKERS))!.instances).toHaveLength(300);
    expect(r.world.apiCalls()['ec2.RunInstances.throttled'] ?? 0).toBe(0);
    expect(r.world.scenario.quotas).toEqual({ runInstancesBurst: 1000, runInstancesPerSecond: 2, onDemandVcpus: {} });
  });
});
