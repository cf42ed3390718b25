import {
  blockedReason,
  isDecommission,
  nothingToDo,
  runTargetVersion,
} from '../../../lambdas/core/model/update-decision';
import { testCluster } from '../../support/fakes';

describe('update decisions', () => {
  const cluster = testCluster();

  it('says why a cluster is blocked: paused, cluster_update_block, decommissioned', () => {
    expect(blockedReason(cluster, undefined, false)).toBeUndefined();
    expect(blockedReason(cluster, { paused: true, reason: 'incident 42' }, false)).toBe(
      `Updates of ${cluster.id} are paused by an operator: incident 42; run \`clm resume\` to continue`,
    );
    const blocked = { ...cluster, configItems: { cluster_update_block: 'freeze' } };
    expect(blockedReason(blocked, undefined, false)).toMatch(/blocked by config item cluster_update_block \(freeze\)$/);
    const gone = { ...cluster, lifecycleStatus: 'decommissioned' as const };
    expect(blockedReason(gone, undefined, false)).toBe(`Cluster ${cluster.id} is decommissioned`);
    expect(blockedReason(gone, undefined, true)).toBeUndefined();
  });

  it('decommissions on request or when the registry asks for it', () => {
    expect(isDecommission('provision', cluster)).toBe(false);
    expect(isDecommission('decommission', cluster)).toBe(true);
    expect(isDecommission('provision', { lifecycleStatus: 'decommission-requested' })).toBe(true);
  });

  it('has nothing to do at the current version unless a run for it is unfinished', () => {
    const target = runTargetVersion('cfg1', cluster, false);
    const current = { ...cluster, status: { ...cluster.status, currentVersion: target } };
    expect(nothingToDo(current, target, false, undefined)).toBe(`Cluster ${cluster.id} is up to date at ${target}`);
    expect(nothingToDo(current, target, false, { completedAt: undefined })).toBeUndefined();
    expect(nothingToDo(cluster, target, false, undefined)).toBeUndefined();
  });

  it('has work at the current version when the run that reached it was --apply-only (its nodes never rolled)', () => {
    const target = runTargetVersion('cfg1', cluster, false);
    const current = { ...cluster, status: { ...cluster.status, currentVersion: target } };
    const applied = { completedAt: 5, applyOnly: true };
    expect(nothingToDo(current, target, false, applied)).toBeUndefined();
    expect(nothingToDo(current, target, false, applied, true)).toBe(`Cluster ${cluster.id} is up to date at ${target}`);
    expect(nothingToDo(current, target, false, { completedAt: 5, applyOnly: false })).toBeDefined();
  });

  it('gives decommission runs their own version, done once completed', () => {
    const target = runTargetVersion('cfg1', cluster, true);
    expect(target.startsWith('decommission#')).toBe(true);
    expect(nothingToDo(cluster, target, true, { completedAt: 5 })).toBe(
      `Cluster ${cluster.id} was already decommissioned`,
    );
    expect(nothingToDo(cluster, target, true, undefined)).toBeUndefined();
  });
});
