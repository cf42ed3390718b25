// Ec2ClusterLeftovers: what a cluster left outside its stacks, found by tag server-side, never a stack's resource.
import {
  DeleteNetworkInterfaceCommand,
  DeleteSecurityGroupCommand,
  DeleteVolumeCommand,
  DescribeNetworkInterfacesCommand,
  DescribeSecurityGroupsCommand,
  DescribeVolumesCommand,
  EC2Client,
  EC2ServiceException,
} from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { Ec2ClusterLeftovers, type LoadBalancerApi } from '../../../lambdas/adapters/aws/ec2-cluster-leftovers';

const ec2 = mockClient(EC2Client);
const CLUSTER = 'aws:123456789012:eu-central-1:kube-1';
const OWNED = { Key: `kubernetes.io/cluster/${CLUSTER}`, Value: 'owned' };
/** The AWS Load Balancer Controller's tag on the security groups it makes. */
const CONTROLLER = { Key: 'elbv2.k8s.aws/cluster', Value: CLUSTER };
const FROM_STACK = {
  Key: 'aws:cloudformation:stack-id',
  Value: 'arn:aws:cloudformation:eu-central-1:123456789012:stack/kube-1/5b8f',
};

const ec2Error = (name: string, message: string) =>
  new EC2ServiceException({ name, message, $fault: 'client', $metadata: { httpStatusCode: 400 } });

const leftovers = (lbs?: LoadBalancerApi) => new Ec2ClusterLeftovers(new EC2Client({ region: 'eu-central-1' }), lbs);

beforeEach(() => ec2.reset());

describe('Ec2ClusterLeftovers.find', () => {
  it("lists volumes, security groups (the cloud provider's and the load balancer controller's) and interfaces tagged for the cluster, none a stack made, none AWS manages", async () => {
    // Arrange
    ec2
      .on(DescribeVolumesCommand)
      .resolvesOnce({ Volumes: [{ VolumeId: 'vol-1', State: 'available', Tags: [OWNED] }], NextToken: 't2' })
      .resolves({
        Volumes: [
          { VolumeId: 'vol-2', State: 'in-use', Tags: [OWNED] },
          { VolumeId: 'vol-3', State: 'deleting', Tags: [OWNED] },
        ],
      });
    ec2
      .on(DescribeSecurityGroupsCommand, { Filters: [{ Name: `tag:${OWNED.Key}`, Values: ['owned'] }] })
      .resolves({
        SecurityGroups: [
          { GroupId: 'sg-elb', Tags: [OWNED, CONTROLLER] },
          { GroupId: 'sg-master', Tags: [OWNED, FROM_STACK] },
        ],
      })
      .on(DescribeSecurityGroupsCommand, { Filters: [{ Name: `tag:${CONTROLLER.Key}`, Values: [CLUSTER] }] })
      .resolves({
        SecurityGroups: [
          { GroupId: 'sg-elb', Tags: [OWNED, CONTROLLER] },
          { GroupId: 'sg-alb', Tags: [CONTROLLER] },
        ],
      });
    ec2
      .on(DescribeNetworkInterfacesCommand, { Filters: [{ Name: `tag:${OWNED.Key}`, Values: ['owned'] }] })
      .resolves({ NetworkInterfaces: [{ NetworkInterfaceId: 'eni-1', Status: 'available', TagSet: [OWNED] }] })
      .on(DescribeNetworkInterfacesCommand, {
        Filters: [{ Name: 'tag:cluster.k8s.amazonaws.com/name', Values: [CLUSTER] }],
      })
      .resolves({
        NetworkInterfaces: [
          { NetworkInterfaceId: 'eni-1', Status: 'available' },
          { NetworkInterfaceId: 'eni-2', Status: 'available' },
          { NetworkInterfaceId: 'eni-elb', Status: 'in-use', RequesterManaged: true },
        ],
      });

    // Act
    const scan = await leftovers().find(CLUSTER);

    // Assert
    expect(scan.found).toEqual([
      { kind: 'volume', id: 'vol-1', state: 'available' },
      { kind: 'volume', id: 'vol-2', state: 'in-use' },
      { kind: 'security-group', id: 'sg-elb' },
      { kind: 'security-group', id: 'sg-alb' },
      { kind: 'network-interface', id: 'eni-1', state: 'available' },
      { kind: 'network-interface', id: 'eni-2', state: 'available' },
    ]);
    expect(ec2).toHaveReceivedCommandWith(DescribeVolumesCommand, {
      Filters: [{ Name: `tag:${OWNED.Key}`, Values: ['owned'] }],
    });
    expect(ec2).toHaveReceivedCommandTimes(DescribeVolumesCommand, 2);
    // Without the load balancer API, load balancers are reported as not looked for, not as absent
    expect(scan.unchecked).toEqual(['classic-load-balancer', 'load-balancer', 'target-group']);
  });

  it('adds the load balancers of the load balancer API, by the same tags', async () => {
    ec2.on(DescribeVolumesCommand).resolves({});
    ec2.on(DescribeSecurityGroupsCommand).resolves({});
    ec2.on(DescribeNetworkInterfacesCommand).resolves({});
    const listOwned = jest.fn(async () => [{ kind: 'classic-load-balancer' as const, id: 'a0b1c2' }]);

    const scan = await leftovers({ listOwned, delete: jest.fn() }).find(CLUSTER);

    expect(listOwned).toHaveBeenCalledWith([
      { key: OWNED.Key, value: 'owned' },
      { key: CONTROLLER.Key, value: CLUSTER },
    ]);
    expect(scan).toEqual({ found: [{ kind: 'classic-load-balancer', id: 'a0b1c2' }], unchecked: [] });
  });

  it('names the cluster and the tag when EC2 refuses', async () => {
    ec2.on(DescribeVolumesCommand).rejects(ec2Error('UnauthorizedOperation', 'You are not authorized'));

    await expect(leftovers().find(CLUSTER)).rejects.toThrow(
      `EC2 listing what cluster ${CLUSTER} left (tag ${OWNED.Key}=owned): UnauthorizedOperation: You are not authorized`,
    );
  });
});

