// EC2's On-Demand vCPU quota in the simulated account (lambdas/sim/aws/vcpu-quota.ts): launches over the limit are
// refused as AWS refuses them, by Auto Scaling (a failed scaling activity, retried) and by Karpenter (no NodeClaim).
import type { KubeObject } from '../../lambdas/ports/kube-cluster';
import { parseScenario } from '../../lambdas/sim/scenario';
import { ACCOUNT, REGION, clusterRef, runningCluster } from './fixtures';
import {
  KARPENTER_CONTROLLER,
  KARPENTER_CRDS,
  batchDeployment,
  burstNodeClass,
  burstNodePool,
} from './karpenter-fixtures';

const WORKERS = 'default-worker';
const STANDARD = 'L-1216C47A';

/** The world's record of an account's groups (their scaling activities). */
function groupsOf(r: Awaited<ReturnType<typeof runningCluster>>) {
  return Object.values(r.world.snapshot().accounts[`${ACCOUNT}/${REGION}`]!.asgs);
}

describe("the simulated account's On-Demand vCPU quota", () => {
  it('refuses an Auto Scaling launch over the limit: a failed activity with EC2 message, retried until room frees', async () => {
    // Arrange: 12 vCPUs; the master and 3 workers (m5.large, 2 vCPUs each) hold 8.
    const r = await runningCluster({ quotas: { onDemandVcpus: { [STANDARD]: 12 } } }, 3);

    // Act: ask for 6 workers: two more fit (12 vCPUs), the third does not.
    await r.ports.pools.scale(clusterRef(r.cluster), WORKERS, 6);
    r.world.advance(5_000);
    const short = (await r.ports.pools.getPool(clusterRef(r.cluster), WORKERS))!;

    // Assert: 5 workers, the group below desired with EC2's VcpuLimitExceeded as its newest activity
    expect(short.instances).toHaveLength(5);
    expect(short.desired).toBe(6);
    const failure = short.groups.find((g) => g.launchFailure)?.launchFailure;
    expect(failure?.message).toBe(
      'You have requested more vCPU capacity than your current vCPU limit of 12 allows for the instance bucket that ' +
        'the specified instance type belongs to. Please visit http://aws.amazon.com/contact-us/ec2-request to request ' +
        'an adjustment to this limit. Launching EC2 instance failed.',
    );
    const activities = groupsOf(r).flatMap((g) => g.activities ?? []);
    const failed = activities.filter((a) => a.statusCode === 'Failed');
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed[0]).toMatchObject({
      description: expect.stringMatching(/^Launching a new EC2 instance\. {2}Status Reason: You have requested more/),
      cause: expect.stringMatching(/in response to a difference between desired and actual capacity/),
    });
    expect(r.world.apiCalls()['ec2.VcpuLimitExceeded']).toBeGreaterThanOrEqual(1);

    // Act: the master pool gives its node back; the group's next try (a minute later) finds the room
    await r.ports.pools.scale(clusterRef(r.cluster), 'master-default', 0);
    r.world.advance(5 * 60_000);
    const full = (await r.ports.pools.getPool(clusterRef(r.cluster), WORKERS))!;

    // Assert
    expect(full.instances.filter((i) => i.lifecycleState !== 'Terminating')).toHaveLength(6);
    expect(full.groups.every((g) => g.launchFailure === undefined)).toBe(true);
  });

  it("counts the account's other instances (vcpusUsedElsewhere) and an account's own limit over the world's", async () => {
    // Arrange: the world allows 1,000, this account 16, of which its other workloads hold 10.
    const scenario = {
      quotas: { onDemandVcpus: { [STANDARD]: 1000 } },
      accounts: [
        { account: ACCOUNT, region: REGION, vcpuQuotas: { [STANDARD]: 16 }, vcpusUsedElsewhere: { [STANDARD]: 10 } },
      ],
    };

    // Act: a master and 3 workers would need 8 vCPUs; 6 are left
    const r = await runningCluster(scenario, 3);
    const pool = (await r.ports.pools.getPool(clusterRef(r.cluster), WORKERS))!;

    // Assert: the master (2) and 2 workers (4) launched, the third refused
    expect(pool.instances).toHaveLength(2);
    expect(pool.groups.some((g) => g.launchFailure?.message.includes('vCPU limit of 16'))).toBe(true);
  });

  it('leaves spot launches and worlds without quotas alone (the default allows 100,000 vCPUs)', async () => {
    const r = await runningCluster({}, 3);
    await r.ports.pools.scale(clusterRef(r.cluster), WORKERS, 20);
    r.world.runUntilIdle();
    expect((await r.ports.pools.getPool(clusterRef(r.cluster), WORKERS))!.instances).toHaveLength(20);
    expect(r.world.apiCalls()['ec2.VcpuLimitExceeded'] ?? 0).toBe(0);
    expect(
      groupsOf(r)
        .flatMap((g) => g.activities ?? [])
        .every((a) => a.statusCode === 'Successful'),
    ).toBe(true);
  });

  it('refuses quota codes it does not know, naming the field', () => {
    expect(() => parseScenario({ quotas: { onDemandVcpus: { 'L-00000000': 5 } } }, 'world.yaml')).toThrow(
      expect.objectContaining({
        issues: [expect.stringMatching(/^world\.yaml: quotas\.onDemandVcpus\.L-00000000: .*L-1216C47A/)],
      }),
    );
  });
});

describe("Karpenter's launches under the vCPU quota", () => {
  const objects: KubeObject[] = [
    ...KARPENTER_CRDS,
    burstNodeClass('ami-0000000000000000a'),
    burstNodePool(),
    batchDeployment(4),
    KARPENTER_CONTROLLER,
  ];

  it('launches no NodeClaim over the limit (its pods stay Pending) and launches it once room frees', async () => {
    // Arrange: 8 vCPUs; the master and 2 workers hold 6: room for one of the two m6i.large nodes the pods need.
    const r = await runningCluster({ quotas: { onDemandVcpus: { [STANDARD]: 8 } } }, 2);

    // Act
    await r.ports.kube.apply(objects, { fieldManager: 'test' });
    r.world.advance(10 * 60_000);

    // Assert
    expect(await r.ports.kube.list('NodeClaim')).toHaveLength(1);
    expect(await r.ports.pools.karpenterInstances(clusterRef(r.cluster), 'burst')).toHaveLength(1);
    expect(r.world.describe(r.cluster.id).pods.pending).toBe(2);
    expect(r.world.apiCalls()['ec2.VcpuLimitExceeded']).toBeGreaterThanOrEqual(1);

    // Act: a worker goes; Karpenter's next pass finds the room
    await r.ports.pools.scale(clusterRef(r.cluster), WORKERS, 1);
    r.world.advance(10 * 60_000);

    // Assert
    expect(await r.ports.kube.list('NodeClaim')).toHaveLength(2);
    expect(r.world.describe(r.cluster.id).pods.pending).toBe(0);
  });
});
