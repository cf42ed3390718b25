import * as z from '../../shared/zod';
import {
  VCPU_QUOTAS,
  vcpuLimitExceededMessage,
  vcpuQuotaOf,
  vcpusByQuota,
  vcpusOf,
} from '../../core/capacity/vcpu-quotas';
import type { SimContext } from '../sim-context';
import type { AccountState, InstanceRecord } from '../world-state';

/**
 * EC2's On-Demand vCPU quotas of a simulated account (core/capacity/vcpu-quotas.ts): a launch that would take the
 * account's pending, running and shutting-down On-Demand instances of a quota's families over its limit is refused
 * with VcpuLimitExceeded, as EC2 refuses it (an Auto Scaling group's scaling activity fails with the message and the
 * group tries again; Karpenter's CreateFleet launches nothing and its pods stay Pending).
 *
 * The limits: the scenario's `quotas.onDemandVcpus` for every account, an account's own `accounts[].vcpuQuotas` over
 * those, DEFAULT_VCPU_LIMIT for a code neither names (generous: a well-established account's, so a scenario that does
 * not speak of quotas never meets one). `accounts[].vcpusUsedElsewhere` are vCPUs the account's other instances (not
 * modelled: other workloads, other tools) hold.
 */

/** vCPUs a quota allows when the scenario says nothing of it. */
export const DEFAULT_VCPU_LIMIT = 100_000;

const CODES = new Set(VCPU_QUOTAS.map((q) => q.code));

/** vCPUs per quota code, e.g. `{ L-1216C47A: 640 }`. */
export const VcpuFigures = z.record(z.string(), z.number().check(z.int(), z.nonnegative())).check(
  z.superRefine((figures, ctx) => {
    for (const code of Object.keys(figures))
      if (!CODES.has(code))
        ctx.addIssue({
          code: 'custom',
          path: [code],
          message: `unknown quota code; the On-Demand vCPU quotas: ${[...CODES].join(', ')}`,
        });
  }),
);
export type VcpuFigures = z.infer<typeof VcpuFigures>;

/** How long an Auto Scaling group waits before it tries a launch the quota refused again. */
export const QUOTA_RETRY_SECONDS = 60;

/** `apiCalls` counter: launches EC2 refused with VcpuLimitExceeded. */
export const VCPU_LIMIT_EXCEEDED = 'ec2.VcpuLimitExceeded';

function accountScenario(ctx: SimContext, account: AccountState) {
  return (ctx.state.scenario.accounts ?? []).find(
    (a) => a.account === account.accountId && a.region === account.region,
  );
}

/** The account's limit of one quota (vCPUs). */
export function vcpuLimit(ctx: SimContext, account: AccountState, code: string): number {
  return (
    accountScenario(ctx, account)?.vcpuQuotas?.[code] ??
    ctx.state.scenario.quotas?.onDemandVcpus?.[code] ??
    DEFAULT_VCPU_LIMIT
  );
}

/** The account's instances that count: pending, running or shutting down (Terminating). */
function counted(account: AccountState): InstanceRecord[] {
  return Object.values(account.instances).filter((i) => i.state !== 'Terminated');
}

/** vCPUs of the quota the account holds now: its simulated instances and what its other instances hold. */
export function vcpusInUse(ctx: SimContext, account: AccountState, code: string): number {
  const own = vcpusByQuota(counted(account))[code] ?? 0;
  return own + (accountScenario(ctx, account)?.vcpusUsedElsewhere?.[code] ?? 0);
}

/** vCPUs in use of every quota (the codes the account holds any of, or has a limit set for). */
export function vcpusInUseByQuota(ctx: SimContext, account: AccountState): Record<string, number> {
  const figures: Record<string, number> = {};
  for (const { code } of VCPU_QUOTAS) {
    const used = vcpusInUse(ctx, account, code);
    if (used > 0) figures[code] = used;
  }
  return figures;
}

/**
 * EC2's check of one On-Demand launch: undefined when it fits under the quota, else VcpuLimitExceeded's message (the
 * refusal is counted). Spot launches and types no quota covers are not checked here.
 */
export function refuseOverQuota(
  ctx: SimContext,
  account: AccountState,
  instanceType: string,
  spot: boolean,
): string | undefined {
  const quota = spot ? undefined : vcpuQuotaOf(instanceType);
  if (!quota) return undefined;
  const limit = vcpuLimit(ctx, account, quota.code);
  if (vcpusInUse(ctx, account, quota.code) + vcpusOf(instanceType) <= limit) return undefined;
  ctx.state.apiCalls[VCPU_LIMIT_EXCEEDED] = (ctx.state.apiCalls[VCPU_LIMIT_EXCEEDED] ?? 0) + 1;
  return vcpuLimitExceededMessage(limit);
}

/** The error RunInstances answers with (code and message as EC2's API returns them). */
export class VcpuLimitExceeded extends Error {
  readonly code = 'VcpuLimitExceeded';
  constructor(message: string) {
    super(message);
    this.name = 'VcpuLimitExceeded';
  }
}
