/** Arrange helpers shared by the AsgNodePoolBackend tests: mocked clients, a cluster, groups and instances. */
import { AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import type {
  AutoScalingGroup,
  DescribeAutoScalingInstancesCommandOutput,
  Instance,
} from '@aws-sdk/client-auto-scaling';
import { EC2Client } from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import { AsgNodePoolBackend } from '../../../lambdas/adapters/aws/asg-node-pool-backend';
import type { ClusterRef } from '../../../lambdas/ports/node-pool-backend';

/** The mocked clients; each test file resets them in `beforeEach`. */
export const asg = mockClient(AutoScalingClient);
export const ec2 = mockClient(EC2Client);
export const cluster: ClusterRef = {
  id: 'aws:123456789012:eu-central-1:kube-1',
  name: 'aws:123456789012:eu-central-1:kube-1',
  region: 'eu-central-1',
  infrastructureAccount: 'aws:123456789012',
};
/** The tag that makes a group the cluster's. */
export const OWNED = { Key: `kubernetes.io/cluster/${cluster.name}`, Value: 'owned' };
export const LT = { LaunchTemplateId: 'lt-1', LaunchTemplateName: 'worker', Version: '3' };

export function instance(id: string, overrides: Partial<Instance> = {}): Instance {
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

export function group(name: string, overrides: Partial<AutoScalingGroup> = {}): AutoScalingGroup {
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

/** DescribeInstances output: spot instances carry a spot request and lifecycle. */
export function ec2Instances(spotIds: readonly string[], onDemandIds: readonly string[]) {
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

export const backend = () =>
  new AsgNodePoolBackend(new AutoScalingClient({ region: 'eu-central-1' }), new EC2Client({ region: 'eu-central-1' }));

/** DescribeAutoScalingInstances output: instance i-1, healthy, in `group`, in `lifecycle` state. */
export function instanceIn(
  group: string,
  lifecycle = 'InService',
): Omit<DescribeAutoScalingInstancesCommandOutput, '$metadata'> {
  return {
    AutoScalingInstances: [
      {
        InstanceId: 'i-1',
        AutoScalingGroupName: group,
        LifecycleState: lifecycle,
        AvailabilityZone: 'x',
        HealthStatus: 'Healthy',
        ProtectedFromScaleIn: false,
      },
    ],
  };
}
