// AsgNodePoolBackend's roll marks (core/rollout/pre-roll-size.ts): the size before a roll on each group, read back by
// getPool, and the bounds put back at the end.
import {
  CreateOrUpdateTagsCommand,
  DeleteTagsCommand,
  DescribeAutoScalingGroupsCommand,
  UpdateAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling';
import { DescribeInstancesCommand, DescribeLaunchTemplateVersionsCommand } from '@aws-sdk/client-ec2';
import 'aws-sdk-client-mock-jest';
import { PRE_ROLL_SIZE_TAG } from '../../../lambdas/core/rollout/pre-roll-size';
import { OWNED, asg, backend, cluster, ec2, group } from './asg-node-pool-fixtures';

beforeEach(() => {
  asg.reset();
  ec2.reset();
});

const mark = (value: string) => ({ Key: PRE_ROLL_SIZE_TAG, Value: value });

describe('AsgNodePoolBackend pre-roll size marks', () => {
  it('marks each unmarked group with its size now, and leaves a marked one alone', async () => {
    // Arrange
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [
        group('a', { DesiredCapacity: 2, MinSize: 2, MaxSize: 3 }),
        group('b', { DesiredCapacity: 4, Tags: [OWNED, mark('desired=1,min=1,max=3')] }),
      ],
    });
    asg.on(CreateOrUpdateTagsCommand).resolves({});

    // Act
    await backend().markPreRollSize(cluster, 'default-worker');

    // Assert
    expect(asg).toHaveReceivedCommandTimes(CreateOrUpdateTagsCommand, 1);
    expect(asg).toHaveReceivedCommandWith(CreateOrUpdateTagsCommand, {
      Tags: [
        {
          ResourceId: 'a',
          ResourceType: 'auto-scaling-group',
          Key: PRE_ROLL_SIZE_TAG,
          Value: 'desired=2,min=2,max=3',
          PropagateAtLaunch: false,
        },
      ],
    });
  });

  it('with a pairing count, rewrites every mark keeping the size before the roll', async () => {
    // Arrange
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [group('a', { DesiredCapacity: 4, Tags: [OWNED, mark('desired=2,min=2,max=3')] })],
    });
    asg.on(CreateOrUpdateTagsCommand).resolves({});

    // Act
    await backend().markPreRollSize(cluster, 'default-worker', 1);

    // Assert
    expect(asg).toHaveReceivedCommandWith(CreateOrUpdateTagsCommand, {
      Tags: [expect.objectContaining({ ResourceId: 'a', Value: 'desired=2,min=2,max=3,pairing=1' })],
    });
  });

  it('getPool reads the marks back', async () => {
    // Arrange
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [
        group('a', { DesiredCapacity: 5, MaxSize: 5, Tags: [OWNED, mark('desired=2,min=2,max=3,pairing=1')] }),
      ],
    });
    ec2.on(DescribeInstancesCommand).resolves({ Reservations: [] });
    ec2
      .on(DescribeLaunchTemplateVersionsCommand)
      .resolves({ LaunchTemplateVersions: [{ LaunchTemplateData: { InstanceType: 'm5.large' } }] });

    // Act
    const pool = await backend().getPool(cluster, 'default-worker');

    // Assert
    expect(pool?.groups[0]?.preRoll).toEqual({ desired: 2, min: 2, max: 3, pairing: 1 });
  });

  it('at the end puts the bounds back around the desired capacity and removes the mark', async () => {
    // Arrange
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [
        group('a', { DesiredCapacity: 2, MinSize: 1, MaxSize: 5, Tags: [OWNED, mark('desired=2,min=2,max=3')] }),
        group('b', { DesiredCapacity: 2, MinSize: 2, MaxSize: 3 }),
      ],
    });
    asg.on(UpdateAutoScalingGroupCommand).resolves({});
    asg.on(DeleteTagsCommand).resolves({});

    // Act
    await backend().restorePreRollSize(cluster, 'default-worker');

    // Assert
    expect(asg).toHaveReceivedCommandTimes(UpdateAutoScalingGroupCommand, 1);
    expect(asg).toHaveReceivedCommandWith(UpdateAutoScalingGroupCommand, {
      AutoScalingGroupName: 'a',
      MinSize: 2,
      MaxSize: 3,
    });
    expect(asg).toHaveReceivedCommandTimes(DeleteTagsCommand, 1);
    expect(asg).toHaveReceivedCommandWith(DeleteTagsCommand, {
      Tags: [{ ResourceId: 'a', ResourceType: 'auto-scaling-group', Key: PRE_ROLL_SIZE_TAG }],
    });
  });
});
