import type { Ports } from '../../ports/ports';
import type { FinalizeOutput } from '../../contracts/cluster-update';
import { loadRun, loadRunCluster, updateRun, type RunRef } from './run-state';
import { withStoredStatus, writeStatus } from './cluster-status';

/**
 * The update is done: rotate versions as CLM does (§8: last ← current, current ← next, next ← ""),
 * clear problems, set the lifecycle (ready, or decommissioned), close the run and release the lease.
 */
export async function finalize(ref: RunRef, ports: Ports): Promise<FinalizeOutput> {
  const run = await loadRun(ports, ref);
  const { cluster: pinned } = await loadRunCluster(ports, ref);
  const cluster = await withStoredStatus(ports, pinned);
  const now = ports.clock.now();
  const decommission = run.action === 'decommission';
  const status = decommission
    ? { currentVersion: '', lastVersion: cluster.status.currentVersion, nextVersion: '', problems: [] }
    : { currentVersion: ref.targetVersion, lastVersion: cluster.status.currentVersion, nextVersion: '', problems: [] };
  await writeStatus(ports, cluster, status, decommission ? 'decommissioned' : 'ready');
  if (run.completedAt === undefined) {
    await updateRun(ports, ref, (r) => ({ ...r, phase: 'Finalize', completedAt: now }));
  }
  await ports.progress.releaseLease(ref.clusterId, ref.holder);
  const minutes = Math.round((now - run.startedAt) / 60000);
  return {
    status: 'SUCCEEDED',
    version: decommission ? '' : ref.targetVersion,
    message: decommission
      ? `Cluster ${ref.clusterId} decommissioned in ${minutes} min`
      : `Cluster ${ref.clusterId} is at ${ref.targetVersion} (${minutes} min)`,
  };
}
