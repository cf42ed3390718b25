/**
 * CloudLookups on EC2 for the `amiID` and `instanceType*Quantity` template helpers, cached for the life of the
 * instance (one per account and region, see aws-cluster-ports.ts).
 *
 * Instance types are looked up one type per request (DescribeInstanceTypes with InstanceTypes=[type], paginated
 * for form's sake) rather than CLM's sweep of the whole catalogue: a cluster uses a handful of types, the catalogue
 * is about nine pages.
 */
import { DescribeImagesCommand, paginateDescribeInstanceTypes } from './ec2-api';
import type { EC2Client, InstanceTypeInfo as Ec2InstanceTypeInfo } from '@aws-sdk/client-ec2';
import type { CloudLookups, InstanceTypeInfo } from '../../ports/template-engine';
import { ConfigError } from '../../shared/errors';
import { awsErrorName, toClmError } from './aws-errors';

export class Ec2CloudLookups implements CloudLookups {
  private readonly client: EC2Client;
  private readonly images = new Map<string, Promise<string>>();
  private readonly types = new Map<string, Promise<InstanceTypeInfo>>();

  constructor(client: EC2Client) {
    this.client = client;
  }

  amiId(name: string, ownerId: string): Promise<string> {
    return cached(this.images, `${ownerId}/${name}`, async () => {
      let images;
      try {
        images =
          (
            await this.client.send(
              new DescribeImagesCommand({ Owners: [ownerId], Filters: [{ Name: 'name', Values: [name] }] }),
            )
          ).Images ?? [];
      } catch (error) {
        throw toClmError(error, `EC2 DescribeImages name=${name} owner=${ownerId}`);
      }
      if (images.length !== 1 || !images[0].ImageId) {
        throw new ConfigError(
          `amiID: expected exactly one image named ${name} owned by ${ownerId}, found ${images.length}`,
        );
      }
      return images[0].ImageId;
    });
  }

  instanceType(type: string): Promise<InstanceTypeInfo> {
    return cached(this.types, type, async () => {
      const found: Ec2InstanceTypeInfo[] = [];
      try {
        for await (const page of paginateDescribeInstanceTypes(
          { client: this.client },
          { InstanceTypes: [type as never] },
        )) {
          found.push(...(page.InstanceTypes ?? []));
        }
      } catch (error) {
        if (awsErrorName(error) === 'InvalidInstanceType')
          throw new ConfigError(`unknown instance type ${type}`, { cause: error });
        throw toClmError(error, `EC2 DescribeInstanceTypes ${type}`);
      }
      const info = found.find((t) => t.InstanceType === type);
      if (!info) throw new ConfigError(`unknown instance type ${type}`);
      return toInstanceTypeInfo(type, info);
    });
  }
}

export function toInstanceTypeInfo(type: string, info: Ec2InstanceTypeInfo): InstanceTypeInfo {
  const archs = info.ProcessorInfo?.SupportedArchitectures ?? [];
  const architecture = archs.includes('x86_64') ? 'amd64' : archs.includes('arm64') ? 'arm64' : undefined;
  if (!architecture)
    throw new ConfigError(
      `instance type ${type} has no supported architecture (amd64 or arm64): ${archs.join(', ') || 'none'}`,
    );
  // CLM takes the one disk set EC2 lists (count × size); more than one set is not expected, and refused as CLM does.
  const disks = info.InstanceStorageInfo?.Disks ?? [];
  if (disks.length > 1)
    throw new ConfigError(`instance type ${type} lists ${disks.length} instance-store disk sets, expected 0 or 1`);
  return {
    instanceType: type,
    vcpu: info.VCpuInfo?.DefaultVCpus ?? 0,
    memoryMiB: info.MemoryInfo?.SizeInMiB ?? 0,
    architecture,
    instanceStorageDevices: disks[0]?.Count ?? 0,
    instanceStorageDeviceSizeGB: disks[0]?.SizeInGB ?? 0,
  };
}

/** One lookup per key; a failed lookup is forgotten so the next call retries it. */
function cached<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let value = cache.get(key);
  if (!value) {
    value = load().catch((error: unknown) => {
      cache.delete(key);
      throw error;
    });
    cache.set(key, value);
  }
  return value;
}
