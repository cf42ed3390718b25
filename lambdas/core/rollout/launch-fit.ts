import type { RollPlan } from './plan-roll-step';

/** What a plan's scale-out launches: the instances beyond the pool's desired capacity now. */
export function launchesOfScaleOut(plan: Pick<RollPlan, 'scaleTo'>, desired: number): number {
  return plan.scaleTo !== undefined ? Math.max(0, plan.scaleTo - desired) : 0;
}

/**
 * The plan with its scale-out cut to the launches the account and region's budget granted: the surge shrinks (or, with
 * none granted, waits until `nextAt`). The nodes added for same-zone pairing are the last of a scale-out, so they go
 * first. Everything else of the plan stands: cordons only ever use capacity that is Ready already.
 */
export function fitScaleOut(
  plan: RollPlan,
  desired: number,
  granted: number,
  budget: { readonly where: string; readonly nextAt?: number },
): RollPlan {
  const want = launchesOfScaleOut(plan, desired);
  if (granted >= want) return plan;
  const { scaleTo: _scaleTo, pairingScaleOut, waitingFor, ...rest } = plan;
  const surgeTarget = plan.scaleTo! - (pairingScaleOut ?? 0);
  const scaleTo = desired + granted;
  const pairing = Math.max(0, scaleTo - surgeTarget);
  const next = budget.nextAt !== undefined ? ` until ${new Date(budget.nextAt).toISOString()}` : '';
  const held = `the launch budget of ${budget.where} (${want - granted} of ${want} launches held back${next})`;
  return {
    ...rest,
    ...(granted > 0 ? { scaleTo } : {}),
    ...(pairing > 0 ? { pairingScaleOut: pairing } : {}),
    waitingFor: waitingFor ? `${waitingFor}; ${held}` : held,
    ...(budget.nextAt !== undefined ? { wakeAt: Math.min(plan.wakeAt ?? Infinity, budget.nextAt) } : {}),
  };
}
