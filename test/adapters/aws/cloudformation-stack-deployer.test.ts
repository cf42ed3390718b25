// CloudFormationStackDeployer.describe, .delete and .list.
import {
  ContinueUpdateRollbackCommand,
  DeleteStackCommand,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  UpdateTerminationProtectionCommand,
} from '@aws-sdk/client-cloudformation';
import type { Stack } from '@aws-sdk/client-cloudformation';
import 'aws-sdk-client-mock-jest';
import { sdkError } from './sdk-errors';
import { cfn, deployer, missing, stack, STACK_ID } from './cloudformation-deployer-fixtures';
import { ROLLBACK_REASON, UPDATE_ROLLBACK_FAILED } from '../../fixtures/stack-events';

beforeEach(() => cfn.reset());

describe('CloudFormationStackDeployer.describe', () => {
  it('returns undefined for a stack CloudFormation does not know', async () => {
    cfn.on(DescribeStacksCommand).rejects(missing());
    await expect(deployer().describe('kube-1')).resolves.toBeUndefined();
  });

  it('maps status, reason, outputs, tags and the last update time', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({
      Stacks: [
        stack({
          StackStatus: 'UPDATE_ROLLBACK_COMPLETE',
          StackStatusReason: 'Resource failed',
          LastUpdatedTime: new Date('2026-02-03T04:05:06Z'),
          Outputs: [{ OutputKey: 'WorkerFilesEncryptionKey', OutputValue: 'arn:aws:kms:key/1' }],
          Tags: [{ Key: 'application', Value: 'kubernetes' }],
        }),
      ],
    });

    // Act
    const state = await deployer().describe('kube-1');

    // Assert
    expect(state).toEqual({
      name: 'kube-1',
      status: 'UPDATE_ROLLBACK_COMPLETE',
      reason: 'Resource failed',
      outputs: { WorkerFilesEncryptionKey: 'arn:aws:kms:key/1' },
      tags: { application: 'kubernetes' },
      lastUpdatedTime: '2026-02-03T04:05:06.000Z',
    });
  });
});

describe('CloudFormationStackDeployer.delete', () => {
  it('reports a missing stack as ALREADY_GONE without deleting', async () => {
    cfn.on(DescribeStacksCommand).rejects(missing());
    await expect(deployer().delete('kube-1')).resolves.toEqual({ result: 'ALREADY_GONE' });
    expect(cfn).toHaveReceivedCommandTimes(DeleteStackCommand, 0);
  });

  it('does not call DeleteStack again for a stack already being deleted', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ StackStatus: 'DELETE_IN_PROGRESS' })] });
    await expect(deployer().delete('kube-1')).resolves.toEqual({ result: 'STARTED' });
    expect(cfn).toHaveReceivedCommandTimes(DeleteStackCommand, 0);
  });

  it('deletes an unprotected stack by its id with one call', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ EnableTerminationProtection: false })] });
    cfn.on(DeleteStackCommand).resolves({});
    await expect(deployer().delete('kube-1')).resolves.toEqual({ result: 'STARTED' });
    expect(cfn).toHaveReceivedCommandWith(DeleteStackCommand, { StackName: STACK_ID });
    expect(cfn).toHaveReceivedCommandTimes(DeleteStackCommand, 1);
    expect(cfn).toHaveReceivedCommandTimes(UpdateTerminationProtectionCommand, 0);
  });

  it('refuses a protected stack when the caller does not lift the protection, calling nothing that changes it', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ EnableTerminationProtection: true })] });

    await expect(deployer().delete('kube-1')).rejects.toThrow(
      'Stack kube-1 has termination protection enabled; only decommission (or the removal of its pool) deletes it',
    );
    expect(cfn).toHaveReceivedCommandTimes(UpdateTerminationProtectionCommand, 0);
    expect(cfn).toHaveReceivedCommandTimes(DeleteStackCommand, 0);
  });

  it('lifts termination protection just before the DeleteStack that deletes, when the caller says so', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ EnableTerminationProtection: true })] });
    cfn.on(UpdateTerminationProtectionCommand).resolves({});
    cfn
      .on(DeleteStackCommand)
      .rejectsOnce(
        sdkError('ValidationError', 'Stack [kube-1] cannot be deleted while TerminationProtection is enabled'),
      )
      .resolves({});

    // Act
    const result = await deployer().delete('kube-1', { disableTerminationProtection: true });

    // Assert
    expect(result).toEqual({ result: 'STARTED' });
    expect(cfn.calls().map((c) => c.args[0].constructor.name)).toEqual([
      'DescribeStacksCommand',
      'DeleteStackCommand',
      'UpdateTerminationProtectionCommand',
      'DeleteStackCommand',
    ]);
    expect(cfn).toHaveReceivedCommandWith(UpdateTerminationProtectionCommand, {
      StackName: STACK_ID,
      EnableTerminationProtection: false,
    });
  });

  it('deletes a stack moto reports as protected without UpdateTerminationProtection (moto deletes it at once)', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ EnableTerminationProtection: true })] });
    cfn.on(DeleteStackCommand).resolves({});

    await expect(deployer().delete('kube-1', { disableTerminationProtection: true })).resolves.toEqual({
      result: 'STARTED',
    });
    expect(cfn).toHaveReceivedCommandTimes(UpdateTerminationProtectionCommand, 0);
  });

  it('lifts protection and deletes again when CloudFormation refuses for protection DescribeStacks did not report', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ EnableTerminationProtection: undefined })] });
    cfn
      .on(DeleteStackCommand)
      .rejectsOnce(
        sdkError('ValidationError', 'Stack [kube-1] cannot be deleted while TerminationProtection is enabled'),
      )
      .resolves({});
    cfn.on(UpdateTerminationProtectionCommand).resolves({});

    await expect(deployer().delete('kube-1', { disableTerminationProtection: true })).resolves.toEqual({
      result: 'STARTED',
    });
    expect(cfn).toHaveReceivedCommandTimes(DeleteStackCommand, 2);
  });

  it('reports a stack that vanished between describe and delete as ALREADY_GONE', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack({ EnableTerminationProtection: false })] });
    cfn.on(DeleteStackCommand).rejects(sdkError('ValidationError', `Stack with id ${STACK_ID} does not exist`));
    await expect(deployer().delete('kube-1')).resolves.toEqual({ result: 'ALREADY_GONE' });
  });
});

