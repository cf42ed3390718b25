import { clusterName } from '../core/cloudformation/stack-names';
import { leftoverName, planCleanup } from '../core/decommission/leftovers';
import type { LeftoversProgress } from '../core/model/run';
import { StepOutput, type UpdateOptions } from '../contracts/cluster-update';
import { defineTask, type PortsFor } from './define-task';
import { openStep } from './step/open-step';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { updateRun, type RunRef } from './step/run-record';
import { assertNotHeld } from './step/hold-gate';

const PORTS = { leftovers: 'write', registry: 'read', progress: 'write', artifacts: 'read', clock: 'read' } as const;

/** Passes before the cleanup gives up on what is still in use (15 s apart: about 5 minutes, CLM's volume retry). */
export const MAX_CLEANUP_PASSES = 20;
const POLL_SECONDS = 15;

/**
 * Decommission, after the node-pool and cf-manifest stacks are gone and before the main stack: delete what the
 * cluster left outside its stacks — load balancers Kubernetes created and their security groups, available network
 * interfaces, unattached volumes (kept with `--keep-volumes`) — in passes until nothing deletable is left or
 * MAX_CLEANUP_PASSES passed. Every deletion is recorded in the run (`leftovers`), and the step's message lists them.
 * What is still in use after the last pass is recorded as remaining, not a failure: if it keeps the main stack's VPC
 * from being deleted, that deletion fails naming it.
 */
export async function cleanUpLeftovers(
  ref: RunRef,
  ports: PortsFor<typeof PORTS>,
  options: Pick<UpdateOptions, 'keepVolumes'> = {},
): Promise<StepOutput> {
  const { run, cluster, now } = await openStep(ports, ref);
  const before: LeftoversProgress = run.leftovers ?? { passes: 0, deleted: [], kept: [], remaining: [], unchecked: [] };
  if (before.completedAt !== undefined) return { status: 'DONE', waitSeconds: 1, message: summary(before) };
  await assertNotHeld(ports, cluster, 'CleanUpLeftovers');
  const leftovers = ports.forCluster(cluster).leftovers;
  const scan = await leftovers.find(clusterName(cluster));
  const plan = planCleanup(scan.found, { keepVolumes: options.keepVolumes === true });
  const deleted: string[] = [];
  const inUse: string[] = [];
  for (const item of plan.delete) {
    const result = await leftovers.delete(item);
    if (result === 'deleted') deleted.push(leftoverName(item));
    else if (result === 'in-use') inUse.push(leftoverName(item));
  }
  const passes = before.passes + 1;
  const remaining = [...inUse, ...plan.waiting.map(leftoverName)];
  const finished = remaining.length === 0 || passes >= MAX_CLEANUP_PASSES;
  const progress: LeftoversProgress = {
    passes,
    deleted: [...before.deleted, ...deleted.filter((d) => !before.deleted.includes(d))],
    kept: plan.kept.map(leftoverName),
    remaining,
    unchecked: [...scan.unchecked],
    ...(finished ? { completedAt: now } : {}),
  };
  await updateRun(ports, ref, (r) => ({ ...r, phase: 'CleanUpLeftovers', leftovers: progress }));
  if (!finished)
    return {
      status: 'IN_PROGRESS',
      waitSeconds: POLL_SECONDS,
      message: `${progress.deleted.length} deleted so far${deleted.length ? ` (now: ${deleted.join(', ')})` : ''}; waiting for ${remaining.join(', ')}`,
    };
  return { status: 'DONE', waitSeconds: 1, message: summary(progress) };
}

function summary(p: LeftoversProgress): string {
  const parts = [p.deleted.length ? `Deleted ${p.deleted.join(', ')}` : 'Nothing left behind to delete'];
  if (p.kept.length) parts.push(`kept ${p.kept.join(', ')} (--keep-volumes)`);
  if (p.remaining.length) parts.push(`still in use after ${p.passes} passes, left: ${p.remaining.join(', ')}`);
  if (p.unchecked.length) parts.push(`not checked (no API client): ${p.unchecked.join(', ')}`);
  return parts.join('; ');
}

export const task = defineTask({
  name: 'CleanUpLeftovers',
  description:
    'Deletes what a decommissioned cluster left outside its stacks (load balancers, security groups, volumes, ENIs)',
  input: clusterUpdatePayload(),
  output: StepOutput,
  ports: PORTS,
  step: (payload, ports) => cleanUpLeftovers(runRef(payload), ports, payload.state.options),
});
