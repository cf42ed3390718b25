// CloudFormationStackDeployer.describe, .delete and .list.
import {
  DeleteStackCommand,
  DescribeStacksCommand,
  UpdateTerminationProtectionCommand,
} from '@aws-sdk/client-cloudformation';
import type { Stack } from '@aws-sdk/client-cloudformation';
import 'aws-sdk-client-mock-jest';
import { sdkError } from './sdk-errors';
import { cfn, deployer, missing, stack, STACK_ID } from './cloudformation-deployer-fixtures';

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

  it('lifts termination protection when CloudFormation refuses because of it, then deletes', async () => {
    // Arrange
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack()] });
    cfn
      .on(DeleteStackCommand)
      .rejectsOnce(
        sdkError('ValidationError', 'Stack [kube-1] cannot be deleted while TerminationProtection is enabled'),
      )
      .resolves({});
    cfn.on(UpdateTerminationProtectionCommand).resolves({});

    // Act
    const result = await deployer().delete('kube-1');

    // Assert
    expect(result).toEqual({ result: 'STARTED' });
    expect(cfn).toHaveReceivedCommandWith(UpdateTerminationProtectionCommand, {
      StackName: STACK_ID,
      EnableTerminationProtection: false,
    });
    expect(cfn).toHaveReceivedCommandTimes(DeleteStackCommand, 2);
  });

  it('reports a stack that vanished between describe and delete as ALREADY_GONE', async () => {
    cfn.on(DescribeStacksCommand).resolves({ Stacks: [stack()] });
    cfn.on(DeleteStackCommand).rejects(sdkError('ValidationError', `Stack with id ${STACK_ID} does not exist`));
    await expect(deployer().delete('kube-1')).resolves.toEqual({ result: 'ALREADY_GONE' });
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
