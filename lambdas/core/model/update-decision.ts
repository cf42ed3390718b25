import type { ClusterControls } from '../../ports/progress-store';
import type { RunRecord } from './run';
import type { Cluster } from './cluster';
import { targetVersion } from '../version/cluster-version';

/** Why a cluster must not be touched now (paused, `cluster_update_block`, decommissioned), or undefined. */
export function blockedReason(
  cluster: Pick<Cluster, 'id' | 'configItems' | 'lifecycleStatus'>,
  controls: ClusterControls | undefined,
  decommission: boolean,
): string | undefined {
  if (controls?.paused) {
    const reason = controls.reason ? `: ${controls.reason}` : '';
    return `Updates of ${cluster.id} are paused${reason}; run \`clm resume\` to continue`;
  }
  if ('cluster_update_block' in cluster.configItems) {
    const why = cluster.configItems.cluster_update_block;
    return `Updates of ${cluster.id} are blocked by config item cluster_update_block${why ? ` (${why})` : ''}`;
  }
  if (!decommission && cluster.lifecycleStatus === 'decommissioned') return `Cluster ${cluster.id} is decommissioned`;
  return undefined;
}

/** A decommission run: asked for (`clm decommission`) or the registry's lifecycle says so (CLM). */
export function isDecommission(
  action: 'provision' | 'decommission',
  cluster: Pick<Cluster, 'lifecycleStatus'>,
): boolean {
  return action === 'decommission' || cluster.lifecycleStatus === 'decommission-requested';
}

/** The version a run works towards; decommission runs have their own, so they never meet a provision's record. */
export function runTargetVersion(configVersion: string, cluster: Cluster, decommission: boolean): string {
  const version = targetVersion(configVersion, cluster);
  return decommission ? `decommission#${version}` : version;
}

/**
 * Why there is nothing to do, or undefined: a decommission that already completed, or a cluster already at its
 * target with no unfinished run for it.
 */
export function nothingToDo(
  cluster: Pick<Cluster, 'id' | 'status'>,
  target: string,
  decommission: boolean,
  existing: Pick<RunRecord, 'completedAt'> | undefined,
): string | undefined {
  if (decommission)
    return existing?.completedAt !== undefined ? `Cluster ${cluster.id} was already decommissioned` : undefined;
  const unfinished = existing !== undefined && existing.completedAt === undefined;
  return target === cluster.status.currentVersion && !unfinished
    ? `Cluster ${cluster.id} is up to date at ${target}`
    : undefined;
}
