import { newRunRecord } from '../core/model/run';
import { resolveClusterConfigVersion } from '../core/version/resolve-config-version';
import { targetVersion as composeTargetVersion } from '../core/version/cluster-version';
import { PrepareOutput } from '../contracts/cluster-update';
import type { ClusterUpdateInput } from '../contracts/cluster-update';
import type { ClusterArtifact } from '../contracts/artifacts';
import { LeaseHeldError } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { putJson, runArtifactKey } from './kit/artifacts';
import { loadCluster, writeStatus } from './kit/cluster-status';
import { clusterUpdatePayload } from './kit/payloads';
import { LEASE_TTL_MS } from './kit/run-record';

const PORTS = { registry: 'write', sources: 'read', progress: 'write', artifacts: 'write', clock: 'read' } as const;
type PreparePorts = PortsFor<typeof PORTS>;

/**
 * Decide what this execution does for one cluster, and claim it: compute the target version, skip blocked
 * or paused clusters, take the lease, create (or resume) the run record, and mark `next_version`.
 */
export async function prepare(input: ClusterUpdateInput, holder: string, ports: PreparePorts): Promise<PrepareOutput> {
  const cluster = await loadCluster(ports, input.clusterId);
  const previousVersion = cluster.status.currentVersion;
  const skip = (message: string, targetVersion = ''): PrepareOutput => ({
    decision: 'SKIP',
    targetVersion,
    previousVersion,
    holder,
    message,
  });

  const controls = await ports.progress.getControls(cluster.id);
  if (controls?.paused)
    return skip(
      `Updates of ${cluster.id} are paused${controls.reason ? `: ${controls.reason}` : ''}; run \`clm resume\` to continue`,
    );
  if ('cluster_update_block' in cluster.configItems) {
    return skip(
      `Updates of ${cluster.id} are blocked by config item cluster_update_block${cluster.configItems.cluster_update_block ? ` (${cluster.configItems.cluster_update_block})` : ''}`,
    );
  }

  const decommission = input.action === 'decommission' || cluster.lifecycleStatus === 'decommission-requested';
  if (!decommission && cluster.lifecycleStatus === 'decommissioned')
    return skip(`Cluster ${cluster.id} is decommissioned`);

  const resolved = await resolveClusterConfigVersion(cluster, ports.sources);
  const configVersion = resolved.id;
  const sourceVersions = Object.fromEntries(resolved.sources.map((s) => [s.name, s.version]));
  const target = decommission
    ? `decommission#${composeTargetVersion(configVersion, cluster)}`
    : composeTargetVersion(configVersion, cluster);

  const unfinished = await ports.progress.getRun(cluster.id, target);
  if (decommission && unfinished?.completedAt !== undefined) {
    return {
      decision: 'NOOP',
      targetVersion: target,
      previousVersion,
      holder,
      message: `Cluster ${cluster.id} was already decommissioned`,
    };
  }
  if (!decommission && target === previousVersion && !(unfinished && unfinished.completedAt === undefined)) {
    return {
      decision: 'NOOP',
      targetVersion: target,
      previousVersion,
      holder,
      message: `Cluster ${cluster.id} is up to date at ${target}`,
    };
  }

  const now = ports.clock.now();
  try {
    await ports.progress.acquireLease(cluster.id, holder, LEASE_TTL_MS, now);
  } catch (error) {
    if (error instanceof LeaseHeldError) return skip(error.message, target);
    throw error;
  }

  await putJson(ports.artifacts, runArtifactKey(cluster.id, target, 'cluster'), {
    cluster,
    configVersion,
    sourceVersions,
  } satisfies ClusterArtifact);
  const resumed = unfinished !== undefined && unfinished.completedAt === undefined;
  if (!unfinished || unfinished.completedAt !== undefined) {
    const fresh = {
      ...newRunRecord(
        {
          clusterId: cluster.id,
          targetVersion: target,
          action: decommission ? 'decommission' : 'provision',
          holder,
          previousVersion,
        },
        now,
      ),
      ...(await learnedBootTimes(ports, cluster.id, previousVersion)),
    };
    await ports.progress.putRun(unfinished ? { ...fresh, revision: unfinished.revision } : fresh);
  } else if (unfinished.holder !== holder) {
    await ports.progress.putRun({ ...unfinished, holder, updatedAt: now });
  }
  if (!decommission) await writeStatus(ports, cluster, { ...cluster.status, nextVersion: target });

  const verb = decommission ? 'Decommissioning' : previousVersion ? 'Updating' : 'Creating';
  return {
    decision: decommission ? 'DECOMMISSION' : 'UPDATE',
    targetVersion: target,
    previousVersion,
    holder,
    message: `${verb} ${cluster.id}${previousVersion && !decommission ? ` from ${previousVersion}` : ''} to ${target}${resumed ? ' (resuming an unfinished run)' : ''}`,
  };
}

/** Boot times the previous run learned (and those it inherited), so this run need not learn them again. */
async function learnedBootTimes(
  ports: PreparePorts,
  clusterId: string,
  previousVersion: string,
): Promise<{ learnedBootMs?: Record<string, number> }> {
  if (!previousVersion) return {};
  const previous = await ports.progress.getRun(clusterId, previousVersion);
  if (!previous) return {};
  const learned: Record<string, number> = { ...(previous.learnedBootMs ?? {}) };
  for (const [pool, progress] of Object.entries(previous.pools)) {
    if (progress.bootEstimateMs !== undefined) learned[pool] = progress.bootEstimateMs;
  }
  return Object.keys(learned).length ? { learnedBootMs: learned } : {};
}

export const task = defineTask({
  name: 'Prepare',
  description: 'Reads the cluster and config version, takes the lease, decides what to do',
  input: clusterUpdatePayload(),
  output: PrepareOutput,
  ports: PORTS,
  step: (payload, ports) => prepare(payload.state, payload.executionId, ports),
});
