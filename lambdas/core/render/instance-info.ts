/**
 * `Values.InstanceInfo` of an ASG node pool, as CLM computes it (reference/clm-behaviour.md §4.3): the facts of
 * the pool's instance type, or for several types a synthetic one, the minimum of vCPUs, memory, storage disks
 * and disk size, with the first type's architecture and `InstanceType` "<multiple>". Fields and methods keep
 * CLM's names: `InstanceType`, `VCPU`, `Memory` (bytes), `InstanceStorageDevices`, `InstanceStorageDeviceSize`
 * (bytes), `Architecture`, `AvailableStorage(instanceScale, rootVolumeSize, rootScale)` and
 * `MemoryFraction(percent)`.
 */
import { isRetryable } from '../../shared/errors';
import { isKarpenterPool } from '../model/cluster';
import type { Cluster } from '../model/cluster';
import { managesEtcdStack } from './etcd-settings';
import { expectNumber, helperError } from '../template-helpers/args';
import type { InstanceTypeInfo } from '../../ports/template-engine';

const MEBIBYTE = 1024 * 1024;
const GIGABYTE = 1_000_000_000;

export interface TemplateInstanceInfo {
  readonly InstanceType: string;
  readonly VCPU: number;
  readonly Memory: number;
  readonly InstanceStorageDevices: number;
  readonly InstanceStorageDeviceSize: number;
  readonly Architecture: string;
  /** Bytes of instance storage times `instanceScale`, or `rootVolumeSize × rootScale` without instance storage. */
  readonly AvailableStorage: (instanceScale: unknown, rootVolumeSize: unknown, rootScale: unknown) => number;
  /** `percent` of the memory in bytes, rounded down. */
  readonly MemoryFraction: (percent: unknown) => number;
}

interface Facts {
  readonly InstanceType: string;
  readonly VCPU: number;
  readonly Memory: number;
  readonly InstanceStorageDevices: number;
  readonly InstanceStorageDeviceSize: number;
  readonly Architecture: string;
}

function integer(value: unknown, what: string): bigint {
  const n = expectNumber(value, what);
  if (!Number.isInteger(n)) throw helperError(`${what} must be an integer, got ${n}`);
  return BigInt(n);
}

/** The facts with CLM's methods (Go int64/float64 arithmetic: products of floats truncated toward zero). */
export function templateInstanceInfo(facts: Facts): TemplateInstanceInfo {
  return {
    ...facts,
    AvailableStorage: (instanceScale, rootVolumeSize, rootScale) => {
      if (facts.InstanceStorageDevices === 0)
        return Math.trunc(Number(integer(rootVolumeSize, 'root volume size')) * expectNumber(rootScale, 'root scale'));
      const bytes = facts.InstanceStorageDevices * facts.InstanceStorageDeviceSize;
      return Math.trunc(expectNumber(instanceScale, 'instance storage scale') * bytes);
    },
    MemoryFraction: (percent) => Number((integer(percent, 'percent') * BigInt(facts.Memory)) / 100n),
  };
}

function factsOf(info: InstanceTypeInfo): Facts {
  return {
    InstanceType: info.instanceType,
    VCPU: info.vcpu,
    Memory: info.memoryMiB * MEBIBYTE,
    InstanceStorageDevices: info.instanceStorageDevices,
    InstanceStorageDeviceSize: info.instanceStorageDeviceSizeGB * GIGABYTE,
    Architecture: info.architecture,
  };
}

/** CLM's SyntheticInstanceInfo over the pool's types, in the pool's order. */
export function syntheticInstanceInfo(types: readonly InstanceTypeInfo[]): TemplateInstanceInfo {
  if (types.length === 0) throw helperError('no instance types provided');
  const [first, ...rest] = types.map(factsOf);
  if (rest.length === 0) return templateInstanceInfo(first);
  return templateInstanceInfo(
    rest.reduce<Facts>(
      (acc, next) => ({
        ...acc,
        VCPU: Math.min(acc.VCPU, next.VCPU),
        Memory: Math.min(acc.Memory, next.Memory),
        InstanceStorageDevices: Math.min(acc.InstanceStorageDevices, next.InstanceStorageDevices),
        InstanceStorageDeviceSize: Math.min(acc.InstanceStorageDeviceSize, next.InstanceStorageDeviceSize),
      }),
      { ...first, InstanceType: '<multiple>' },
    ),
  );
}

/**
 * The values key under which a ValuesProvider gives the facts of the cluster's instance types
 * (instance type → InstanceTypeInfo): from the EC2 API in AWS, from the pinned table and `--values` offline.
 */
export const INSTANCE_TYPE_FACTS = 'InstanceTypeFacts';

/** `Values.InstanceInfo` of a pool, or undefined when the facts of one of its types are not known. */
export function poolInstanceInfo(
  instanceTypes: readonly string[],
  values: Readonly<Record<string, unknown>>,
): TemplateInstanceInfo | undefined {
  const facts = values[INSTANCE_TYPE_FACTS] as Readonly<Record<string, InstanceTypeInfo>> | undefined;
  if (!facts || instanceTypes.length === 0) return undefined;
  const known = instanceTypes.map((type) =>
    Object.prototype.hasOwnProperty.call(facts, type) ? facts[type] : undefined,
  );
  return known.every((info): info is InstanceTypeInfo => info !== undefined) ? syntheticInstanceInfo(known) : undefined;
}

/**
 * The distinct instance types CLM computes an InstanceInfo of: the cluster's ASG-backed pools', and the etcd stack's
 * `etcd_instance_type` (`Values.etcd_instance_type_info`) when CLM manages it.
 */
export function asgInstanceTypes(cluster: Cluster): string[] {
  const etcd = managesEtcdStack(cluster) && cluster.configItems.etcd_instance_type;
  return [
    ...new Set([
      ...cluster.nodePools.filter((p) => !isKarpenterPool(p)).flatMap((p) => p.instanceTypes),
      ...(etcd ? [etcd] : []),
    ]),
  ];
}

/**
 * The facts of every instance type of the cluster's ASG pools, for `Values.InstanceTypeFacts`, asked of `lookup`
 * (a ValuesProvider passes its CloudLookups). A type it does not know is left out (a pool template reading
 * Values.InstanceInfo then fails); throttling and other retryable errors propagate.
 */
export async function collectInstanceTypeFacts(
  cluster: Cluster,
  lookup: (type: string) => Promise<InstanceTypeInfo>,
): Promise<Record<string, InstanceTypeInfo>> {
  const facts: Record<string, InstanceTypeInfo> = {};
  await Promise.all(
    asgInstanceTypes(cluster).map(async (type) => {
      try {
        facts[type] = await lookup(type);
      } catch (error) {
        if (isRetryable(error)) throw error;
      }
    }),
  );
  return facts;
}
