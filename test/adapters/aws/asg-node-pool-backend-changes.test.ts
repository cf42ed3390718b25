// AsgNodePoolBackend.scale, .terminate and .markForDecommission: the calls that change the groups.
import {
  DeleteTagsCommand,
  DescribeAutoScalingGroupsCommand,
  DescribeAutoScalingInstancesCommand,
  TerminateInstanceInAutoScalingGroupCommand,
  UpdateAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling';
import 'aws-sdk-client-mock-jest';
import { NotFoundError, RolloutError } from '../../../lambdas/shared/errors';
import { sdkError } from './sdk-errors';
import { asg, backend, cluster, ec2, group, OWNED, instanceIn } from './asg-node-pool-fixtures';

beforeEach(() => {
  asg.reset();
  ec2.reset();
});

describe('AsgNodePoolBackend.scale', () => {
  it('adds capacity to the smallest groups in turn and widens MaxSize, touching only changed groups', async () => {
    // Arrange
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [
        group('a', { DesiredCapacity: 2 }),
        group('b', { DesiredCapacity: 1, MaxSize: 1 }),
        group('c', { DesiredCapacity: 1 }),
        group('d', { DesiredCapacity: 3 }),
      ],
    });
    asg.on(UpdateAutoScalingGroupCommand).resolves({});

    // Act
    await backend().scale(cluster, 'default-worker', 10);

    // Assert: +3 → b 2, c 2, then a, b, c tie at 2 → a 3
    expect(asg).toHaveReceivedCommandTimes(UpdateAutoScalingGroupCommand, 3);
    expect(asg).toHaveReceivedCommandWith(UpdateAutoScalingGroupCommand, {
      AutoScalingGroupName: 'a',
      DesiredCapacity: 3,
    });
    expect(asg).toHaveReceivedCommandWith(UpdateAutoScalingGroupCommand, {
      AutoScalingGroupName: 'b',
      DesiredCapacity: 2,
      MaxSize: 2,
    });
    expect(asg).toHaveReceivedCommandWith(UpdateAutoScalingGroupCommand, {
      AutoScalingGroupName: 'c',
      DesiredCapacity: 2,
    });
  });

  it('removes capacity from the largest groups and lowers MinSize when needed', async () => {
    // Arrange
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [group('a', { DesiredCapacity: 3, MinSize: 3 }), group('b', { DesiredCapacity: 1 })],
    });
    asg.on(UpdateAutoScalingGroupCommand).resolves({});

    // Act
    await backend().scale(cluster, 'default-worker', 2);

    // Assert
    expect(asg).toHaveReceivedCommandTimes(UpdateAutoScalingGroupCommand, 1);
    expect(asg).toHaveReceivedCommandWith(UpdateAutoScalingGroupCommand, {
      AutoScalingGroupName: 'a',
      DesiredCapacity: 1,
      MinSize: 1,
    });
  });

  it('fails with NotFoundError for a pool without groups and ValidationError for a negative size', async () => {
    asg.on(DescribeAutoScalingGroupsCommand).resolves({ AutoScalingGroups: [] });
    await expect(backend().scale(cluster, 'gone', 1)).rejects.toThrow(NotFoundError);
    await expect(backend().scale(cluster, 'gone', -1)).rejects.toThrow(/a whole number >= 0 is required/);
  });
});

