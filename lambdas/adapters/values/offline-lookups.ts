/**
 * CloudLookups without AWS (`clm render`): AMIs only from the values file, instance types from the values file,
 * then the pinned table (core/values/instance-types.ts). An unknown one fails with a hint saying where to add it.
 *
 * In the values file (`--values`), next to `defaults:` / `clusters:`:
 *   lookups:
 *     amis:
 *       - { name: zalando-ubuntu-jammy-22.04-kubernetes-production-v1.31.0-amd64-master-347, owner: "861068367966", id: ami-0123456789abcdef0 }
 *     instance_types:
 *       m7i.large: { vcpu: 2, memory_mib: 8192, architecture: amd64 }              # instance store: 0 disks
 *       m6id.large: { vcpu: 2, memory_mib: 8192, architecture: amd64, instance_storage_devices: 1, instance_storage_device_size_gb: 118 }
 */
import { isRecord } from '../../core/config/plain-data';
import { PINNED_INSTANCE_TYPES } from '../../core/values/instance-types';
import type { CloudLookups, InstanceTypeInfo } from '../../ports/template-engine';
import { ConfigError } from '../../shared/errors';

export interface OfflineLookupData {
  readonly amis: readonly { readonly name: string; readonly owner: string; readonly id: string }[];
  readonly instanceTypes: Readonly<Record<string, InstanceTypeInfo>>;
}

export const NO_LOOKUP_DATA: OfflineLookupData = { amis: [], instanceTypes: {} };

export class OfflineLookups implements CloudLookups {
  constructor(private readonly data: OfflineLookupData = NO_LOOKUP_DATA) {}

  async amiId(name: string, ownerId: string): Promise<string> {
    const found = this.data.amis.filter((ami) => ami.name === name && ami.owner === ownerId);
    if (found.length === 1) return found[0].id;
    throw new ConfigError(
      found.length === 0
        ? `the AMI named ${name} owned by ${ownerId} is not known offline: add it to --values under lookups.amis (name, owner, id)`
        : `the values file lists the AMI named ${name} owned by ${ownerId} ${found.length} times`,
    );
  }

  async instanceType(type: string): Promise<InstanceTypeInfo> {
    const info = Object.prototype.hasOwnProperty.call(this.data.instanceTypes, type)
      ? this.data.instanceTypes[type]
      : PINNED_INSTANCE_TYPES.get(type);
    if (info) return info;
    throw new ConfigError(
      `instance type ${type} is not in the offline table: add it to --values under lookups.instance_types (vcpu, memory_mib, architecture, instance_storage_devices, instance_storage_device_size_gb)`,
    );
  }
}

const ARCHITECTURES = ['amd64', 'arm64'];

/** The `lookups:` section of a values file; problems are pushed to `issues`. */
export function parseLookupData(raw: unknown, file: string, issues: string[]): OfflineLookupData {
  if (raw === undefined || raw === null) return NO_LOOKUP_DATA;
  if (!isRecord(raw)) {
    issues.push(`${file}: lookups must be a mapping with amis: and instance_types:`);
    return NO_LOOKUP_DATA;
  }
  const amis = (Array.isArray(raw.amis) ? raw.amis : raw.amis === undefined ? [] : [raw.amis]).flatMap((ami, i) => {
    if (isRecord(ami) && [ami.name, ami.owner, ami.id].every((v) => typeof v === 'string' && v !== ''))
      return [{ name: String(ami.name), owner: String(ami.owner), id: String(ami.id) }];
    issues.push(`${file}: lookups.amis[${i}] needs name, owner and id (strings; quote an owner id)`);
    return [];
  });
  const instanceTypes: Record<string, InstanceTypeInfo> = {};
  const types = raw.instance_types ?? {};
  if (!isRecord(types)) issues.push(`${file}: lookups.instance_types must map instance types to their facts`);
  else for (const [type, facts] of Object.entries(types)) parseInstanceType(type, facts, file, issues, instanceTypes);
  return { amis, instanceTypes };
}

function parseInstanceType(
  type: string,
  facts: unknown,
  file: string,
  issues: string[],
  into: Record<string, InstanceTypeInfo>,
): void {
  const where = `${file}: lookups.instance_types.${type}`;
  if (!isRecord(facts)) {
    issues.push(`${where} must be a mapping (vcpu, memory_mib, architecture…)`);
    return;
  }
  const count = (key: string, required: boolean): number => {
    const value = facts[key] ?? (required ? undefined : 0);
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
    issues.push(`${where}.${key} must be a whole number, got ${JSON.stringify(value ?? null)}`);
    return 0;
  };
  const architecture = facts.architecture;
  if (typeof architecture !== 'string' || !ARCHITECTURES.includes(architecture))
    issues.push(`${where}.architecture must be amd64 or arm64`);
  into[type] = {
    instanceType: type,
    vcpu: count('vcpu', true),
    memoryMiB: count('memory_mib', true),
    architecture: architecture === 'arm64' ? 'arm64' : 'amd64',
    instanceStorageDevices: count('instance_storage_devices', false),
    instanceStorageDeviceSizeGB: count('instance_storage_device_size_gb', false),
  };
}
