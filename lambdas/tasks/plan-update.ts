import { PlanOutput, type PullRequestPlan } from '../contracts/cluster-update';
import { defineTask, type PortsFor } from './define-task';
import { loadCluster } from './step/cluster-status';
import { clusterUpdatePayload } from './step/payloads';
import { planCluster } from './plan/plan-cluster';
import { storePlan } from './plan/store-plan';
import { rehearsePlan } from './plan/rehearse-plan';

/**
 * Planning reads everything and writes only the plan document. `stacks: write` because CloudFormation counts
 * creating (and deleting) a change set as a write, although none is ever executed.
 */
const PORTS = {
  registry: 'read',
  sources: 'read',
  templates: 'read',
  secrets: 'read',
  progress: 'read',
  artifacts: 'write',
  stacks: 'write',
  kube: 'read',
  values: 'read',
  pools: 'read',
  clock: 'read',
  // `rehearse: true`: the twin runs in this function and reads the live cluster through the ports above.
  rehearsals: 'read',
  // The account's On-Demand vCPU quotas and their use, beside the rehearsed surge (read only).
  quotas: 'read',
} as const;

/**
 * `action: plan`: what an update of the cluster would do (as `clm plan`), stored as a document among the run's
 * artefacts; the execution output carries its summary and key. Nothing else is written: no lease, no run record.
 * `rehearse`: also rehearse the update in a twin of the cluster (`clm plan --rehearse`), reading the live one only.
 */
export async function planUpdate(
  clusterId: string,
  options: { readonly applyOnly: boolean; readonly pullRequest?: PullRequestPlan; readonly rehearse?: boolean },
  ports: PortsFor<typeof PORTS>,
): Promise<PlanOutput> {
  const cluster = await loadCluster(ports, clusterId);
  const pr = options.pullRequest;
  const pinned = pr ? { configVersion: pr.configVersion, sourceVersions: pr.sourceVersions } : undefined;
  const plan = await planCluster(cluster, ports, { applyOnly: options.applyOnly, ...(pinned ? { pinned } : {}) });
  return storePlan(
    ports.artifacts,
    options.rehearse ? await rehearsePlan(plan, cluster, ports, { ...(pinned ? { pinned } : {}) }) : plan,
  );
}

export const task = defineTask({
  name: 'PlanUpdate',
  description:
    'Plans an update (action plan): change sets, dry-run applies, deletions, rolls, and with rehearse a rehearsal; stores the plan',
  input: clusterUpdatePayload(),
  output: PlanOutput,
  ports: PORTS,
  lambda: { memoryMb: 1024, timeoutSeconds: 600 },
  step: (payload, ports) =>
    planUpdate(
      payload.state.clusterId,
      {
        applyOnly: payload.state.options.applyOnly,
        ...(payload.state.pullRequest ? { pullRequest: payload.state.pullRequest } : {}),
        ...(payload.state.rehearse ? { rehearse: true } : {}),
      },
      ports,
    ),
});
