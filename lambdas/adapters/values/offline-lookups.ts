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
 *     certificates:                                  # load_balancer_certificate, chosen as CLM chooses (ACM)
 *       - { arn: "arn:aws:acm:eu-central-1:123456789012:certificate/…", domains: ["*.example.org", example.org] }
 *     kms_aliases:                                   # the etcd stack's key (manage_etcd_stack)
 *       alias/etcd-cluster: arn:aws:kms:eu-central-1:123456789012:key/…
 */
import { isRecord } from '../../core/config/plain-data';
import { PINNED_INSTANCE_TYPES } from '../../core/values/instance-types';
import type { CloudLookups, InstanceTypeInfo } from '../../ports/template-engine';
import type { CertificateSummary } from '../../core/values/certificate-match';
import { ConfigError } from '../../shared/errors';

export interface OfflineLookupData {
  readonly amis: readonly { readonly name: string; readonly owner: string; readonly id: string }[];
  readonly instanceTypes: Readonly<Record<string, InstanceTypeInfo>>;
  /**
   * The ISSUED ACM certificates `load_balancer_certificate` is chosen from (CLM's matching); undefined: not given,
   * so a placeholder ARN stands in.
   */
  readonly certificates?: readonly CertificateSummary[];
  /** KMS aliases → key ARNs (`alias/etcd-cluster` for the etcd stack). */
  readonly kmsAliases: Readonly<Record<string, string>>;
}

export const NO_LOOKUP_DATA: OfflineLookupData = { amis: [], instanceTypes: {}, kmsAliases: {} };

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
  const aliases = raw.kms_aliases ?? {};
  if (!isRecord(aliases) || Object.values(aliases).some((v) => typeof v !== 'string'))
    issues.push(`${file}: lookups.kms_aliases must map aliases (alias/etcd-cluster) to key ARNs`);
  const certificates = raw.certificates === undefined ? undefined : parseCertificates(raw.certificates, file, issues);
  return {
    amis,
    instanceTypes,
    kmsAliases: isRecord(aliases) ? (aliases as Record<string, string>) : {},
    ...(certificates ? { certificates } : {}),
  };
}

/**
 * `lookups.certificates: [{ arn, domains: [CN, SAN…], not_before?, not_after? }]`: ISSUED certificates, taken as
 * verifying for the names they cover (offline there is no chain to check). Dates default to a year around now.
 */
function parseCertificates(raw: unknown, file: string, issues: string[]): CertificateSummary[] {
  if (!Array.isArray(raw)) {
    issues.push(`${file}: lookups.certificates must be a list of { arn, domains, not_before, not_after }`);
    return [];
  }
  const year = 365 * 24 * 3600 * 1000;
  return raw.flatMap((entry, i) => {
    const where = `${file}: lookups.certificates[${i}]`;
    const domains = isRecord(entry) && Array.isArray(entry.domains) ? entry.domains : undefined;
    if (
      !isRecord(entry) ||
      typeof entry.arn !== 'string' ||
      !domains?.length ||
      domains.some((d) => typeof d !== 'string')
    ) {
      issues.push(`${where} needs arn (a string) and domains (a list of names)`);
      return [];
    }
    const date = (key: string, fallback: number): number => {
      const value = entry[key];
      if (value === undefined) return fallback;
      const parsed = Date.parse(String(value));
      if (Number.isNaN(parsed)) issues.push(`${where}.${key} is not a date`);
      return parsed;
    };
    return [
      {
        arn: entry.arn,
        domainNames: domains as string[],
        notBefore: date('not_before', Date.now() - year),
        notAfter: date('not_after', Date.now() + year),
        verified: true,
      },
    ];
  });
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
