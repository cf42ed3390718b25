import { parseRollbackSkips, recoveryFor, resourcesToSkip } from '../../../lambdas/core/stacks/stack-recovery';
import { ValidationError } from '../../../lambdas/shared/errors';

const failed = (logicalId: string) => ({
  logicalId,
  resourceType: 'AWS::AutoScaling::AutoScalingGroup',
  status: 'UPDATE_FAILED',
  reason: 'x',
  timestamp: '2026-03-04T12:10:39.000Z',
});

describe('recoveryFor', () => {
  it.each([
    ['UPDATE_ROLLBACK_FAILED', 'continue-rollback'],
    ['ROLLBACK_COMPLETE', 'recreate'],
    ['UPDATE_ROLLBACK_COMPLETE', undefined],
    ['ROLLBACK_FAILED', undefined],
    ['CREATE_COMPLETE', undefined],
    ['UPDATE_IN_PROGRESS', undefined],
  ])('%s → %s', (status, action) => {
    expect(recoveryFor(status)).toBe(action);
  });
});

describe('parseRollbackSkips', () => {
  it('groups STACK:LogicalId entries (repeated flags and comma lists) per stack, without duplicates', () => {
    expect(parseRollbackSkips(['kube-1:WorkerAsg,kube-1:Nested.Role', 'nodepool-a:Asg', 'kube-1:WorkerAsg'])).toEqual({
      'kube-1': ['WorkerAsg', 'Nested.Role'],
      'nodepool-a': ['Asg'],
    });
    expect(parseRollbackSkips([])).toEqual({});
  });

  it.each(['WorkerAsg', 'kube-1:', ':WorkerAsg', 'kube 1:WorkerAsg', 'kube-1:Worker-Asg'])(
    'refuses %p naming the flag',
    (entry) => {
      expect(() => parseRollbackSkips([entry])).toThrow(ValidationError);
      expect(() => parseRollbackSkips([entry])).toThrow(`--skip-rollback-resources: "${entry}" is not STACK:LogicalId`);
    },
  );
});

describe('resourcesToSkip', () => {
  it('skips nothing the operator did not name, even when resources failed', () => {
    expect(resourcesToSkip('kube-1', {}, [failed('WorkerAsg')])).toEqual([]);
    expect(resourcesToSkip('kube-1', { other: ['WorkerAsg'] }, [failed('WorkerAsg')])).toEqual([]);
  });

  it('passes what the operator named for this stack when it failed in the rollback', () => {
    expect(resourcesToSkip('kube-1', { 'kube-1': ['WorkerAsg'] }, [failed('WorkerAsg'), failed('Role')])).toEqual([
      'WorkerAsg',
    ]);
  });

  it('refuses a named resource that did not fail in the rollback, listing those that did', () => {
    expect(() => resourcesToSkip('kube-1', { 'kube-1': ['LaunchTemplate'] }, [failed('WorkerAsg')])).toThrow(
      '--skip-rollback-resources: kube-1:LaunchTemplate did not fail in the rollback of stack kube-1; the resources that did: WorkerAsg',
    );
  });
});
