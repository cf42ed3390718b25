import { planDigest, planSummary } from '../../core/approval/approval';
import { formatPlan } from '../../core/plan/format-plan';
import { hasChanges, type ClusterPlan } from '../../core/plan/plan-document';
import type { PlanOutput } from '../../contracts/cluster-update';
import type { ArtifactStore } from '../../ports/artifact-store';
import { runArtifactKey } from '../step/artifacts';

/**
 * Keep a plan where an operator can read it: `plan-<digest>.json` (the document `clm plan --output json` prints for
 * one cluster) and `plan-<digest>.txt` (its text) among the run's artefacts. The same plan lands on the same keys.
 */
export async function storePlan(artifacts: ArtifactStore, plan: ClusterPlan): Promise<PlanOutput> {
  const digest = planDigest(plan);
  const base = runArtifactKey(plan.clusterId, plan.targetVersion, `plan-${digest}`).replace(/\.json$/, '');
  await artifacts.put(`${base}.json`, JSON.stringify(plan, null, 2));
  await artifacts.put(`${base}.txt`, formatPlan(plan));
  return {
    targetVersion: plan.targetVersion,
    digest,
    planKey: `${base}.json`,
    summary: planSummary(plan),
    changes: hasChanges(plan),
    problems: [...plan.problems],
  };
}
