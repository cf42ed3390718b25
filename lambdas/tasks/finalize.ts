import { describeLayerPlan } from '../core/cluster-stacks/layer-changes';
import { FinalizeOutput } from '../contracts/cluster-update';
import { defineTask, type PortsFor } from './define-task';
import { withStoredStatus, writeStatus } from './step/cluster-status';
import { openStep } from './step/open-step';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { updateRun, type RunRef } from './step/run-record';
import { updateSucceeded } from '../core/events/update-events';
import { announce } from './events/announce';

const PORTS = { registry: 'write', progress: 'write', artifacts: 'read', clock: 'read', events: 'write' } as const;

/**
 * The update is done: rotate versions as CLM does (§8: last ← current, current ← next, next ← ""),
 * clear problems, set the lifecycle (ready, or decommissioned), close the run and release the lease.
 */
export async function finalize(ref: RunRef, ports: PortsFor<typeof PORTS>): Promise<FinalizeOutput> {
  const { run, cluster: pinned, pinned: artifact, now } = await openStep(ports, ref, { renewLease: false });
  const cluster = await withStoredStatus(ports, pinned);
  const decommission = run.action === 'decommission';
  const status = decommission
    ? { currentVersion: '', lastVersion: cluster.status.currentVersion, nextVersion: '', problems: [] }
    : { currentVersion: ref.targetVersion, lastVersion: cluster.status.currentVersion, nextVersion: '', problems: [] };
  await writeStatus(ports, cluster, status, decommission ? 'decommissioned' : 'ready');
  if (run.completedAt === undefined) {
    await updateRun(ports, ref, (r) => ({ ...r, phase: 'Finalize', completedAt: now }));
  }
  const minutes = Math.round((now - run.startedAt) / 60000);
  const message = decommission
    ? `Cluster ${ref.clusterId} decommissioned in ${minutes} min`
    : `Cluster ${ref.clusterId} is at ${ref.targetVersion} (${minutes} min)${
        artifact.layerPlan ? `; ${describeLayerPlan(artifact.layerPlan)}` : ''
      }`;
  // Announced before the lease goes: a retry after a lost answer still holds the run, and sends nothing twice.
  const ended = run.completedAt ?? now;
  await announce(ports, ref, [
    updateSucceeded(
      { ...ref, now },
      {
        action: run.action,
        previousVersion: run.previousVersion,
        durationSeconds: Math.max(0, Math.round((ended - run.startedAt) / 1000)),
        message,
      },
    ),
  ]);
  await ports.progress.releaseLease(ref.clusterId, ref.holder);
  return { status: 'SUCCEEDED', version: decommission ? '' : ref.targetVersion, message };
}

export const task = defineTask({
  name: 'Finalize',
  description: 'Writes the new version and status, releases the lease',
  input: clusterUpdatePayload(),
  output: FinalizeOutput,
  ports: PORTS,
  step: (payload, ports) => finalize(runRef(payload), ports),
});
