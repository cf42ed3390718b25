import type { AccountQuotas } from '../../ports/account-quotas';
import type { SimContext } from '../sim-context';
import type { AccountState } from '../world-state';
import { vcpuLimit, vcpusInUseByQuota } from '../aws/vcpu-quota';
import { instrument } from './instrument';

/**
 * AccountQuotas over the simulated account: the limits EC2 enforces there (aws/vcpu-quota.ts) as Service Quotas
 * answers them, and the vCPUs its instances (and, per the scenario, its other workloads) hold. `unreadableQuotas`
 * makes GetServiceQuota answer as AWS does without the right (`*`: AccessDeniedException) or without the quota.
 */
export function simAccountQuotas(ctx: SimContext, account: AccountState, clusterId: string): AccountQuotas {
  const unreadable = () =>
    (ctx.state.scenario.accounts ?? []).find((a) => a.account === account.accountId && a.region === account.region)
      ?.unreadableQuotas ?? [];
  return instrument<AccountQuotas>(ctx, 'quotas', clusterId, {
    vcpuLimit(code) {
      if (unreadable().includes('*'))
        return {
          unknown:
            `Service Quotas GetServiceQuota ec2/${code}: AccessDeniedException: User is not authorized to perform: ` +
            'servicequotas:GetServiceQuota',
        };
      if (unreadable().includes(code))
        return {
          unknown: `Service Quotas GetServiceQuota ec2/${code}: NoSuchResourceException: The request failed because the specified quota doesn't exist.`,
        };
      return { limit: vcpuLimit(ctx, account, code) };
    },
    vcpusInUse: () => vcpusInUseByQuota(ctx, account),
  });
}