describe('AsgNodePoolBackend.terminate', () => {
  it('is a no-op for an instance that is in no group any more', async () => {
    asg.on(DescribeAutoScalingInstancesCommand).resolves({ AutoScalingInstances: [] });
    await backend().terminate(cluster, 'i-gone', true);
    expect(asg.calls()).toHaveLength(1);
  });

  it('is a no-op for an instance that is already terminating', async () => {
    asg.on(DescribeAutoScalingInstancesCommand).resolves(instanceIn('a', 'Terminating:Wait'));
    await backend().terminate(cluster, 'i-1', true);
    expect(asg).toHaveReceivedCommandTimes(TerminateInstanceInAutoScalingGroupCommand, 0);
  });

  it('lowers MinSize before a decrementing terminate would go below it', async () => {
    // Arrange
    asg.on(DescribeAutoScalingInstancesCommand).resolves(instanceIn('a'));
    asg
      .on(DescribeAutoScalingGroupsCommand)
      .resolves({ AutoScalingGroups: [group('a', { DesiredCapacity: 2, MinSize: 2 })] });
    asg.on(UpdateAutoScalingGroupCommand).resolves({});
    asg.on(TerminateInstanceInAutoScalingGroupCommand).resolves({});

    // Act
    await backend().terminate(cluster, 'i-1', true);

    // Assert
    expect(asg).toHaveReceivedNthCommandWith(3, UpdateAutoScalingGroupCommand, {
      AutoScalingGroupName: 'a',
      MinSize: 1,
    });
    expect(asg).toHaveReceivedNthCommandWith(4, TerminateInstanceInAutoScalingGroupCommand, {
      InstanceId: 'i-1',
      ShouldDecrementDesiredCapacity: true,
    });
    expect(asg.calls()).toHaveLength(4);
  });

  it('terminates without touching MinSize when a replacement is wanted', async () => {
    // Arrange
    asg.on(DescribeAutoScalingInstancesCommand).resolves(instanceIn('a'));
    asg
      .on(DescribeAutoScalingGroupsCommand)
      .resolves({ AutoScalingGroups: [group('a', { DesiredCapacity: 2, MinSize: 2 })] });
    asg.on(TerminateInstanceInAutoScalingGroupCommand).resolves({});

    // Act
    await backend().terminate(cluster, 'i-1', false);

    // Assert
    expect(asg).toHaveReceivedCommandTimes(UpdateAutoScalingGroupCommand, 0);
    expect(asg).toHaveReceivedCommandWith(TerminateInstanceInAutoScalingGroupCommand, {
      InstanceId: 'i-1',
      ShouldDecrementDesiredCapacity: false,
    });
  });

  it('refuses to terminate an instance whose group is not owned by the cluster', async () => {
    // Arrange
    asg.on(DescribeAutoScalingInstancesCommand).resolves(instanceIn('foreign'));
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [group('foreign', { Tags: [{ Key: 'kubernetes.io/cluster/other', Value: 'owned' }] })],
    });

    // Act / Assert
    await expect(backend().terminate(cluster, 'i-1', false)).rejects.toThrow(RolloutError);
    expect(asg).toHaveReceivedCommandTimes(TerminateInstanceInAutoScalingGroupCommand, 0);
  });

  it('treats "instance not found" from the terminate call as done', async () => {
    asg.on(DescribeAutoScalingInstancesCommand).resolves(instanceIn('a'));
    asg.on(DescribeAutoScalingGroupsCommand).resolves({ AutoScalingGroups: [group('a', { DesiredCapacity: 3 })] });
    asg
      .on(TerminateInstanceInAutoScalingGroupCommand)
      .rejects(sdkError('ValidationError', 'Instance Id not found - No managed instance found for instance ID i-1'));
    await expect(backend().terminate(cluster, 'i-1', true)).resolves.toBeUndefined();
  });
});

describe('AsgNodePoolBackend.markForDecommission', () => {
  it('removes the cluster-autoscaler tag and sets MinSize 0, only where needed', async () => {
    // Arrange
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [
        group('a', { MinSize: 2, Tags: [OWNED, { Key: 'k8s.io/cluster-autoscaler/enabled', Value: 'true' }] }),
        group('b', { MinSize: 0 }),
      ],
    });
    asg.on(DeleteTagsCommand).resolves({});
    asg.on(UpdateAutoScalingGroupCommand).resolves({});

    // Act
    await backend().markForDecommission(cluster, 'default-worker');

    // Assert
    expect(asg).toHaveReceivedCommandTimes(DeleteTagsCommand, 1);
    expect(asg).toHaveReceivedCommandWith(DeleteTagsCommand, {
      Tags: [{ ResourceId: 'a', ResourceType: 'auto-scaling-group', Key: 'k8s.io/cluster-autoscaler/enabled' }],
    });
    expect(asg).toHaveReceivedCommandTimes(UpdateAutoScalingGroupCommand, 1);
    expect(asg).toHaveReceivedCommandWith(UpdateAutoScalingGroupCommand, { AutoScalingGroupName: 'a', MinSize: 0 });
  });
});
