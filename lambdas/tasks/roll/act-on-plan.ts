import type { RollPlan } from '../../core/rollout/plan-roll-step';
import type { PoolSnapshot } from '../../core/rollout/pool-snapshot';
import { noActions, type RollActions } from '../../core/rollout/roll-step-report';
import { budgetScaleOut } from '../launches/budgeted-scaling';
import { tallied } from '../launches/launch-allowance';
import type { HealthCheck } from './health-check';
import { rollActions, type RollContext } from './roll-actions';

/**
 * Act on the plan: its scale-out cut to the launch budget, then rollActions; the launches left unused go back, and
 * what the budget held back and AWS throttled is counted (a call still throttled blocks the step, which backs off).
 */
export async function act(
  context: RollContext,
  health: HealthCheck,
  snapshot: PoolSnapshot,
): Promise<{ plan: RollPlan; acted: RollActions; figures: ReturnType<typeof tallied>['output'] }> {
  if (health.plan.done) {
    if (snapshot.preRollDesired !== undefined)
      await context.cp.pools.restorePreRollSize(context.target, context.pool.name);
    return { plan: health.plan, acted: withBlock(noActions(health.progress), health.blocked), figures: {} };
  }
  const plan = await budgetScaleOut(context.launches, health.plan, snapshot.desired);
  const raw = await rollActions(context, plan, snapshot, health.progress);
  const tally = await context.launches?.finish();
  const counts = tallied(raw.progress, tally);
  const blocked = tally?.throttled ? [...raw.blocked, tally.throttled] : raw.blocked;
  const acted = { ...raw, progress: { ...raw.progress, ...counts.progress }, blocked };
  return { plan, acted: withBlock(acted, health.blocked), figures: counts.output };
}

/** What the health gate found unhealthy comes first in what blocks the step. */
function withBlock(acted: RollActions, blocked: string | undefined): RollActions {
  return blocked ? { ...acted, blocked: [blocked, ...acted.blocked] } : acted;
}
