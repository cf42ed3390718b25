import type { RollPlan } from './plan-roll-step';
import type { PoolNode } from './pool-snapshot';

/**
 * Pausing, aborting and `cluster_update_block` stop a roll only at a safe point: a node already cordoned is drained
 * and replaced first (never left between cordon and replacement), and no new work starts — no scale-out, no new
 * cordon, no new decommission marks. Pure.
 */

/** The plan starts work that a hold must not start (a new node cordoned or marked, the group scaled out). */
export function startsNewWork(plan: RollPlan): boolean {
  return plan.scaleTo !== undefined || plan.cordon.length > 0 || plan.mark.length > 0;
}

/**
 * The plan under a hold: only the drains in flight go on; `safe` when there are none, so the roll stops here. Nodes
 * still waiting for their pre-drain hooks (`uncordoned`) are not in flight: nothing was done to them yet, so they wait
 * where they are and the roll may stop.
 */
export function holdPlan(
  plan: RollPlan,
  uncordoned: (node: PoolNode) => boolean = () => false,
): { readonly plan: RollPlan; readonly safe: boolean } {
  const inFlight = plan.drain.filter((n) => !uncordoned(n));
  return {
    plan: { done: false, mark: [], cordon: [], drain: inFlight },
    safe: inFlight.length === 0,
  };
}
