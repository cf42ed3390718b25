import { EXECUTION_NAME_PATTERN, executionName } from '../../../lambdas/core/dispatch/execution-name';

const base = {
  clusterId: 'aws:123456789012:eu-central-1:kube-1',
  localId: 'kube-1',
  action: 'update' as const,
  targetVersion: `0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c#${'x'.repeat(27)}`,
  attempt: 1,
};

describe('executionName', () => {
  it('reads as action, local id, commit and a digest, and is the same for the same inputs', () => {
    const name = executionName(base);
    expect(name).toMatch(/^update-kube-1-0d1a26e6-[0-9a-f]{20}$/);
    expect(executionName({ ...base })).toBe(name);
  });

  it('differs per target version, cluster, action and attempt', () => {
    const names = new Set([
      executionName(base),
      executionName({ ...base, targetVersion: `${'1'.repeat(40)}#${'x'.repeat(27)}` }),
      executionName({ ...base, clusterId: 'aws:210987654321:eu-central-1:kube-1' }),
      executionName({ ...base, action: 'decommission', targetVersion: `decommission#${base.targetVersion}` }),
      executionName({ ...base, attempt: 2 }),
    ]);
    expect(names.size).toBe(5);
    expect(executionName({ ...base, attempt: 2 })).toBe(`${executionName(base)}-r2`);
    expect(
      executionName({ ...base, action: 'decommission', targetVersion: `decommission#${base.targetVersion}` }),
    ).toMatch(/^decom-kube-1-0d1a26e6-/);
  });

  it('stays within Step Functions rules for long local ids and combined versions', () => {
    const name = executionName({
      ...base,
      localId: 'a-very-long-local-cluster-identifier-with.dots_and:colons-that-goes-on',
      targetVersion: 'main=0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c;extra=dir-0123abcd#hash',
      attempt: 99999,
    });
    expect(name).toMatch(EXECUTION_NAME_PATTERN);
    expect(name.length).toBeLessThanOrEqual(80);
    expect(name).toMatch(/^update-a-very-long-local-cluster-identifier-[0-9a-f]{20}-r99999$/);
  });
});
