import { PINNED_INSTANCE_TYPES } from '../values/instance-types';

/**
 * EC2's On-Demand vCPU quotas (Service Quotas, service code `ec2`): an account may run at most `limit` vCPUs of the
 * On-Demand instances of each quota's families at once, counted over its pending and running instances. A launch that
 * would go over is refused with `VcpuLimitExceeded` (RunInstances, CreateFleet, an Auto Scaling group's launch).
 * Spot instances count against other quotas (Spot requests) and are not counted here.
 *
 * Source: "Amazon EC2 service quotas" and "On-Demand Instance quotas" in AWS's EC2 user guide; the codes are the ones
 * `aws service-quotas list-service-quotas --service-code ec2` lists.
 */
export interface VcpuQuota {
  readonly code: string;
  readonly name: string;
}

export const STANDARD_VCPU_QUOTA: VcpuQuota = {
  code: 'L-1216C47A',
  name: 'Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances',
};

export const VCPU_QUOTAS: readonly VcpuQuota[] = [
  STANDARD_VCPU_QUOTA,
  { code: 'L-DB2E81BA', name: 'Running On-Demand G and VT instances' },
  { code: 'L-417A185B', name: 'Running On-Demand P instances' },
  { code: 'L-7295265B', name: 'Running On-Demand X instances' },
  { code: 'L-74FC7D96', name: 'Running On-Demand F instances' },
  { code: 'L-6E869C2A', name: 'Running On-Demand Inf instances' },
];

/** The family letters of each quota, longest prefixes first (`inf` before `i`, `vt` before nothing). */
const PREFIXES: readonly (readonly [string, string])[] = [
  ['inf', 'L-6E869C2A'],
  ['vt', 'L-DB2E81BA'],
  ['g', 'L-DB2E81BA'],
  ['p', 'L-417A185B'],
  ['x', 'L-7295265B'],
  ['f', 'L-74FC7D96'],
  ...[...'acdhimrtz'].map((letter) => [letter, STANDARD_VCPU_QUOTA.code] as const),
];

/**
 * The On-Demand vCPU quota an instance type counts against (`m5.large` → L-1216C47A, `g5.xlarge` → L-DB2E81BA);
 * undefined for families no quota here covers (Trn, DL, high memory `u-`, Mac).
 */
export function vcpuQuotaOf(instanceType: string): VcpuQuota | undefined {
  const family = instanceType.split('.')[0]?.toLowerCase() ?? '';
  if (/^(trn|dl|u-|mac)/.test(family)) return undefined;
  const code = PREFIXES.find(([prefix]) => family.startsWith(prefix))?.[1];
  return VCPU_QUOTAS.find((q) => q.code === code);
}

export function vcpuQuotaByCode(code: string): VcpuQuota | undefined {
  return VCPU_QUOTAS.find((q) => q.code === code);
}

/** The vCPUs of an instance type (the pinned table; 0 when it is not in it). */
export function vcpusOf(instanceType: string): number {
  return PINNED_INSTANCE_TYPES.get(instanceType)?.vcpu ?? 0;
}

/** vCPUs per quota code of the given instances (On-Demand only: spot ones count against other quotas). */
export function vcpusByQuota(
  instances: readonly { readonly instanceType: string; readonly spot?: boolean }[],
): Record<string, number> {
  const used: Record<string, number> = {};
  for (const i of instances) {
    const quota = i.spot ? undefined : vcpuQuotaOf(i.instanceType);
    if (quota) used[quota.code] = (used[quota.code] ?? 0) + vcpusOf(i.instanceType);
  }
  return used;
}

/** EC2's answer to a launch over the quota (RunInstances' error `VcpuLimitExceeded`, the same text in CreateFleet's). */
export function vcpuLimitExceededMessage(limit: number): string {
  return (
    `You have requested more vCPU capacity than your current vCPU limit of ${limit} allows for the instance bucket ` +
    'that the specified instance type belongs to. Please visit http://aws.amazon.com/contact-us/ec2-request to ' +
    'request an adjustment to this limit.'
  );
}

/** The limit a VcpuLimitExceeded message names, when it is one. */
export function vcpuLimitInMessage(message: string): number | undefined {
  const match = /current vCPU limit of (\d+)/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/**
 * A group's failed launch as the roll reports it: the group, and for a VcpuLimitExceeded the quota's code and name
 * (from the instance type) and the limit (from EC2's message), and what the roll does meanwhile.
 */
export function launchFailureProblem(group: string, instanceType: string, message: string): string {
  const limit = vcpuLimitInMessage(message);
  const quota = vcpuQuotaOf(instanceType);
  if (limit === undefined) return `Auto Scaling group ${group} cannot launch instances: ${message}`;
  const which = quota ? `quota ${quota.code} (${quota.name})` : 'its On-Demand vCPU quota';
  return (
    `Auto Scaling group ${group} cannot launch ${instanceType || 'instances'}: the account's vCPU limit of ${limit} ` +
    `is reached, ${which}. The roll drains no more nodes than update_max_unavailable allows until replacements ` +
    'are Ready; raise the quota (Service Quotas) or lower the surge: the roll goes on once launches succeed'
  );
}
