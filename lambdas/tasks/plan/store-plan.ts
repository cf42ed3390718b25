import { planDigest, planSummary } from '../../core/approval/approval';
import { formatPlan } from '../../core/plan/format-plan';
import { hasChanges, type ClusterPlan } from '../../core/plan/plan-document';
import { rehearsalSummary } from '../../core/rehearsal/format-rehearsal';
import type { Rehearsal } from '../../core/rehearsal/rehearsal-report';
import type { PlanOutput } from '../../contracts/cluster-update';
import { Rehearsal as RehearsalOutput } from '../../contracts/rehearsal';
import type { ArtifactStore } from '../../ports/artifact-store';
import { runArtifactKey } from '../step/artifacts';

/**
 * How many PDB pods, forced and Pending pods a rehearsal keeps in a task's output (the execution state holds at most
 * 256 KB); the plan document keeps them all.
 */
export const REHEARSAL_LIST_CAP = 20;

function capped(r: Rehearsal): PlanOutput['rehearsal'] {
  return RehearsalOutput.parse({
    ...r,
    pdbBlocks: r.pdbBlocks
      .slice(0, REHEARSAL_LIST_CAP)
      .map((b) => ({ ...b, pods: b.pods.slice(0, REHEARSAL_LIST_CAP) })),
    forcedDrains: r.forcedDrains.slice(0, REHEARSAL_LIST_CAP),
    pending: r.pending.slice(0, REHEARSAL_LIST_CAP),
    errors: r.errors.slice(0, REHEARSAL_LIST_CAP),
  });
}

/** Where a plan is kept and what a task's output says of it (nothing is written). */
export function planOutputOf(plan: ClusterPlan): PlanOutput {
  const digest = planDigest(plan);
  const base = runArtifactKey(plan.clusterId, plan.targetVersion, `plan-${digest}`).replace(/\.json$/, '');
  return {
    targetVersion: plan.targetVersion,
    digest,
    planKey: `${base}.json`,
    summary: planSummary(plan),
    changes: hasChanges(plan),
    problems: [...plan.problems],
    ...(plan.rehearsal
      ? { rehearsal: capped(plan.rehearsal), rehearsalSummary: rehearsalSummary(plan.rehearsal) }
      : {}),
  };
}

/**
 * Keep a plan where an operator can read it: `plan-<digest>.json` (the document `clm plan --output json` prints for
 * one cluster) and `plan-<digest>.txt` (its text) among the run's artefacts. The same plan lands on the same keys.
 */
export async function storePlan(artifacts: ArtifactStore, plan: ClusterPlan): Promise<PlanOutput> {
  const output = planOutputOf(plan);
  await artifacts.put(output.planKey, JSON.stringify(plan, null, 2));
  await artifacts.put(output.planKey.replace(/\.json$/, '.txt'), formatPlan(plan));
  return output;
}
