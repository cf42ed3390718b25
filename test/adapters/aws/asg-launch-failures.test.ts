// AsgNodePoolBackend.getPool and a group short of its size: its newest launch activity, when Failed, is the group's
// launchFailure (EC2's VcpuLimitExceeded, say); a group at its size costs no DescribeScalingActivities call.
import { DescribeAutoScalingGroupsCommand, DescribeScalingActivitiesCommand } from '@aws-sdk/client-auto-scaling';
import { DescribeInstancesCommand, DescribeLaunchTemplateVersionsCommand } from '@aws-sdk/client-ec2';
import 'aws-sdk-client-mock-jest';
import { asg, backend, cluster, ec2, group, instance } from './asg-node-pool-fixtures';

const REFUSED =
  'You have requested more vCPU capacity than your current vCPU limit of 32 allows for the instance bucket that the ' +
  'specified instance type belongs to. Please visit http://aws.amazon.com/contact-us/ec2-request to request an ' +
  'adjustment to this limit. Launching EC2 instance failed.';

beforeEach(() => {
  asg.reset();
  ec2.reset();
  ec2.on(DescribeInstancesCommand).resolves({ Reservations: [] });
  ec2
    .on(DescribeLaunchTemplateVersionsCommand)
    .resolves({ LaunchTemplateVersions: [{ LaunchTemplateData: { InstanceType: 'm5.large' } }] });
});

describe("a group's failed launch", () => {
  it('is read from the newest launch activity of a group below its desired capacity', async () => {
    // Arrange: desired 3, two instances; the newest activity a termination, the launch before it Failed
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [
        group('workers-a', { DesiredCapacity: 3, Instances: [instance('i-1'), instance('i-2')] }),
        group('workers-b', { DesiredCapacity: 1, Instances: [instance('i-3')] }),
      ],
    });
    asg.on(DescribeScalingActivitiesCommand).resolves({
      Activities: [
        {
          ActivityId: 'a3',
          AutoScalingGroupName: 'workers-a',
          Description: 'Terminating EC2 instance: i-0',
          Cause: 'x',
          StartTime: new Date('2026-01-01T00:10:00Z'),
          StatusCode: 'Successful',
        },
        {
          ActivityId: 'a2',
          AutoScalingGroupName: 'workers-a',
          Description: 'Launching a new EC2 instance.  Status Reason: ...',
          Cause: 'x',
          StartTime: new Date('2026-01-01T00:05:00Z'),
          StatusCode: 'Failed',
          StatusMessage: REFUSED,
        },
      ],
    });

    // Act
    const pool = await backend().getPool(cluster, 'default-worker');

    // Assert
    expect(pool!.groups.find((g) => g.name === 'workers-a')!.launchFailure).toEqual({
      at: Date.parse('2026-01-01T00:05:00Z'),
      message: REFUSED,
    });
    expect(pool!.groups.find((g) => g.name === 'workers-b')!.launchFailure).toBeUndefined();
    expect(asg).toHaveReceivedCommandTimes(DescribeScalingActivitiesCommand, 1);
    expect(asg).toHaveReceivedCommandWith(DescribeScalingActivitiesCommand, {
      AutoScalingGroupName: 'workers-a',
      MaxRecords: 5,
    });
  });

  it('is none when the newest launch succeeded', async () => {
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [group('workers-a', { DesiredCapacity: 2, Instances: [instance('i-1')] })],
    });
    asg.on(DescribeScalingActivitiesCommand).resolves({
      Activities: [
        {
          ActivityId: 'a1',
          AutoScalingGroupName: 'workers-a',
          Description: 'Launching a new EC2 instance: i-2',
          Cause: 'x',
          StartTime: new Date(),
          StatusCode: 'InProgress',
        },
      ],
    });
    const pool = await backend().getPool(cluster, 'default-worker');
    expect(pool!.groups[0]!.launchFailure).toBeUndefined();
  });
});
