import { DescribeImagesCommand, DescribeInstanceTypesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { Ec2CloudLookups } from '../../../lambdas/adapters/aws/ec2-cloud-lookups';
import { ConfigError, ThrottledError } from '../../../lambdas/shared/errors';
import { sdkError } from './sdk-errors';

const ec2 = mockClient(EC2Client);
const lookups = () => new Ec2CloudLookups(new EC2Client({ region: 'eu-central-1' }));

beforeEach(() => ec2.reset());

describe('Ec2CloudLookups.amiId', () => {
  it('finds exactly one image by name and owner and caches it', async () => {
    // Arrange
    ec2.on(DescribeImagesCommand).resolves({ Images: [{ ImageId: 'ami-123', Name: 'kube-node-1.32' }] });
    const subject = lookups();

    // Act
    const first = await subject.amiId('kube-node-1.32', '861068367966');
    const second = await subject.amiId('kube-node-1.32', '861068367966');

    // Assert
    expect([first, second]).toEqual(['ami-123', 'ami-123']);
    expect(ec2).toHaveReceivedCommandTimes(DescribeImagesCommand, 1);
    expect(ec2).toHaveReceivedCommandWith(DescribeImagesCommand, {
      Owners: ['861068367966'],
      Filters: [{ Name: 'name', Values: ['kube-node-1.32'] }],
    });
  });

  it.each([[[]], [[{ ImageId: 'ami-1' }, { ImageId: 'ami-2' }]]])(
    'fails unless exactly one image matches (%j)',
    async (images) => {
      ec2.on(DescribeImagesCommand).resolves({ Images: images });
      await expect(lookups().amiId('x', '1')).rejects.toThrow(
        new ConfigError(`amiID: expected exactly one image named x owned by 1, found ${images.length}`),
      );
    },
  );

  it('retries a failed lookup on the next call instead of caching the failure', async () => {
    // Arrange
    ec2
      .on(DescribeImagesCommand)
      .rejectsOnce(sdkError('RequestLimitExceeded', 'slow down', 503))
      .resolves({ Images: [{ ImageId: 'ami-9' }] });
    const subject = lookups();

    // Act
    const failure = await subject.amiId('x', '1').catch((e: unknown) => e);
    const success = await subject.amiId('x', '1');

    // Assert
    expect(failure).toBeInstanceOf(ThrottledError);
    expect(success).toBe('ami-9');
  });
});

describe('Ec2CloudLookups.instanceType', () => {
  it('maps vCPU, memory, architecture and local storage, one request per type', async () => {
    // Arrange
    ec2.on(DescribeInstanceTypesCommand, { InstanceTypes: ['m5d.large'] }).resolves({
      InstanceTypes: [
        {
          InstanceType: 'm5d.large',
          VCpuInfo: { DefaultVCpus: 2 },
          MemoryInfo: { SizeInMiB: 8192 },
          ProcessorInfo: { SupportedArchitectures: ['x86_64'] },
          InstanceStorageInfo: { TotalSizeInGB: 75, Disks: [{ Count: 1, SizeInGB: 75 }] },
        },
      ],
    });
    ec2.on(DescribeInstanceTypesCommand, { InstanceTypes: ['m6g.xlarge'] }).resolves({
      InstanceTypes: [
        {
          InstanceType: 'm6g.xlarge',
          VCpuInfo: { DefaultVCpus: 4 },
          MemoryInfo: { SizeInMiB: 16384 },
          ProcessorInfo: { SupportedArchitectures: ['arm64'] },
        },
      ],
    });
    const subject = lookups();

    // Act
    const m5d = await subject.instanceType('m5d.large');
    const m6g = await subject.instanceType('m6g.xlarge');
    await subject.instanceType('m5d.large');

    // Assert
    expect(m5d).toEqual({
      instanceType: 'm5d.large',
      vcpu: 2,
      memoryMiB: 8192,
      architecture: 'amd64',
      instanceStorageDevices: 1,
      instanceStorageDeviceSizeGB: 75,
    });
    expect(m6g).toEqual({
      instanceType: 'm6g.xlarge',
      vcpu: 4,
      memoryMiB: 16384,
      architecture: 'arm64',
      instanceStorageDevices: 0,
      instanceStorageDeviceSizeGB: 0,
    });
    expect(ec2).toHaveReceivedCommandTimes(DescribeInstanceTypesCommand, 2);
  });

  it('reports an unknown type as a ConfigError naming it', async () => {
    ec2
      .on(DescribeInstanceTypesCommand)
      .rejects(sdkError('InvalidInstanceType', 'The following supplied instance types do not exist: [m9.nope]'));
    await expect(lookups().instanceType('m9.nope')).rejects.toThrow(/^unknown instance type m9.nope$/);
  });

  it('rejects types without an amd64 or arm64 architecture', async () => {
    ec2.on(DescribeInstanceTypesCommand).resolves({
      InstanceTypes: [{ InstanceType: 'mac1.metal', ProcessorInfo: { SupportedArchitectures: ['x86_64_mac'] } }],
    });
    await expect(lookups().instanceType('mac1.metal')).rejects.toThrow(
      /no supported architecture \(amd64 or arm64\): x86_64_mac/,
    );
  });
});
