import { approvalPlanText, approvalSetting, decisionFor } from '../core/approval/approval';
import { ApprovalOutput, type PlanOutput } from '../contracts/cluster-update';
import { ValidationError } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { openStep } from './step/open-step';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { planCluster } from './plan/plan-cluster';
import { updateRun, type RunRef } from './step/run-record';
import { planOutputOf, storePlan } from './plan/store-plan';
import { tryRehearsal } from './plan/rehearse-plan';
import { approvalRequested } from '../core/events/update-events';
import { announce } from './events/announce';

const PORTS = {
  registry: 'read',
  sources: 'read',
  templates: 'read',
  secrets: 'read',
  progress: 'write',
  artifacts: 'write',
  clock: 'read',
  // Change sets are created and deleted (never executed): a write to IAM.
  stacks: 'write',
  kube: 'read',
  pools: 'read',
  events: 'write',
  // A new approval request is rehearsed in a twin (the simulator, in this function), reading the live cluster only.
  rehearsals: 'read',
  // The account's On-Demand vCPU quotas and their use, beside the rehearsed surge (read only).
  quotas: 'read',
} as const;

/**
 * The approval gate (`update_requires_approval`), after the config rendered and before the first write: plan the
 * run's pinned versions, store the plan, and compare it with the cluster's approval record. The plan is what gets
 * approved: a record for another target version or another plan (the live cluster changed) has lapsed, and a new
 * request is recorded. Once approved, the run remembers it, so a resumed run does not ask again.
 */
function requireRunValues(values: Record<string, unknown> | undefined, clusterId: string): Record<string, unknown> {
  if (!values)
    throw new ValidationError(
      `the run of ${clusterId} was rendered by an older version (no values recorded): start it again`,
    );
  return values;
}

export async function reviewUpdate(ref: RunRef, ports: PortsFor<typeof PORTS>): Promise<ApprovalOutput> {
  const { run, cluster, pinned, main, now } = await openStep(ports, ref, { artifacts: ['main'] as const });
  const { timeoutSeconds } = approvalSetting(main.configItems, cluster.id);
  if (run.approval) {
    const by = run.approval.by ? ` by ${run.approval.by}` : '';
    const message = `plan ${run.approval.digest} was approved${by}; this run goes on`;
    return { status: 'APPROVED', timeoutSeconds, message, digest: run.approval.digest, planKey: '' };
  }
  // The values RenderConfig rendered with: the plan shows what this run deploys.
  const plan = await planCluster(cluster, ports, {
    applyOnly: run.applyOnly ?? false,
    pinned,
    values: requireRunValues(main.values, cluster.id),
  });
  if (plan.problems.length) {
    throw new ValidationError(`The plan of ${cluster.id} at ${ref.targetVersion} found problems`, {
      issues: plan.problems,
      location: { clusterId: cluster.id },
    });
  }
  const planned = planOutputOf(plan);
  const controls = await ports.progress.getControls(cluster.id);
  const decision = planned.changes ? decisionFor(controls?.approval, ref.targetVersion, planned.digest) : 'APPROVED';
  // A new request is rehearsed (pinned to this run's versions) and its plan stored with the rehearsal; a request
  // already made keeps the document (and the rehearsal) stored then.
  const rehearsed = decision === 'NEW' ? await tryRehearsal(cluster, ports, { pinned }) : undefined;
  const stored =
    decision === 'NEW' || !planned.changes
      ? await storePlan(ports.artifacts, rehearsed && 'rehearsal' in rehearsed ? { ...plan, ...rehearsed } : plan)
      : planned;
  const answer = (status: ApprovalOutput['status'], message: string): ApprovalOutput => ({
    status,
    timeoutSeconds,
    message,
    digest: stored.digest,
    planKey: stored.planKey,
  });
  if (decision === 'APPROVED') {
    const by = stored.changes ? controls?.approval?.by : undefined;
    await updateRun(ports, ref, (r) => ({ ...r, approval: { digest: stored.digest, at: now, ...(by ? { by } : {}) } }));
    const what = stored.changes
      ? `plan ${stored.digest} approved by ${by ?? 'an operator'}`
      : 'the plan changes nothing';
    return answer('APPROVED', what);
  }
  if (decision === 'REJECTED') {
    const { by, reason } = controls!.approval!;
    const why = `rejected by ${by ?? 'an operator'}${reason ? `: ${reason}` : ''}`;
    return answer('REJECTED', `plan ${stored.digest} (${stored.summary}) was ${why}`);
  }
  const rehearsal = !rehearsed
    ? controls?.approval?.rehearsal
    : 'failed' in rehearsed
      ? `not rehearsed: ${rehearsed.failed}`
      : stored.rehearsalSummary;
  if (decision === 'NEW') {
    const { digest: planDigest, planKey, summary } = stored;
    const request = { status: 'PENDING' as const, targetVersion: ref.targetVersion, planDigest, planKey, summary };
    const record = { ...request, ...(rehearsal ? { rehearsal } : {}), requestedAt: now };
    await ports.progress.putControls(cluster.id, { ...controls, approval: record });
  }
  return pending(ports, ref, { ...stored, ...(rehearsal ? { rehearsalSummary: rehearsal } : {}) }, now, answer);
}

/** The request stands: the run says so, ApprovalRequested announces it (with the rehearsal), the answer is PENDING. */
async function pending(
  ports: PortsFor<typeof PORTS>,
  ref: RunRef,
  stored: PlanOutput,
  now: number,
  answer: (status: ApprovalOutput['status'], message: string) => ApprovalOutput,
): Promise<ApprovalOutput> {
  await updateRun(ports, ref, (r) => ({ ...r, phase: `awaiting approval of plan ${stored.digest}` }));
  const { digest, planKey, summary, rehearsalSummary } = stored;
  const how = (verb: string) => `clm ${verb} ${ref.clusterId} --plan ${digest}`;
  const request = {
    digest,
    planKey,
    summary,
    ...(rehearsalSummary ? { rehearsal: rehearsalSummary } : {}),
    approve: how('approve'),
    reject: how('reject'),
    timeoutSeconds: answer('PENDING', '').timeoutSeconds,
  };
  await announce(ports, ref, [approvalRequested({ ...ref, now }, request)]);
  const plan = approvalPlanText({
    planDigest: digest,
    summary,
    ...(rehearsalSummary ? { rehearsal: rehearsalSummary } : {}),
  });
  return answer('PENDING', `${plan} awaits approval: clm approve ${ref.clusterId}`);
}

export const task = defineTask({
  name: 'ReviewUpdate',
  description: 'Approval gate: plans the update, stores the plan, and says whether it is approved, rejected or pending',
  input: clusterUpdatePayload(),
  output: ApprovalOutput,
  ports: PORTS,
  lambda: { memoryMb: 1024, timeoutSeconds: 600 },
  step: (payload, ports) => reviewUpdate(runRef(payload), ports),
});
