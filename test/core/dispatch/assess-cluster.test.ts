import { assessCluster } from '../../../lambdas/core/dispatch/assess-cluster';
import type { AssessInput } from '../../../lambdas/core/dispatch/assess-cluster';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { COMMIT_A, COMMIT_B, fleetCluster, record, settings, state, target, targetVersionOf } from './fleet-fixtures';

const NOW = 10_000_000;

function assess(cluster: Cluster, extra: Partial<AssessInput> = {}) {
  return assessCluster({
    cluster,
    target: target(cluster),
    state: undefined,
    controls: undefined,
    accepts: () => true,
    settings: settings(),
    now: NOW,
    ...extra,
  });
}

describe('assessCluster', () => {
  const behind = fleetCluster('kube-1', 'test', { current: COMMIT_A });

  it('costs nothing for a cluster at its target', () => {
    const current = fleetCluster('kube-1', 'test', { current: COMMIT_B });
    expect(assess(current)).toMatchObject({ kind: 'skip', reason: 'up-to-date', member: { state: 'done' } });
  });

  it('updates a cluster behind its target at priority 1', () => {
    expect(assess(behind)).toEqual({
      kind: 'work',
      action: 'update',
      priority: 1,
      targetVersion: targetVersionOf(behind),
      attempt: 1,
      message: expect.stringMatching(/^update from a{40}#\S+ to b{40}#\S+$/),
      member: { configVersion: COMMIT_B, state: 'pending' },
    });
  });

  it('gives an interrupted update priority 3 and a decommission priority 2, outside the waves', () => {
    const interrupted = { ...behind, status: { ...behind.status, nextVersion: `${COMMIT_B}#old` } };
    expect(assess(interrupted)).toMatchObject({ kind: 'work', priority: 3 });
    const leaving = fleetCluster('kube-2', 'production', {
      current: COMMIT_B,
      lifecycleStatus: 'decommission-requested',
    });
    const work = assess(leaving);
    expect(work).toMatchObject({ kind: 'work', action: 'decommission', priority: 2 });
    expect(work.kind === 'work' && work.targetVersion).toMatch(/^decommission#b{40}#/);
    expect(work.member).toBeUndefined();
  });

  it.each([
    ['decommissioned', { lifecycleStatus: 'decommissioned' as const }, {}],
    ['update-blocked', { configItems: { cluster_update_block: 'etcd migration' } }, {}],
    ['lifecycle', { lifecycleStatus: 'creating' as const }, {}],
    ['paused', {}, { controls: { paused: true, reason: 'freeze' } }],
    ['account-filtered', {}, { accepts: () => false }],
    ['region-filtered', {}, { settings: settings({ regions: ['eu-west-1', 'us-east-1'] }) }],
  ])('skips %s clusters', (reason, overrides, extra) => {
    expect(assess({ ...behind, ...overrides }, extra)).toMatchObject({ kind: 'skip', reason });
  });

  it('says what blocks: the update block item, the pause reason', () => {
    expect(assess({ ...behind, configItems: { cluster_update_block: 'etcd migration' } })).toMatchObject({
      message: 'config item cluster_update_block (etcd migration)',
    });
    expect(assess(behind, { controls: { paused: true, reason: 'freeze' } })).toMatchObject({
      message: 'paused by an operator: freeze',
    });
  });

  it('records a target error as a problem (CLM NextError)', () => {
    const failed = {
      ok: false as const,
      clusterHash: 'h',
      error: { name: 'ConfigError', message: 'unknown ref "mian"\nmore' },
    };
    expect(assess(behind, { target: failed })).toEqual({
      kind: 'skip',
      reason: 'target-error',
      message: 'cannot compute the target version: ConfigError: unknown ref "mian"',
      problem: {
        type: 'https://cluster-lifecycle-manager.zalando.org/problems/general-error',
        title: 'ConfigError: unknown ref "mian"',
      },
    });
  });

  it('does not start a second execution while one runs, saying which', () => {
    const running = state(behind.id, record({ name: 'update-old', targetVersion: `${COMMIT_A}#x` }));
    expect(assess(behind, { state: running })).toMatchObject({
      kind: 'skip',
      reason: 'running',
      member: { state: 'running' },
      message: expect.stringMatching(/^update to a{40}#x is running \(update-old\); b{40}#\S+ follows when it ends$/),
    });
  });

  it('backs a failed update off, then tries it again under the next attempt; the failure holds the waves', () => {
    const targetVersion = targetVersionOf(behind);
    const failed = record({
      targetVersion,
      name: 'update-kube-1-1',
      state: 'failed',
      endedAt: NOW - 60_000,
      failures: 1,
      lastFailure: { error: 'StackFailedError', cause: 'rollback', retryable: false, at: NOW - 60_000 },
    });
    const during = assess(behind, { state: state(behind.id, failed) });
    expect(during).toMatchObject({ kind: 'skip', reason: 'backoff', member: { state: 'failed' } });
    expect(during.kind === 'skip' && during.message).toMatch(
      /^1 failed attempt at b{40}#\S+, last update-kube-1-1: StackFailedError \(rollback\); next attempt after /,
    );
    const after = assess(behind, { state: state(behind.id, failed), now: NOW + 15 * 60_000 });
    expect(after).toMatchObject({ kind: 'work', attempt: 2, priority: 1, member: { state: 'failed' } });
    expect(after.kind === 'work' && after.resume).toBeUndefined();
  });

  it('resumes a dead execution at once, at priority 3, naming it for a redrive', () => {
    const targetVersion = targetVersionOf(behind);
    const dead = record({
      targetVersion,
      name: 'update-kube-1-1',
      arn: 'arn:x',
      state: 'timed-out',
      endedAt: NOW - 1,
      failures: 1,
      lastFailure: { error: 'TIMED_OUT', retryable: true, at: NOW - 1 },
    });
    expect(assess(behind, { state: state(behind.id, dead) })).toMatchObject({
      kind: 'work',
      priority: 3,
      attempt: 2,
      resume: { name: 'update-kube-1-1', arn: 'arn:x' },
      member: { state: 'pending' },
    });
  });
});