describe('CloudFormationStackDeployer.events', () => {
  it('pages DescribeStackEvents only back to the start of the last create or update, mapping the real shape', async () => {
    // Arrange: the stack's events split over two pages, then an older page that must not be read
    cfn
      .on(DescribeStackEventsCommand)
      .resolvesOnce({ StackEvents: UPDATE_ROLLBACK_FAILED.slice(0, 4), NextToken: 'p2' })
      .resolvesOnce({ StackEvents: UPDATE_ROLLBACK_FAILED.slice(4), NextToken: 'p3' })
      .resolves({ StackEvents: [] });

    // Act
    const events = await deployer().events('kube-1');

    // Assert
    expect(cfn).toHaveReceivedCommandTimes(DescribeStackEventsCommand, 2);
    expect(cfn).toHaveReceivedNthCommandWith(2, DescribeStackEventsCommand, { StackName: 'kube-1', NextToken: 'p2' });
    expect(events).toHaveLength(10);
    expect(events[events.length - 1]).toMatchObject({
      logicalResourceId: 'kube-1',
      resourceType: 'AWS::CloudFormation::Stack',
      resourceStatus: 'UPDATE_IN_PROGRESS',
      resourceStatusReason: 'User Initiated',
    });
    expect(events[1]).toEqual({
      eventId: 'WorkerAsg-UPDATE_FAILED-2026-03-04T12:10:39.000Z',
      stackName: 'kube-1',
      logicalResourceId: 'WorkerAsg',
      physicalResourceId: 'kube-1-WorkerAsg-1A2B',
      resourceType: 'AWS::AutoScaling::AutoScalingGroup',
      timestamp: '2026-03-04T12:10:39.000Z',
      resourceStatus: 'UPDATE_FAILED',
      resourceStatusReason: ROLLBACK_REASON,
    });
  });

  it('returns what it has for a stack that is gone', async () => {
    cfn.on(DescribeStackEventsCommand).rejects(missing());
    await expect(deployer().events('kube-1')).resolves.toEqual([]);
  });
});

describe('CloudFormationStackDeployer.continueUpdateRollback', () => {
  it('sends ResourcesToSkip only when resources are named', async () => {
    cfn.on(ContinueUpdateRollbackCommand).resolves({});

    await deployer().continueUpdateRollback('kube-1', []);
    await deployer({ roleArn: 'arn:aws:iam::123456789012:role/cfn' }).continueUpdateRollback('kube-1', ['WorkerAsg']);

    expect(cfn.commandCalls(ContinueUpdateRollbackCommand).map((c) => c.args[0].input)).toEqual([
      { StackName: 'kube-1' },
      { StackName: 'kube-1', ResourcesToSkip: ['WorkerAsg'], RoleARN: 'arn:aws:iam::123456789012:role/cfn' },
    ]);
  });

  it('names the call and the stack when CloudFormation refuses', async () => {
    cfn
      .on(ContinueUpdateRollbackCommand)
      .rejects(
        sdkError('ValidationError', 'Stack kube-1 is in UPDATE_COMPLETE state and can not be continued rollback'),
      );

    await expect(deployer().continueUpdateRollback('kube-1', [])).rejects.toThrow(
      'CloudFormation ContinueUpdateRollback kube-1',
    );
  });
});

describe('CloudFormationStackDeployer.list', () => {
  it('pages through DescribeStacks and keeps stacks carrying every tag (* = any value)', async () => {
    // Arrange
    const tagged = (name: string, tags: Record<string, string>, status = 'CREATE_COMPLETE'): Stack =>
      stack({
        StackName: name,
        StackStatus: status as Stack['StackStatus'],
        Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
      });
    cfn
      .on(DescribeStacksCommand)
      .resolvesOnce({
        Stacks: [
          tagged('nodepool-a', { 'kubernetes.io/cluster/c1': 'owned', 'kubernetes.io/node-pool': 'a' }),
          tagged('other-cluster', { 'kubernetes.io/cluster/c2': 'owned', 'kubernetes.io/node-pool': 'x' }),
        ],
        NextToken: 'page-2',
      })
      .resolvesOnce({
        Stacks: [
          tagged('nodepool-b', { 'kubernetes.io/cluster/c1': 'owned', 'kubernetes.io/node-pool': 'b' }),
          tagged('main', { 'kubernetes.io/cluster/c1': 'owned' }),
          tagged('gone', { 'kubernetes.io/cluster/c1': 'owned', 'kubernetes.io/node-pool': 'z' }, 'DELETE_COMPLETE'),
        ],
      });

    // Act
    const stacks = await deployer().list({ 'kubernetes.io/cluster/c1': 'owned', 'kubernetes.io/node-pool': '*' });

    // Assert
    expect(stacks.map((s) => s.name)).toEqual(['nodepool-a', 'nodepool-b']);
    expect(cfn).toHaveReceivedCommandTimes(DescribeStacksCommand, 2);
    expect(cfn).toHaveReceivedNthCommandWith(2, DescribeStacksCommand, { NextToken: 'page-2' });
  });
});
