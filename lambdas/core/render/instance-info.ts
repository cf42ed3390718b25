/**
 * `Values.InstanceInfo` of an ASG node pool, as CLM computes it (reference/clm-behaviour.md §4.3): the facts of
 * the pool's instance type, or for several types a synthetic one, the minimum of vCPUs, memory, storage disks
 * and disk size, with the first type's architecture and `InstanceType` "<multiple>". Fields and methods keep
 * CLM's names: `InstanceType`, `VCPU`, `Memory` (bytes), `InstanceStorageDevices`, `InstanceStorageDeviceSize`
 * (bytes), `Architecture`, `AvailableStorage(instanceScale, rootVolumeSize, rootScale)` and
 * `MemoryFraction(percent)`.
 */
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
