import { describeStackFailure, stackFailureCause } from '../../../lambdas/core/stacks/stack-events';
import {
  AMI_REASON,
  CONTINUED_ROLLBACK_FAILED_AGAIN,
  CREATE_ROLLED_BACK,
  ROLLBACK_REASON,
  UPDATE_ROLLBACK_FAILED,
  UPDATE_ROLLED_BACK,
  VPC_REASON,
  portEvents,
} from '../../fixtures/stack-events';

describe('stackFailureCause (DescribeStackEvents, newest first)', () => {
  it('UPDATE_ROLLBACK_COMPLETE: the failed resource of the last update, not of an older one', () => {
    const cause = stackFailureCause(portEvents(UPDATE_ROLLED_BACK));

    expect(cause).toEqual({
      failed: {
        logicalId: 'LaunchTemplate',
        resourceType: 'AWS::EC2::LaunchTemplate',
        status: 'UPDATE_FAILED',
        reason: AMI_REASON,
        timestamp: '2026-03-04T10:15:32.123Z',
      },
      rollbackFailed: [],
      stackReason: 'The following resource(s) failed to update: [LaunchTemplate].',
    });
  });

  it('ROLLBACK_COMPLETE after a create: the first failure in time, not the cancelled resource listed before it', () => {
    const cause = stackFailureCause(portEvents(CREATE_ROLLED_BACK));

    expect(cause?.failed).toMatchObject({
      logicalId: 'NodeSecurityGroup',
      resourceType: 'AWS::EC2::SecurityGroup',
      status: 'CREATE_FAILED',
      reason: VPC_REASON,
    });
    expect(cause?.rollbackFailed).toEqual([]);
  });

  it('UPDATE_ROLLBACK_FAILED: the update failure and the resources that failed while rolling back', () => {
    const cause = stackFailureCause(portEvents(UPDATE_ROLLBACK_FAILED));

    expect(cause?.failed).toMatchObject({ logicalId: 'WorkerAsg', status: 'UPDATE_FAILED', reason: AMI_REASON });
    expect(cause?.rollbackFailed).toEqual([
      expect.objectContaining({
        logicalId: 'WorkerAsg',
        resourceType: 'AWS::AutoScaling::AutoScalingGroup',
        reason: ROLLBACK_REASON,
      }),
    ]);
    expect(cause?.stackReason).toBe('The following resource(s) failed to update: [WorkerAsg].');
  });

  it('after a continued rollback failed again: only the failures of that rollback, once each', () => {
    const cause = stackFailureCause(portEvents(CONTINUED_ROLLBACK_FAILED_AGAIN));

    expect(cause?.rollbackFailed.map((r) => [r.logicalId, r.timestamp])).toEqual([
      ['WorkerAsg', '2026-03-04T12:30:39.000Z'],
    ]);
    expect(cause?.failed?.logicalId).toBe('WorkerAsg');
  });

  it('order-independent: the same cause from events oldest first', () => {
    expect(stackFailureCause(portEvents([...CREATE_ROLLED_BACK].reverse()))).toEqual(
      stackFailureCause(portEvents(CREATE_ROLLED_BACK)),
    );
  });

  it('no operation start among the events: undefined', () => {
    expect(stackFailureCause(portEvents(CREATE_ROLLED_BACK.slice(0, 3)))).toBeUndefined();
    expect(stackFailureCause([])).toBeUndefined();
  });
});

describe('describeStackFailure', () => {
  it('names the first failed resource, its type and reason — never just "stack failed"', () => {
    const text = describeStackFailure(stackFailureCause(portEvents(CREATE_ROLLED_BACK)), 'fallback');

    expect(text).toBe(`first failed resource NodeSecurityGroup (AWS::EC2::SecurityGroup) CREATE_FAILED: ${VPC_REASON}`);
  });

  it('adds the rollback failures for UPDATE_ROLLBACK_FAILED', () => {
    const text = describeStackFailure(stackFailureCause(portEvents(UPDATE_ROLLBACK_FAILED)));

    expect(text).toContain(
      `rollback failed on WorkerAsg (AWS::AutoScaling::AutoScalingGroup) UPDATE_FAILED: ${ROLLBACK_REASON}`,
    );
  });

  it('falls back to the stack reason, then to the given text, when no resource failed', () => {
    expect(describeStackFailure({ rollbackFailed: [], stackReason: 'Stack reason' }, 'x')).toBe('Stack reason');
    expect(describeStackFailure(undefined, 'the stack is ROLLBACK_COMPLETE')).toBe('the stack is ROLLBACK_COMPLETE');
    expect(describeStackFailure(undefined)).toBe('');
  });
});
