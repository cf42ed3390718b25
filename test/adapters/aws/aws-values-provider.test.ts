import {
  DescribeInstanceTypesCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import type { Subnet } from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { AwsValuesProvider } from '../../../lambdas/adapters/aws/aws-values-provider';
import { Ec2CloudLookups } from '../../../lambdas/adapters/aws/ec2-cloud-lookups';
import { INSTANCE_TYPE_FACTS } from '../../../lambdas/core/render/instance-info';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { ConfigError, TransientApiError } from '../../../lambdas/shared/errors';
import { testCluster } from '../../support/test-cluster';
import { sdkError } from './sdk-errors';

const ec2 = mockClient(EC2Client);
const POOL = {
  name: 'a',
  profile: 'worker-splitaz',
  instanceTypes: [] as string[],
  discountStrategy: 'none',
  minSize: 1,
  maxSize: 2,
  configItems: {},
};

function cluster(configItems: Record<string, string> = {}): Cluster {
  return testCluster({
    apiServerUrl: 'https://kube-1.teapot.example.org',
    channel: 'stable',
    configItems,
    nodePools: [],
  });
}

function subnet(id: string, az: string, tags: string[] = [], ipv6?: string): Subnet {
  return {
    SubnetId: id,
    AvailabilityZone: az,
    VpcId: 'vpc-1',
    Tags: tags.map((Key) => ({ Key, Value: '' })),
    ...(ipv6 ? { Ipv6CidrBlockAssociationSet: [{ Ipv6CidrBlock: ipv6 }] } : {}),
  };
}

const VPC = {
  VpcId: 'vpc-1',
  CidrBlock: '172.31.0.0/16',
  IsDefault: true,
  Ipv6CidrBlockAssociationSet: [{ Ipv6CidrBlock: '2a05:d014::/56' }],
};
const SUBNETS = [
  subnet('subnet-b2', 'eu-central-1b'),
  subnet('subnet-a2', 'eu-central-1a', ['kubernetes.io/role/elb'], '2a05:d014:0:a2::/64'),
  subnet('subnet-a1', 'eu-central-1a', [], '2a05:d014:0:a1::/64'),
  subnet('subnet-b1', 'eu-central-1b', ['kubernetes.io/role/pod']),
  subnet('subnet-c9', 'eu-central-1c', ['kubernetes.io/role/node', 'kubernetes.io/role/internal-node']),
  subnet('subnet-c1', 'eu-central-1c'),
  subnet('subnet-custom', 'eu-central-1a', ['zalando.org/custom-subnet']),
];

const provider = () => new AwsValuesProvider(new EC2Client({ region: 'eu-central-1' }));

beforeEach(() => ec2.reset());

describe('AwsValuesProvider', () => {
  it('discovers the only VPC and selects one subnet per zone and role: tagged first, then the smallest id', async () => {
    // Arrange
    ec2.on(DescribeVpcsCommand).resolves({ Vpcs: [VPC] });
    ec2.on(DescribeSubnetsCommand).resolves({ Subnets: SUBNETS });

    // Act
    const values = await provider().clusterValues(cluster());

    // Assert
    expect(values).toEqual({
      vpc_id: 'vpc-1',
      vpc_ipv4_cidr: '172.31.0.0/16',
      vpc_ipv6_cidrs: '2a05:d014::/56',
      subnets: {
        'eu-central-1a': 'subnet-a1',
        'eu-central-1b': 'subnet-b1',
        'eu-central-1c': 'subnet-c9',
        '*': 'subnet-a1,subnet-b1,subnet-c9',
      },
      availability_zones: ['eu-central-1a', 'eu-central-1b', 'eu-central-1c'],
      subnet_ipv6_cidrs: '2a05:d014:0:a1::/64',
      lb_subnets: {
        'eu-central-1a': 'subnet-a2',
        'eu-central-1b': 'subnet-b1',
        'eu-central-1c': 'subnet-c1',
        '*': 'subnet-a2,subnet-b1,subnet-c1',
      },
      internal_node_subnets: {
        'eu-central-1a': 'subnet-a1',
        'eu-central-1b': 'subnet-b1',
        'eu-central-1c': 'subnet-c9',
        '*': 'subnet-a1,subnet-b1,subnet-c9',
      },
      pod_subnets: {
        'eu-central-1a': 'subnet-a1',
        'eu-central-1b': 'subnet-b1',
        'eu-central-1c': 'subnet-c1',
        '*': 'subnet-a1,subnet-b1,subnet-c1',
      },
      hosted_zone: 'teapot.example.org',
    });
    expect(ec2).toHaveReceivedCommandWith(DescribeSubnetsCommand, { Filters: [{ Name: 'vpc-id', Values: ['vpc-1'] }] });
  });

  it('takes the default VPC when there are several', async () => {
    // Arrange
    ec2
      .on(DescribeVpcsCommand)
      .resolves({ Vpcs: [{ VpcId: 'vpc-x', CidrBlock: '10.0.0.0/16', IsDefault: false }, VPC] });
    ec2.on(DescribeSubnetsCommand).resolves({ Subnets: [] });

    // Act
    const values = await provider().clusterValues(cluster());

    // Assert
    expect(values.vpc_id).toBe('vpc-1');
  });

  it('fails when several VPCs exist and none is the default', async () => {
    ec2.on(DescribeVpcsCommand).resolves({
      Vpcs: [
        { VpcId: 'vpc-x', IsDefault: false },
        { VpcId: 'vpc-y', IsDefault: false },
      ],
    });
    await expect(provider().clusterValues(cluster())).rejects.toThrow(
      /cannot choose a VPC in eu-central-1: found 2 and none is the default; set config item vpc_id/,
    );
  });

  it('uses config item vpc_id and reports a missing VPC as a ConfigError naming the field', async () => {
    // Arrange
    ec2.on(DescribeVpcsCommand).rejects(sdkError('InvalidVpcID.NotFound', "The vpc ID 'vpc-nope' does not exist"));

    // Act
    const error = await provider()
      .clusterValues(cluster({ vpc_id: 'vpc-nope' }))
      .catch((e: unknown) => e);

    // Assert
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `cluster aws:123456789012:eu-central-1:kube-1, field config_items.vpc_id: config item vpc_id: VPC vpc-nope does not exist in eu-central-1`,
    );
    expect(ec2).toHaveReceivedCommandWith(DescribeVpcsCommand, { VpcIds: ['vpc-nope'] });
  });

  it('keeps exactly the subnets of config item subnets and names the ones that do not exist', async () => {
    // Arrange
    ec2.on(DescribeVpcsCommand).resolves({ Vpcs: [VPC] });
    ec2.on(DescribeSubnetsCommand).resolves({ Subnets: SUBNETS });

    // Act
    const values = await provider().clusterValues(cluster({ subnets: 'subnet-a2,subnet-b2' }));
    const error = await provider()
      .clusterValues(cluster({ subnets: 'subnet-a2,subnet-custom,subnet-zz' }))
      .catch((e: unknown) => e);

    // Assert
    expect(values.subnets).toEqual({
      'eu-central-1a': 'subnet-a2',
      'eu-central-1b': 'subnet-b2',
      '*': 'subnet-a2,subnet-b2',
    });
    expect((error as Error).message).toMatch(
      /config item subnets lists subnet-custom, subnet-zz, not \(non-custom\) subnets of VPC vpc-1/,
    );
  });

  it('restricts elb, node and internal-node subnets to availability_zones, but not pod subnets', async () => {
    // Arrange
    ec2.on(DescribeVpcsCommand).resolves({ Vpcs: [VPC] });
    ec2.on(DescribeSubnetsCommand).resolves({ Subnets: SUBNETS });

    // Act
    const values = await provider().clusterValues(
      cluster({ availability_zones: 'eu-central-1a,eu-central-1c,eu-central-1z' }),
    );

    // Assert
    expect(values.availability_zones).toEqual(['eu-central-1a', 'eu-central-1c']);
    expect(Object.keys(values.lb_subnets as object)).toEqual(['eu-central-1a', 'eu-central-1c', '*']);
    expect(Object.keys(values.internal_node_subnets as object)).toEqual(['eu-central-1a', 'eu-central-1c', '*']);
    expect(Object.keys(values.pod_subnets as object)).toEqual(['eu-central-1a', 'eu-central-1b', 'eu-central-1c', '*']);
  });

  it('passes load_balancer_certificate through from the config item (no ACM lookup)', async () => {
    ec2.on(DescribeVpcsCommand).resolves({ Vpcs: [VPC] });
    ec2.on(DescribeSubnetsCommand).resolves({ Subnets: [] });
    const values = await provider().clusterValues(
      cluster({ load_balancer_certificate: 'arn:aws:acm:eu-central-1:123456789012:certificate/abc' }),
    );
    expect(values.load_balancer_certificate).toBe('arn:aws:acm:eu-central-1:123456789012:certificate/abc');
  });

  it('pages through DescribeSubnets and classifies 5xx as transient', async () => {
    // Arrange
    ec2.on(DescribeVpcsCommand).resolves({ Vpcs: [VPC] });
    ec2
      .on(DescribeSubnetsCommand)
      .resolvesOnce({ Subnets: [subnet('subnet-a1', 'eu-central-1a')], NextToken: 'n' })
      .resolvesOnce({ Subnets: [subnet('subnet-b1', 'eu-central-1b')] })
      .rejects(sdkError('InternalError', 'boom', 503));

    // Act
    const values = await provider().clusterValues(cluster());
    const error = await provider()
      .clusterValues(cluster())
      .catch((e: unknown) => e);

    // Assert
    expect(values.availability_zones).toEqual(['eu-central-1a', 'eu-central-1b']);
    expect(error).toBeInstanceOf(TransientApiError);
  });

  it("gives the facts of the pools' instance types from DescribeInstanceTypes, for Values.InstanceInfo", async () => {
    // Arrange
    ec2.on(DescribeVpcsCommand).resolves({ Vpcs: [VPC] });
    ec2.on(DescribeSubnetsCommand).resolves({ Subnets: [] });
    ec2.on(DescribeInstanceTypesCommand, { InstanceTypes: ['m6id.xlarge'] }).resolves({
      InstanceTypes: [
        {
          InstanceType: 'm6id.xlarge',
          VCpuInfo: { DefaultVCpus: 4 },
          MemoryInfo: { SizeInMiB: 16384 },
          ProcessorInfo: { SupportedArchitectures: ['x86_64'] },
          InstanceStorageInfo: { TotalSizeInGB: 237, Disks: [{ Count: 1, SizeInGB: 237 }] },
        },
      ],
    });
    const pools = [
      { ...POOL, instanceTypes: ['m6id.xlarge'] },
      { ...POOL, name: 'b', instanceTypes: ['m6id.xlarge'] },
    ];
    const client = new EC2Client({ region: 'eu-central-1' });
    const subject = new AwsValuesProvider(client, new Ec2CloudLookups(client));

    // Act
    const values = await subject.clusterValues({ ...cluster(), nodePools: pools });

    // Assert: one DescribeInstanceTypes per distinct type, the facts as CLM reads them
    expect(values[INSTANCE_TYPE_FACTS]).toEqual({
      'm6id.xlarge': {
        instanceType: 'm6id.xlarge',
        vcpu: 4,
        memoryMiB: 16384,
        architecture: 'amd64',
        instanceStorageDevices: 1,
        instanceStorageDeviceSizeGB: 237,
      },
    });
    expect(ec2).toHaveReceivedCommandTimes(DescribeInstanceTypesCommand, 1);
  });
});