describe('Ec2ClusterLeftovers.delete', () => {
  it('deletes each kind with its call', async () => {
    ec2.on(DeleteVolumeCommand).resolves({});
    ec2.on(DeleteSecurityGroupCommand).resolves({});
    ec2.on(DeleteNetworkInterfaceCommand).resolves({});
    const l = leftovers();

    expect(await l.delete({ kind: 'volume', id: 'vol-1' })).toBe('deleted');
    expect(await l.delete({ kind: 'security-group', id: 'sg-1' })).toBe('deleted');
    expect(await l.delete({ kind: 'network-interface', id: 'eni-1' })).toBe('deleted');
    expect(ec2).toHaveReceivedCommandWith(DeleteVolumeCommand, { VolumeId: 'vol-1' });
    expect(ec2).toHaveReceivedCommandWith(DeleteSecurityGroupCommand, { GroupId: 'sg-1' });
    expect(ec2).toHaveReceivedCommandWith(DeleteNetworkInterfaceCommand, { NetworkInterfaceId: 'eni-1' });
  });

  it.each([
    [
      'security-group',
      DeleteSecurityGroupCommand,
      'DependencyViolation',
      'resource sg-1 has a dependent object',
      'in-use',
    ],
    ['volume', DeleteVolumeCommand, 'VolumeInUse', 'Volume vol-1 is currently attached to i-1', 'in-use'],
    [
      'network-interface',
      DeleteNetworkInterfaceCommand,
      'InvalidNetworkInterface.InUse',
      'Interface eni-1 in use',
      'in-use',
    ],
    ['volume', DeleteVolumeCommand, 'InvalidVolume.NotFound', "The volume 'vol-1' does not exist.", 'gone'],
    [
      'security-group',
      DeleteSecurityGroupCommand,
      'InvalidGroup.NotFound',
      "The security group 'sg-1' does not exist",
      'gone',
    ],
  ] as const)('%s refused with %p is %p', async (kind, command, code, message, result) => {
    ec2.on(command as never).rejects(ec2Error(code, message));

    await expect(leftovers().delete({ kind, id: 'x-1' })).resolves.toBe(result);
  });

  it('any other refusal is an error naming the resource', async () => {
    ec2.on(DeleteVolumeCommand).rejects(ec2Error('UnauthorizedOperation', 'not authorized'));

    await expect(leftovers().delete({ kind: 'volume', id: 'vol-1' })).rejects.toThrow(
      'EC2 deleting volume vol-1: UnauthorizedOperation: not authorized',
    );
  });
});
