import { hashOf } from '../hash';
import type { SimContext } from '../sim-context';
import { emptyPart } from '../world-shards';
import type { AccountState, SubnetRole, SubnetState } from '../world-state';

/**
 * One simulated AWS account in one region: a VPC 10.0.0.0/16 and, in each of three AZs `<region>a/b/c`, a
 * node subnet (10.0.0.0/19, 10.0.32.0/19, 10.0.64.0/19), an ELB subnet and an internal-node subnet.
 * Ids are hashes of account, region and role, so they are the same in every run.
 */

export const VPC_CIDR = '10.0.0.0/16';
const ROLES: readonly SubnetRole[] = ['node', 'elb', 'internal-node'];

export function accountKey(accountId: string, region: string): string {
  return `${accountId}/${region}`;
}

export function availabilityZones(region: string): string[] {
  return ['a', 'b', 'c'].map((suffix) => `${region}${suffix}`);
}

function subnetCidr(role: SubnetRole, azIndex: number): string {
  if (role === 'node') return `10.0.${azIndex * 32}.0/19`;
  return `10.0.${(role === 'elb' ? 96 : 100) + azIndex}.0/24`;
}

export function ensureAccount(ctx: SimContext, accountId: string, region: string): AccountState {
  const key = accountKey(accountId, region);
  const existing = ctx.state.accounts[key];
  if (existing) return existing;
  const subnets: SubnetState[] = [];
  availabilityZones(region).forEach((az, index) => {
    for (const role of ROLES) {
      subnets.push({
        id: `subnet-${hashOf([accountId, region, role, az], 17)}`,
        az,
        role,
        cidr: subnetCidr(role, index),
      });
    }
  });
  const account: AccountState = {
    key,
    accountId,
    region,
    vpc: { id: `vpc-${hashOf([accountId, region, 'vpc'], 17)}`, cidr: VPC_CIDR },
    subnets,
    ...emptyPart(),
    ipCounters: [0, 0, 0],
  };
  ctx.state.accounts[key] = account;
  return account;
}

export function subnetZone(account: AccountState, subnetId: string): string | undefined {
  return account.subnets.find((subnet) => subnet.id === subnetId)?.az;
}

/** The next private IP in the AZ's node subnet, e.g. 10.0.32.7 in the second AZ. */
export function allocatePrivateIp(account: AccountState, az: string): string {
  const index = Math.max(0, availabilityZones(account.region).indexOf(az));
  const n = account.ipCounters[index] ?? 0;
  account.ipCounters[index] = n + 1;
  return `10.0.${index * 32 + (Math.floor(n / 250) % 32)}.${(n % 250) + 4}`;
}

/** `ip-10-0-32-7.<region>.compute.internal` */
export function privateDnsName(ip: string, region: string): string {
  return `ip-${ip.replaceAll('.', '-')}.${region}.compute.internal`;
}
