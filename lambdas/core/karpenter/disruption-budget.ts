import type { KubeObject } from '../../ports/kube-cluster';
import { isRecord } from '../config/plain-data';
import { parseGoDuration } from '../rollout/go-duration';
import { activeWindowEnd, parseCron } from './budget-schedule';

/**
 * How many of a Karpenter pool's nodes a roll may disrupt at once: the NodePool's `spec.disruption.budgets[].nodes`
 * (a count such as "3" or a percentage such as "20%" of the pool's nodes, rounded up as Karpenter does), the tightest
 * budget that applies to drift and is active now. A budget whose `reasons` leave out `Drifted` does not apply; one with
 * a `schedule` is active for its `duration` after each time the schedule fires (UTC, budget-schedule.ts), and one
 * whose schedule or duration cannot be read is taken as always active (the tighter reading). No budgets at all means
 * Karpenter's default, 10%; budgets of which none is active now limit nothing, as in Karpenter.
 *
 * A budget of 0 that is always active still lets one node go, so a roll CLM was asked to do always moves; a scheduled
 * 0 holds the roll until its window ends (`until`), as Karpenter would hold its own drift replacements.
 */

export const DEFAULT_BUDGET = '10%';

export interface Budget {
  readonly nodes: number;
  /** The budget that decided, as written (`10%`, `3`), and where it came from. */
  readonly from: string;
  /** A scheduled budget decided: when its window ends (ms since the epoch). */
  readonly until?: number;
}

export function disruptionBudget(nodePool: KubeObject | undefined, nodeCount: number, now: number): Budget {
  const spec = isRecord(nodePool?.spec) ? nodePool.spec : {};
  const disruption = isRecord(spec.disruption) ? spec.disruption : {};
  const budgets = Array.isArray(disruption.budgets) ? disruption.budgets.filter(isRecord) : [];
  if (budgets.length === 0)
    return { nodes: Math.max(1, budgetNodes(DEFAULT_BUDGET, nodeCount)!), from: `${DEFAULT_BUDGET} (default)` };
  const applying = budgets.filter(
    (b) => !Array.isArray(b.reasons) || b.reasons.length === 0 || b.reasons.includes('Drifted'),
  );
  let best: Budget | undefined;
  for (const budget of applying) {
    const active = activeBudget(budget, nodeCount, now);
    if (active && (!best || active.nodes < best.nodes)) best = active;
  }
  if (!best) return { nodes: Math.max(1, nodeCount), from: 'no budget active now' };
  return best.until !== undefined ? best : { ...best, nodes: Math.max(1, best.nodes) };
}

/** When a scheduled budget of 0 holds the roll until (its window's end), or undefined when it does not hold it. */
export function heldUntil(budget: Budget): number | undefined {
  return budget.nodes === 0 ? budget.until : undefined;
}

/** The budget's node count if it is active at `now`, with its window's end when it has a schedule. */
function activeBudget(budget: Record<string, unknown>, nodeCount: number, now: number): Budget | undefined {
  const written = String(budget.nodes ?? DEFAULT_BUDGET).trim();
  const nodes = budgetNodes(written, nodeCount);
  if (nodes === undefined) return undefined;
  if (budget.schedule === undefined) return { nodes, from: written };
  const schedule = parseCron(String(budget.schedule));
  const duration = parseGoDuration(String(budget.duration ?? ''));
  const window = `${written} (schedule "${String(budget.schedule)}" for ${String(budget.duration ?? '?')})`;
  if (!schedule || duration === undefined || duration <= 0)
    return { nodes, from: `${window}, not understood: taken as always active` };
  const until = activeWindowEnd(schedule, duration, now);
  return until === undefined ? undefined : { nodes, from: window, until };
}

/** `"3"` → 3, `"20%"` of 7 nodes → 2 (rounded up); anything else is undefined (ignored, as Karpenter's validation would refuse it). */
export function budgetNodes(value: string, nodeCount: number): number | undefined {
  const percent = /^(\d{1,3})%$/.exec(value);
  if (percent) {
    const share = Number(percent[1]);
    return share > 100 ? undefined : Math.ceil((nodeCount * share) / 100);
  }
  return /^\d+$/.test(value) ? Number(value) : undefined;
}
