import { launchFailureProblem, vcpuLimitInMessage, vcpuQuotaOf } from '../../core/capacity/vcpu-quotas';
import type { NodePool } from '../../core/model/cluster';
import type { RollPlan } from '../../core/rollout/plan-roll-step';
import type { PoolState } from '../../ports/node-pool-backend';

/**
 * The pool's groups whose newest launch failed while short of their size (the account's vCPU quota, most often):
 * one problem per group for `clm status` (the pool, the quota's code, the limit), and what the roll waits for.
 */
export function launchFailures(
  state: PoolState,
  pool: Pick<NodePool, 'instanceTypes'>,
): {
  readonly problems: readonly string[];
  readonly waitingFor?: string;
} {
  const failed = state.groups.filter((g) => g.launchFailure);
  if (!failed.length) return { problems: [] };
  const typeOf = (group: string) =>
    state.instances.find((i) => i.asgName === group && i.instanceType)?.instanceType ?? pool.instanceTypes[0] ?? '';
  const problems = failed.map((g) => launchFailureProblem(g.name, typeOf(g.name), g.launchFailure!.message));
  const first = failed[0]!;
  const limit = vcpuLimitInMessage(first.launchFailure!.message);
  const quota = vcpuQuotaOf(typeOf(first.name));
  const waitingFor =
    limit !== undefined
      ? `launches the account's vCPU quota${quota ? ` ${quota.code}` : ''} refuses (limit ${limit} vCPU)`
      : `launches Auto Scaling fails: ${first.launchFailure!.message}`;
  return { problems, waitingFor };
}

/** The plan with the failed launches named in what it waits for (the roll's message in `clm status`). */
export function waitingOnLaunches(plan: RollPlan, waitingFor: string | undefined): RollPlan {
  if (!waitingFor || plan.done) return plan;
  return { ...plan, waitingFor: plan.waitingFor ? `${plan.waitingFor}; ${waitingFor}` : waitingFor };
}
