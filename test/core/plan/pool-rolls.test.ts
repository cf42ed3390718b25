import { poolRolls } from '../../../lambdas/core/plan/pool-rolls';
import { MINUTES_PER_BATCH, rollEstimate } from '../../../lambdas/core/plan/roll-estimate';
import type { StackPlan } from '../../../lambdas/core/plan/plan-document';
import type { PoolInstance } from '../../../lambdas/ports/node-pool-backend';

const policy = { maxSurge: 3, maxUnavailable: 0, canary: true, canarySoakMs: 0 };

function instances(count: number, outdated = 0, state = 'InService'): PoolInstance[] {
  return Array.from({ length: count }, (_, i) => ({
    instanceId: `i-${state}-${i}`,
    availabilityZone: 'eu-central-1a',
    lifecycleState: state,
    healthy: true,
    outdated: i < outdated,
    asgName: 'asg',
  }));
}

const launchChange: StackPlan = {
  name: 'workers-stack',
  kind: 'node-pool',
  action: 'update',
  changes: [{ action: 'Modify', logicalId: 'LaunchTemplate', resourceType: 'AWS::EC2::LaunchTemplate' }],
};

describe('poolRolls', () => {
  it('rolls every live node of a pool whose launch template changes, else only the outdated ones', () => {
    // Arrange
    const pools = [
      {
        name: 'workers',
        stackName: 'workers-stack',
        instances: [...instances(7), ...instances(2, 0, 'Terminating')],
        policy,
      },
      { name: 'system', stackName: 'system-stack', instances: instances(4, 1), policy },
    ];

    // Act
    const rolls = poolRolls(pools, [launchChange], true);

    // Assert: canary alone, then batches of surge (3): 1 + ceil(6/3) = 3 batches
    expect(rolls).toEqual([
      { pool: 'workers', nodes: 7, batches: 3, estimatedMinutes: 3 * MINUTES_PER_BATCH },
      { pool: 'system', nodes: 1, batches: 1, estimatedMinutes: MINUTES_PER_BATCH },
    ]);
  });

  it('rolls nothing under --apply-only', () => {
    const pools = [{ name: 'workers', stackName: 'workers-stack', instances: instances(3, 3), policy }];
    expect(poolRolls(pools, [launchChange], false).map((r) => r.nodes)).toEqual([0]);
  });
});

describe('rollEstimate', () => {
  it('uses surge plus unavailable per batch and adds the canary soak', () => {
    const estimate = rollEstimate('p', 10, { maxSurge: 1, maxUnavailable: 1, canary: true, canarySoakMs: 15 * 60_000 });
    // 1 canary + ceil(9 / 2) = 6 batches, plus 15 minutes of soak
    expect(estimate).toEqual({ pool: 'p', nodes: 10, batches: 6, estimatedMinutes: 6 * MINUTES_PER_BATCH + 15 });
    expect(rollEstimate('p', 4, { maxSurge: 0, maxUnavailable: 0, canary: false, canarySoakMs: 0 }).batches).toBe(4);
  });
});
