import { formatDispatchPlan, formatHalts, haltLine } from '../../../lambdas/core/dispatch/fleet-report';
import type { WaveHalt } from '../../../lambdas/core/dispatch/fleet-state';
import { planDispatch } from '../../../lambdas/core/dispatch/plan-dispatch';
import { COMMIT_A, COMMIT_B, fleetCluster, record, settings, state, targets, targetVersionOf } from './fleet-fixtures';

const halt: WaveHalt = {
  configVersion: COMMIT_B,
  wave: 'test (criticality 1)',
  heldWaves: ['staging (criticality 2)'],
  failed: [{ clusterId: 't1', targetVersion: `${COMMIT_B}#h`, error: 'StackFailedError' }],
  failedCount: 1,
  since: 0,
  reason: 't1 failed updating to bbbbbbbbbbbb: StackFailedError',
};

describe('fleet report', () => {
  it('prints a pass: summary, starts, skips by reason, halts', () => {
    const t1 = fleetCluster('t1', 'test', { current: COMMIT_A });
    const t2 = fleetCluster('t2', 'test', { current: COMMIT_A });
    const stagings = Array.from({ length: 7 }, (_, i) => fleetCluster(`s${i}`, 'staging', { current: COMMIT_A }));
    const clusters = [t1, t2, ...stagings];
    const failed = state(
      t1.id,
      record({
        name: 'u-t1',
        targetVersion: targetVersionOf(t1),
        state: 'failed',
        endedAt: 0,
        failures: 1,
        lastFailure: { error: 'StackFailedError', retryable: false, at: 0 },
      }),
    );
    const plan = planDispatch({
      clusters,
      targets: targets(clusters),
      fleet: { clusters: new Map([[t1.id, failed]]), halts: [], overrides: [] },
      outcomes: new Map(),
      running: 0,
      settings: settings(),
      now: 60_000,
      trigger: 'cli',
    });
    const text = formatDispatchPlan(plan).split('\n');
    expect(text[0]).toBe('9 clusters: 0 up to date, 0 started, 9 skipped; 0 running, room for 10');
    expect(text).toContain('  skipped, wave-halted (8):');
    expect(text).toContain('    … and 3 more');
    expect(text.at(-1)).toMatch(
      /^ {2}HALTED at bbbbbbbbbbbb, wave test \(criticality 1\); holding staging \(criticality 2\): .*t1 failed updating to bbbbbbbbbbbb: StackFailedError$/,
    );
  });

  it('says which halt holds a cluster, and marks the one that failed', () => {
    expect(haltLine({ id: 's1', targetVersion: `${COMMIT_B}#x` }, [halt])).toBe(
      '  held: wave test (criticality 1) halted at bbbbbbbbbbbb: t1 failed updating to bbbbbbbbbbbb: StackFailedError',
    );
    expect(haltLine({ id: 't1', targetVersion: `${COMMIT_B}#h` }, [halt])).toBe(
      '  its failure halts wave test (criticality 1) at bbbbbbbbbbbb',
    );
    expect(haltLine({ id: 's1', targetVersion: `${COMMIT_A}#x` }, [halt])).toBeUndefined();
    expect(formatHalts([], [{ configVersion: COMMIT_B, reason: 'known flake', by: 'jdoe', at: 0 }])).toEqual([
      '  override at bbbbbbbbbbbb by jdoe (1970-01-01T00:00:00.000Z): known flake',
    ]);
  });
});
