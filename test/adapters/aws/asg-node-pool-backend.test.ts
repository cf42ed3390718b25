import {
  AutoScalingClient,
  DeleteTagsCommand,
  DescribeAutoScalingGroupsCommand,
  DescribeAutoScalingInstancesCommand,
  TerminateInstanceInAutoScalingGroupCommand,
  UpdateAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling';
import type { AutoScalingGroup, Instance } from '@aws-sdk/client-auto-scaling';
import { DescribeInstancesCommand, DescribeLaunchTemplateVersionsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { AsgNodePoolBackend } from '../../../lambdas/adapters/aws/asg-node-pool-backend';
import type { ClusterRef } from '../../../lambdas/ports/node-pool-backend';
import { ConfigError, NotFoundError, RolloutError, ThrottledError } from '../../../lambdas/shared/errors';
import { sdkError } from './sdk-errors';

const asg = mockClient(AutoScalingClient);
const ec2 = mockClient(EC2Client);
const cluster: ClusterRef = {
  id: 'aws:123456789012:eu-central-1:kube-1',
  name: 'aws:123456789012:eu-central-1:kube-1',
  region: 'eu-central-1',
  infrastructureAccount: 'aws:123456789012',
};
const OWNED = { Key: `kubernetes.io/cluster/${cluster.name}`, Value: 'owned' };
const LT = { LaunchTemplateId: 'lt-1', LaunchTemplateName: 'worker', Version: '3' };

function instance(id: string, overrides: Partial<Instance> = {}): Instance {
  return {
    InstanceId: id,
    AvailabilityZone: 'eu-central-1a',
    LifecycleState: 'InService',
    HealthStatus: 'Healthy',
    InstanceType: 'm5.large',
    LaunchTemplate: LT,
    ProtectedFromScaleIn: false,
    ...overrides,
  };
}

function group(name: string, overrides: Partial<AutoScalingGroup> = {}): AutoScalingGroup {
  return {
    AutoScalingGroupName: name,
    MinSize: 1,
    MaxSize: 10,
    DesiredCapacity: 1,
    DefaultCooldown: 300,
    AvailabilityZones: ['eu-central-1a'],
    HealthCheckType: 'EC2',
    CreatedTime: new Date('2026-01-01T00:00:00Z'),
    LaunchTemplate: LT,
    Instances: [],
    Tags: [OWNED, { Key: 'NodePool', Value: 'default-worker' }],
    ...overrides,
  };
}

function ec2Instances(spotIds: readonly string[], onDemandIds: readonly string[]) {
  return {
    Reservations: [
      {
        Instances: [
          ...spotIds.map((InstanceId) => ({
            InstanceId,
            SpotInstanceRequestId: `sir-${InstanceId}`,
            InstanceLifecycle: 'spot' as const,
          })),
          ...onDemandIds.map((InstanceId) => ({ InstanceId })),
        ],
      },
    ],
  };
}

const backend = () =>
  new AsgNodePoolBackend(new AutoScalingClient({ region: 'eu-central-1' }), new EC2Client({ region: 'eu-central-1' }));

beforeEach(() => {
  asg.reset();
  ec2.reset();
});

describe('AsgNodePoolBackend.getPool', () => {
  it('finds the groups by the cluster and NodePool tags and returns undefined when there are none', async () => {
    // Arrange
    asg.on(DescribeAutoScalingGroupsCommand).resolves({ AutoScalingGroups: [] });

    // Act
    const pool = await backend().getPool(cluster, 'default-worker');

    // Assert
    expect(pool).toBeUndefined();
    expect(asg).toHaveReceivedCommandWith(DescribeAutoScalingGroupsCommand, {
      Filters: [
        { Name: `tag:kubernetes.io/cluster/${cluster.name}`, Values: ['owned'] },
        { Name: 'tag:NodePool', Values: ['default-worker'] },
      ],
    });
    expect(ec2.calls()).toHaveLength(0);
  });

  it('marks instances outdated by template version, template, type and spot-ness, with one template and one instance lookup', async () => {
    // Arrange
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [
        group('pool-b', {
          DesiredCapacity: 3,
          MinSize: 1,
          MaxSize: 5,
          Instances: [
            instance('i-wrongtype', { AvailabilityZone: 'eu-central-1b', InstanceType: 'c5.large' }),
            instance('i-spot', { AvailabilityZone: 'eu-central-1b' }),
            instance('i-nolt', { AvailabilityZone: 'eu-central-1b', LaunchTemplate: undefined }),
          ],
        }),
        group('pool-a', {
          DesiredCapacity: 3,
          MinSize: 2,
          MaxSize: 6,
          Instances: [
            instance('i-current'),
            instance('i-oldversion', { LaunchTemplate: { ...LT, Version: '2' } }),
            instance('i-booting', { LifecycleState: 'Pending', HealthStatus: 'Healthy' }),
          ],
        }),
      ],
    });
    ec2
      .on(DescribeLaunchTemplateVersionsCommand)
      .resolves({ LaunchTemplateVersions: [{ LaunchTemplateData: { InstanceType: 'm5.large' } }] });
    ec2
      .on(DescribeInstancesCommand)
      .resolves(ec2Instances(['i-spot'], ['i-current', 'i-oldversion', 'i-booting', 'i-wrongtype', 'i-nolt']));

    // Act
    const pool = await backend().getPool(cluster, 'default-worker');

    // Assert
    expect(pool).toMatchObject({ poolName: 'default-worker', desired: 6, min: 3, max: 11 });
    expect(pool!.groups.map((g) => g.name)).toEqual(['pool-a', 'pool-b']);
    const byId = Object.fromEntries(pool!.instances.map((i) => [i.instanceId, i]));
    expect(byId['i-current']).toEqual({
      instanceId: 'i-current',
      availabilityZone: 'eu-central-1a',
      lifecycleState: 'InService',
      healthy: true,
      outdated: false,
      launchTemplateVersion: '3',
      instanceType: 'm5.large',
      asgName: 'pool-a',
    });
    expect(byId['i-oldversion'].outdated).toBe(true);
    expect(byId['i-booting']).toMatchObject({ outdated: false, healthy: false });
    expect(byId['i-wrongtype'].outdated).toBe(true);
    expect(byId['i-spot'].outdated).toBe(true);
    expect(byId['i-nolt'].outdated).toBe(true);
    expect(ec2).toHaveReceivedCommandTimes(DescribeLaunchTemplateVersionsCommand, 1);
    expect(ec2).toHaveReceivedCommandWith(DescribeLaunchTemplateVersionsCommand, {
      LaunchTemplateId: 'lt-1',
      Versions: ['3'],
    });
    expect(ec2).toHaveReceivedCommandTimes(DescribeInstancesCommand, 1);
  });

  it('takes types from MixedInstancesPolicy overrides and spot-ness from OnDemandPercentageAboveBaseCapacity, without reading the template', async () => {
    // Arrange
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [
        group('spot-pool', {
          LaunchTemplate: undefined,
          MixedInstancesPolicy: {
            LaunchTemplate: {
              LaunchTemplateSpecification: { LaunchTemplateName: 'worker', Version: '7' },
              Overrides: [{ InstanceType: 'm5.large' }, { InstanceType: 'm5a.large' }],
            },
            InstancesDistribution: { OnDemandBaseCapacity: 0, OnDemandPercentageAboveBaseCapacity: 0 },
          },
          Instances: [
            instance('i-a', {
              LaunchTemplate: { LaunchTemplateName: 'worker', Version: '7' },
              InstanceType: 'm5a.large',
            }),
            instance('i-ondemand', { LaunchTemplate: { LaunchTemplateName: 'worker', Version: '7' } }),
          ],
        }),
      ],
    });
    ec2.on(DescribeInstancesCommand).resolves(ec2Instances(['i-a'], ['i-ondemand']));

    // Act
    const pool = await backend().getPool(cluster, 'default-worker');

    // Assert
    expect(pool!.instances.map((i) => [i.instanceId, i.outdated])).toEqual([
      ['i-a', false],
      ['i-ondemand', true],
    ]);
    expect(ec2).toHaveReceivedCommandTimes(DescribeLaunchTemplateVersionsCommand, 0);
  });

  it("takes each instance's version from its EC2 launch tags, which moto gets right and its ASG view does not", async () => {
    // Arrange: moto reports every instance at the template's current default version; the tags keep the launch version
    asg
      .on(DescribeAutoScalingGroupsCommand)
      .resolves({ AutoScalingGroups: [group('g', { Instances: [instance('i-old'), instance('i-new')] })] });
    ec2
      .on(DescribeLaunchTemplateVersionsCommand)
      .resolves({ LaunchTemplateVersions: [{ LaunchTemplateData: { InstanceType: 'm5.large' } }] });
    const tagged = (InstanceId: string, version: string) => ({
      InstanceId,
      InstanceType: 'm5.large' as const,
      Tags: [
        { Key: 'aws:ec2launchtemplate:id', Value: 'lt-1' },
        { Key: 'aws:ec2launchtemplate:version', Value: version },
      ],
    });
    ec2
      .on(DescribeInstancesCommand)
      .resolves({ Reservations: [{ Instances: [tagged('i-old', '2'), tagged('i-new', '3')] }] });

    // Act
    const pool = await backend().getPool(cluster, 'default-worker');

    // Assert
    expect(pool!.instances.map((i) => [i.instanceId, i.launchTemplateVersion, i.outdated])).toEqual([
      ['i-old', '2', true],
      ['i-new', '3', false],
    ]);
    expect(ec2).toHaveReceivedCommandWith(DescribeInstancesCommand, {
      Filters: [{ Name: 'instance-id', Values: ['i-old', 'i-new'] }],
    });
  });

  it('reads spot-ness from the launch template market type when there is no MixedInstancesPolicy', async () => {
    // Arrange
    asg
      .on(DescribeAutoScalingGroupsCommand)
      .resolves({ AutoScalingGroups: [group('g', { Instances: [instance('i-spot'), instance('i-od')] })] });
    ec2.on(DescribeLaunchTemplateVersionsCommand).resolves({
      LaunchTemplateVersions: [
        { LaunchTemplateData: { InstanceType: 'm5.large', InstanceMarketOptions: { MarketType: 'spot' } } },
      ],
    });
    ec2.on(DescribeInstancesCommand).resolves(ec2Instances(['i-spot'], ['i-od']));

    // Act
    const pool = await backend().getPool(cluster, 'default-worker');

    // Assert
    expect(pool!.instances.map((i) => [i.instanceId, i.outdated])).toEqual([
      ['i-spot', false],
      ['i-od', true],
    ]);
  });

  it.each(['$Latest', '$Default', undefined])(
    'rejects a group that references launch template version %s, naming the group',
    async (version) => {
      // Arrange
      asg.on(DescribeAutoScalingGroupsCommand).resolves({
        AutoScalingGroups: [group('pool-a', { LaunchTemplate: { LaunchTemplateId: 'lt-1', Version: version } })],
      });

      // Act
      const act = backend().getPool(cluster, 'default-worker');

      // Assert
      await expect(act).rejects.toThrow(ConfigError);
      await expect(act).rejects.toThrow(/Auto Scaling group pool-a references launch template lt-1 with version/);
    },
  );

  it('pages through DescribeAutoScalingGroups', async () => {
    // Arrange
    asg
      .on(DescribeAutoScalingGroupsCommand)
      .resolvesOnce({ AutoScalingGroups: [group('g1')], NextToken: 'n1' })
      .resolvesOnce({ AutoScalingGroups: [group('g2')] });
    ec2
      .on(DescribeLaunchTemplateVersionsCommand)
      .resolves({ LaunchTemplateVersions: [{ LaunchTemplateData: { InstanceType: 'm5.large' } }] });

    // Act
    const pool = await backend().getPool(cluster, 'default-worker');

    // Assert
    expect(pool!.groups.map((g) => g.name)).toEqual(['g1', 'g2']);
    expect(asg).toHaveReceivedCommandTimes(DescribeAutoScalingGroupsCommand, 2);
    expect(ec2).toHaveReceivedCommandTimes(DescribeInstancesCommand, 0);
  });

  it('classifies throttling as ThrottledError naming the pool', async () => {
    asg.on(DescribeAutoScalingGroupsCommand).rejects(sdkError('Throttling', 'Rate exceeded'));
    await expect(backend().getPool(cluster, 'default-worker')).rejects.toThrow(ThrottledError);
    await expect(backend().getPool(cluster, 'default-worker')).rejects.toThrow(/pool default-worker/);
  });
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
    asg.on(DescribeAutoScalingInstancesCommand).resolves({
      AutoScalingInstances: [
        {
          InstanceId: 'i-1',
          AutoScalingGroupName: 'a',
          LifecycleState: 'Terminating:Wait',
          AvailabilityZone: 'x',
          HealthStatus: 'Healthy',
          ProtectedFromScaleIn: false,
        },
      ],
    });
    await backend().terminate(cluster, 'i-1', true);
    expect(asg).toHaveReceivedCommandTimes(TerminateInstanceInAutoScalingGroupCommand, 0);
  });

  it('lowers MinSize before a decrementing terminate would go below it', async () => {
    // Arrange
    asg.on(DescribeAutoScalingInstancesCommand).resolves({
      AutoScalingInstances: [
        {
          InstanceId: 'i-1',
          AutoScalingGroupName: 'a',
          LifecycleState: 'InService',
          AvailabilityZone: 'x',
          HealthStatus: 'Healthy',
          ProtectedFromScaleIn: false,
        },
      ],
    });
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
    asg.on(DescribeAutoScalingInstancesCommand).resolves({
      AutoScalingInstances: [
        {
          InstanceId: 'i-1',
          AutoScalingGroupName: 'a',
          LifecycleState: 'InService',
          AvailabilityZone: 'x',
          HealthStatus: 'Healthy',
          ProtectedFromScaleIn: false,
        },
      ],
    });
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
    asg.on(DescribeAutoScalingInstancesCommand).resolves({
      AutoScalingInstances: [
        {
          InstanceId: 'i-1',
          AutoScalingGroupName: 'foreign',
          LifecycleState: 'InService',
          AvailabilityZone: 'x',
          HealthStatus: 'Healthy',
          ProtectedFromScaleIn: false,
        },
      ],
    });
    asg.on(DescribeAutoScalingGroupsCommand).resolves({
      AutoScalingGroups: [group('foreign', { Tags: [{ Key: 'kubernetes.io/cluster/other', Value: 'owned' }] })],
    });

    // Act / Assert
    await expect(backend().terminate(cluster, 'i-1', false)).rejects.toThrow(RolloutError);
    expect(asg).toHaveReceivedCommandTimes(TerminateInstanceInAutoScalingGroupCommand, 0);
  });

  it('treats "instance not found" from the terminate call as done', async () => {
    asg.on(DescribeAutoScalingInstancesCommand).resolves({
      AutoScalingInstances: [
        {
          InstanceId: 'i-1',
          AutoScalingGroupName: 'a',
          LifecycleState: 'InService',
          AvailabilityZone: 'x',
          HealthStatus: 'Healthy',
          ProtectedFromScaleIn: false,
        },
      ],
    });
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
