// AsgNodePoolBackend.getPool: groups by tags, outdated instances, mixed instances, paging, errors.
import { DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { DescribeInstancesCommand, DescribeLaunchTemplateVersionsCommand } from '@aws-sdk/client-ec2';
import 'aws-sdk-client-mock-jest';
import { ConfigError, ThrottledError } from '../../../lambdas/shared/errors';
import { sdkError } from './sdk-errors';
import { asg, backend, cluster, ec2, ec2Instances, group, instance, LT } from './asg-node-pool-fixtures';

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
    const instances = ec2Instances(['i-a'], ['i-ondemand']);
    const launched = new Date('2026-11-26T12:00:00Z');
    Object.assign(instances.Reservations[0]!.Instances[1]!, { LaunchTime: launched });
    ec2.on(DescribeInstancesCommand).resolves(instances);

    // Act
    const pool = await backend().getPool(cluster, 'default-worker');

    // Assert
    expect(pool!.instances.map((i) => [i.instanceId, i.outdated])).toEqual([
      ['i-a', false],
      ['i-ondemand', true],
    ]);
    // EC2's LaunchTime, for the boot times a roll learns
    expect(pool!.instances.map((i) => i.launchedAt)).toEqual([undefined, launched.getTime()]);
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
