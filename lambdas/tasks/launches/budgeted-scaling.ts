import { fitScaleOut, launchesOfScaleOut } from '../../core/rollout/launch-fit';
import { planTermination, type RollPlan, type TerminationLedger } from '../../core/rollout/plan-roll-step';
import type { ClusterRef, NodePoolBackend } from '../../ports/node-pool-backend';
import type { LaunchAllowance } from './launch-allowance';

/** What the Auto Scaling calls of a roll step work with; `launches` is absent for pools Auto Scaling does not launch for. */
export interface ScalingContext {
  readonly cp: { readonly pools: NodePoolBackend };
  readonly target: ClusterRef;
  readonly pool: { readonly name: string };
  readonly launches?: LaunchAllowance;
}

/** The plan with its scale-out cut to what the account and region's launch budget grants now. */
export async function budgetScaleOut(
  launches: LaunchAllowance | undefined,
  plan: RollPlan,
  desired: number,
): Promise<RollPlan> {
  const want = launchesOfScaleOut(plan, desired);
  if (!launches || want === 0) return plan;
  const grant = await launches.take(want);
  return fitScaleOut(plan, desired, grant.granted, {
    where: launches.where,
    ...(grant.nextAt !== undefined ? { nextAt: grant.nextAt } : {}),
  });
}

/**
 * Scale the pool out to `scaleTo` (launches already granted). Throttled by AWS even after the back-off, it is left
 * for the next step and its launches go back to the budget. The desired capacity the pool has afterwards.
 */
export async function scaleOut(context: ScalingContext, scaleTo: number, desired: number): Promise<number> {
  const { cp, target, pool, launches } = context;
  if (!launches) {
    await cp.pools.scale(target, pool.name, scaleTo);
    return scaleTo;
  }
  if (await launches.call(`scaling ${pool.name} out to ${scaleTo}`, () => cp.pools.scale(target, pool.name, scaleTo)))
    return scaleTo;
  await launches.giveBack(scaleTo - desired);
  return desired;
}

/**
 * Terminate a drained node, with a replacement launch when the ledger wants one and the budget has it (else with a
 * decrement: no launch). Undefined when AWS still throttled the call after the back-off: the node stays, drained, for
 * the next step, and its launch goes back.
 */
export async function terminateWithinBudget(
  context: ScalingContext,
  instanceId: string,
  ledger: TerminationLedger,
  surplus: boolean,
  ahead: number,
): Promise<ReturnType<typeof planTermination> | undefined> {
  const { cp, target, launches } = context;
  const planned = planTermination(ledger, surplus);
  if (!launches) {
    await cp.pools.terminate(target, instanceId, planned.decrement);
    return planned;
  }
  const launch = !planned.decrement && (await launches.takeOne(ahead));
  const termination = planned.decrement || launch ? planned : planTermination(ledger, surplus, false);
  const terminate = () => cp.pools.terminate(target, instanceId, termination.decrement);
  if (await launches.call(`terminating ${instanceId}`, terminate)) return termination;
  if (launch) await launches.giveBack(1);
  return undefined;
}
