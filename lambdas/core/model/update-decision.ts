import type { ClusterControls } from '../../ports/progress-store';
import type { RunRecord } from './run';
import type { Cluster } from './cluster';
import { targetVersion } from '../version/cluster-version';

/** What stops updates of a cluster by someone's decision: an operator's pause or abort, or `cluster_update_block`. */
export interface UpdateBlock {
  readonly kind: 'paused' | 'update-blocked';
  /** `paused by an operator: incident 42`, `config item cluster_update_block (freeze)`. */
  readonly detail: string;
}

export function updateBlock(
  cluster: Pick<Cluster, 'configItems'>,
  controls: ClusterControls | undefined,
): UpdateBlock | undefined {
  if (controls?.paused || controls?.abortRequested) {
    const what = controls.paused ? 'paused' : 'aborted';
    return { kind: 'paused', detail: `${what} by an operator${controls.reason ? `: ${controls.reason}` : ''}` };
  }
  if ('cluster_update_block' in cluster.configItems) {
    const why = cluster.configItems.cluster_update_block;
    return { kind: 'update-blocked', detail: `config item cluster_update_block${why ? ` (${why})` : ''}` };
  }
  return undefined;
}

/** Why a cluster must not be touched now (paused, `cluster_update_block`, decommissioned), or undefined. */
export function blockedReason(
  cluster: Pick<Cluster, 'id' | 'configItems' | 'lifecycleStatus'>,
  controls: ClusterControls | undefined,
  decommission: boolean,
): string | undefined {
  const block = updateBlock(cluster, controls);
  if (block?.kind === 'paused') return `Updates of ${cluster.id} are ${block.detail}; run \`clm resume\` to continue`;
  if (block) return `Updates of ${cluster.id} are blocked by ${block.detail}`;
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
  return decommission ? decommissionVersion(version) : version;
}

/** The run version of decommissioning a cluster whose target is `version`. */
export function decommissionVersion(version: string): string {
  return `decommission#${version}`;
}

/**
 * Why there is nothing to do, or undefined: a decommission that already completed, or a cluster already at its
 * target with no unfinished run for it — unless that run was `--apply-only` and this one is not: its nodes were
 * never rolled to the target.
 */
export function nothingToDo(
  cluster: Pick<Cluster, 'id' | 'status'>,
  target: string,
  decommission: boolean,
  existing: Pick<RunRecord, 'completedAt' | 'applyOnly'> | undefined,
  applyOnly = false,
): string | undefined {
  if (decommission)
    return existing?.completedAt !== undefined ? `Cluster ${cluster.id} was already decommissioned` : undefined;
  const unfinished = existing !== undefined && existing.completedAt === undefined;
  const nodesBehind = existing?.applyOnly === true && !applyOnly;
  return target === cluster.status.currentVersion && !unfinished && !nodesBehind
    ? `Cluster ${cluster.id} is up to date at ${target}`
    : undefined;
}
