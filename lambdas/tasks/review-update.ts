import { approvalSetting, decisionFor } from '../core/approval/approval';
import { ApprovalOutput } from '../contracts/cluster-update';
import { ValidationError } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { openStep } from './step/open-step';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { planCluster } from './plan/plan-cluster';
import { updateRun, type RunRef } from './step/run-record';
import { storePlan } from './plan/store-plan';
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
  const stored = await storePlan(ports.artifacts, plan);
  if (stored.problems.length) {
    throw new ValidationError(`The plan of ${cluster.id} at ${ref.targetVersion} found problems`, {
      issues: stored.problems,
      location: { clusterId: cluster.id },
    });
  }
  const answer = (status: ApprovalOutput['status'], message: string): ApprovalOutput => ({
    status,
    timeoutSeconds,
    message,
    digest: stored.digest,
    planKey: stored.planKey,
  });
  const controls = await ports.progress.getControls(cluster.id);
  const decision = stored.changes ? decisionFor(controls?.approval, ref.targetVersion, stored.digest) : 'APPROVED';
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
  if (decision === 'NEW') {
    const { digest: planDigest, planKey, summary } = stored;
    const request = { status: 'PENDING' as const, targetVersion: ref.targetVersion, planDigest, planKey, summary };
    await ports.progress.putControls(cluster.id, { ...controls, approval: { ...request, requestedAt: now } });
  }
  await updateRun(ports, ref, (r) => ({ ...r, phase: `awaiting approval of plan ${stored.digest}` }));
  const { digest, planKey, summary } = stored;
  const how = (verb: string) => `clm ${verb} ${cluster.id} --plan ${digest}`;
  const request = { digest, planKey, summary, approve: how('approve'), reject: how('reject'), timeoutSeconds };
  await announce(ports, ref, [approvalRequested({ ...ref, now }, request)]);
  return answer('PENDING', `plan ${stored.digest} (${stored.summary}) awaits approval: clm approve ${cluster.id}`);
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
