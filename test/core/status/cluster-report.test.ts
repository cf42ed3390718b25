import { clusterReport, formatClusterReport } from '../../../lambdas/core/status/cluster-report';
import { newRunRecord } from '../../../lambdas/core/model/run';
import { testCluster } from '../../support/fakes';

describe('clusterReport', () => {
  it('shows the run in progress, what blocks it, the lease and the problems', () => {
    // Arrange
    const cluster = testCluster({
      configItems: { cluster_update_block: 'freeze' },
      status: {
        currentVersion: 'a#1',
        lastVersion: '',
        nextVersion: 'b#1',
        problems: [{ type: 't', title: 'StackFailedError: boom' }],
      },
    });
    const run = {
      ...newRunRecord(
        {
          clusterId: cluster.id,
          targetVersion: 'b#1',
          action: 'provision' as const,
          holder: 'exec-1',
          previousVersion: 'a#1',
        },
        0,
      ),
      phase: 'RollNodePool workers',
      pools: {
        workers: {
          status: 'rolling' as const,
          total: 4,
          replaced: 1,
          nodes: {},
          steps: 3,
          blockedBy: 'PDB default/web allows 0 disruption(s) (2/2 healthy) for pod default/web-1',
        },
      },
    };

    // Act
    const report = clusterReport(
      cluster,
      run,
      { clusterId: cluster.id, holder: 'exec-1', expiresAt: 1_000 },
      { paused: true },
      2_000,
    );
    const text = formatClusterReport(report);

    // Assert
    expect(report).toMatchObject({
      currentVersion: 'a#1',
      nextVersion: 'b#1',
      paused: true,
      updateBlocked: true,
      lease: { holder: 'exec-1', expired: true },
    });
    expect(report.run).toMatchObject({
      finished: false,
      phase: 'RollNodePool workers',
      pools: [{ name: 'workers', replaced: 1, total: 4 }],
    });
    expect(text).toContain('run in progress: provision to b#1');
    expect(text).toContain('workers: 1/4 nodes replaced (rolling); blocked by PDB default/web allows 0 disruption(s)');
    expect(text).toContain('lease: exec-1 until 1970-01-01T00:00:01.000Z (expired)');
    expect(text).toContain('problem: StackFailedError: boom');
    expect(text).toContain('updates blocked by config item cluster_update_block');
  });

  it('judges a --simulate run’s lease on the simulated clock, and never calls it expired where that clock is unknown', () => {
    const lease = {
      clusterId: 'c',
      holder: 'cli:h:1:1',
      expiresAt: Date.parse('2026-01-01T00:30:00Z'),
      clock: 'simulated' as const,
    };
    const system = Date.parse('2026-11-28T00:00:00Z');
    const at = (simulated?: string) =>
      clusterReport(testCluster(), undefined, lease, undefined, {
        system,
        ...(simulated ? { simulated: Date.parse(simulated) } : {}),
      }).lease;

    expect(at('2026-01-01T00:10:00Z')).toEqual({
      holder: 'cli:h:1:1',
      expiresAt: '2026-01-01T00:30:00.000Z (simulated time)',
      expired: false,
    });
    expect(at('2026-01-01T00:40:00Z')?.expired).toBe(true);
    expect(at()?.expired).toBe(false);
  });

  it('a cluster that never ran shows its versions only', () => {
    const report = clusterReport(testCluster(), undefined, undefined, undefined, 0);
    expect(report.run).toBeUndefined();
    expect(report.lease).toBeUndefined();
    expect(formatClusterReport(report).split('\n')).toHaveLength(1);
  });

  it('shows the stacks the run recovered, with the cause, and what decommission cleaned up', () => {
    const cluster = testCluster();
    const base = newRunRecord(
      { clusterId: cluster.id, targetVersion: 'b#1', action: 'decommission', holder: 'e', previousVersion: 'a#1' },
      0,
    );
    const run = {
      ...base,
      stacks: {
        'kube-1': {
          status: 'done' as const,
          startedAt: 0,
          recoveries: [
            {
              action: 'continue-rollback' as const,
              foundStatus: 'UPDATE_ROLLBACK_FAILED',
              at: 0,
              cause: 'first failed resource WorkerAsg (AWS::AutoScaling::AutoScalingGroup) UPDATE_FAILED: x',
              skipped: ['WorkerAsg'],
            },
          ],
        },
      },
      leftovers: {
        passes: 2,
        deleted: ['classic-load-balancer a1', 'security-group sg-1'],
        kept: ['volume vol-1'],
        remaining: [],
        unchecked: [],
      },
    };

    const text = formatClusterReport(clusterReport(cluster, run, undefined, undefined, 0));

    expect(text).toContain(
      '    stack kube-1 found UPDATE_ROLLBACK_FAILED: rollback continued skipping WorkerAsg (first failed resource WorkerAsg (AWS::AutoScaling::AutoScalingGroup) UPDATE_FAILED: x)',
    );
    expect(text).toContain('    left outside the stacks, deleted: classic-load-balancer a1, security-group sg-1');
    expect(text).toContain('    kept (--keep-volumes): volume vol-1');
  });
});

describe('clusterReport: the estimated end of the running roll', () => {
  const cluster = testCluster();
  const run = {
    ...newRunRecord(
      {
        clusterId: cluster.id,
        targetVersion: 'b#1',
        action: 'provision' as const,
        holder: 'e',
        previousVersion: 'a#1',
      },
      0,
    ),
    pools: {
      workers: { status: 'rolling' as const, total: 4, replaced: 1, nodes: {}, steps: 3, startedAt: 0 },
      masters: { status: 'done' as const, total: 1, replaced: 1, nodes: {}, steps: 2, startedAt: 0, completedAt: 1 },
    },
  };

  it('gives the pace so far times the nodes left, on the clock of the run holding the lease', () => {
    // 1 node in 10 minutes of simulated time, 3 left: 30 minutes on; the system clock is far away.
    const lease = { clusterId: cluster.id, holder: 'e', expiresAt: 99_999_999, clock: 'simulated' as const };
    const report = clusterReport(cluster, run, lease, undefined, { system: 5e12, simulated: 600_000 });

    expect(report.run?.estimatedEnd).toBe(new Date(2_400_000).toISOString());
    expect(report.run?.pools.map((p) => [p.name, p.estimatedEnd])).toEqual([
      ['workers', new Date(2_400_000).toISOString()],
      ['masters', undefined],
    ]);
    expect(formatClusterReport(report)).toContain(
      `workers: 1/4 nodes replaced (rolling); ETA ${new Date(2_400_000).toISOString()}`,
    );
  });

  it('gives none while nobody holds the run, nor before the first node was replaced', () => {
    const lease = { clusterId: cluster.id, holder: 'e', expiresAt: 99_999_999 };
    const fresh = { ...run, pools: { workers: { ...run.pools.workers, replaced: 0 } } };

    expect(clusterReport(cluster, run, undefined, undefined, 600_000).run?.estimatedEnd).toBeUndefined();
    expect(clusterReport(cluster, fresh, lease, undefined, 600_000).run?.estimatedEnd).toBeUndefined();
  });
});
