import type { KubeObject } from '../../ports/kube-cluster';
import { isRecord } from '../config/plain-data';

/**
 * How many of a Karpenter pool's nodes a roll may disrupt at once: the NodePool's `spec.disruption.budgets[].nodes`
 * (a count such as "3" or a percentage such as "20%" of the pool's nodes, rounded up as Karpenter does), the tightest
 * budget that applies to drift. A budget whose `reasons` leave out `Drifted` does not apply; a budget with a
 * `schedule` is taken as always active (the tighter reading: CLM cannot know Karpenter's clock). No budget means
 * Karpenter's default, 10%. At least 1, so a roll CLM was asked to do always moves.
 */

export const DEFAULT_BUDGET = '10%';

export interface Budget {
  readonly nodes: number;
  /** The budget that decided, as written (`10%`, `3`), and where it came from. */
  readonly from: string;
}

export function disruptionBudget(nodePool: KubeObject | undefined, nodeCount: number): Budget {
  const spec = isRecord(nodePool?.spec) ? nodePool.spec : {};
  const disruption = isRecord(spec.disruption) ? spec.disruption : {};
  const budgets = Array.isArray(disruption.budgets) ? disruption.budgets.filter(isRecord) : [];
  const applying = budgets.filter(
    (b) => !Array.isArray(b.reasons) || b.reasons.length === 0 || b.reasons.includes('Drifted'),
  );
  const written = applying.length ? applying.map((b) => String(b.nodes ?? DEFAULT_BUDGET).trim()) : [DEFAULT_BUDGET];
  let best: Budget | undefined;
  for (const value of written) {
    const nodes = budgetNodes(value, nodeCount);
    if (nodes === undefined) continue;
    if (!best || nodes < best.nodes) best = { nodes, from: value };
  }
  const chosen = best ?? { nodes: budgetNodes(DEFAULT_BUDGET, nodeCount)!, from: DEFAULT_BUDGET };
  return { nodes: Math.max(1, chosen.nodes), from: applying.length ? chosen.from : `${DEFAULT_BUDGET} (default)` };
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
