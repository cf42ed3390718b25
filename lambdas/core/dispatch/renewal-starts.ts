import type { Cluster } from '../model/cluster';
import { updateBlock } from '../model/update-decision';
import { renewalConfigured } from '../node-renewal/renewal-settings';
import { describeDue, type NodesDue } from '../node-renewal/nodes-due';
import type { ClusterControls } from '../../ports/progress-store';
import { executionName } from './execution-name';
import type { ClusterFleetState } from './fleet-state';
import type { FleetTarget } from './fleet-targets';
import type { PlannedStart } from './plan-dispatch';

/**
 * Node repair and node age in the scheduled pass (README "Node repair, forced rolls and node age"): the clusters whose
 * nodes the pass looks at — a pool (or the cluster) asks for `node_repair` or `node_max_age`, the cluster is ready, at
 * its target (a cluster behind it gets its update through the waves, and that run renews its nodes too), not paused
 * or blocked, and no execution of it runs or starts in this pass. The look itself is one listing of the cluster's
 * nodes (tasks/fleet/node-checks.ts); a run starts only where nodes are due. Pure.
 */
export function renewalCandidates(input: {
  readonly clusters: readonly Cluster[];
  readonly targets: ReadonlyMap<string, FleetTarget>;
  readonly states: ReadonlyMap<string, ClusterFleetState>;
  readonly controls: ReadonlyMap<string, ClusterControls>;
  readonly starting: ReadonlySet<string>;
  readonly scope?: ReadonlySet<string>;
}): { readonly cluster: Cluster; readonly targetVersion: string }[] {
  return input.clusters.flatMap((cluster) => {
    const target = input.targets.get(cluster.id);
    if (!target?.ok || cluster.lifecycleStatus !== 'ready') return [];
    if (input.scope && !input.scope.has(cluster.id)) return [];
    if (cluster.status.currentVersion !== target.targetVersion || input.starting.has(cluster.id)) return [];
    if (input.states.get(cluster.id)?.execution?.state === 'running') return [];
    if (updateBlock(cluster, input.controls.get(cluster.id))) return [];
    if (!renewalConfigured(cluster.configItems, cluster.nodePools)) return [];
    return [{ cluster, targetVersion: target.targetVersion }];
  });
}

/** How long one renewal execution name holds: a second pass within it finds "already running" (or its end). */
export const RENEWAL_NAME_WINDOW_MS = 3_600_000;

/** The execution a cluster with nodes due gets: an update at its own target version that renews its nodes. */
export function renewalStart(
  cluster: Cluster,
  targetVersion: string,
  due: NodesDue['due'],
  trigger: string,
  now: number,
): PlannedStart {
  const window = Math.floor(now / RENEWAL_NAME_WINDOW_MS);
  return {
    clusterId: cluster.id,
    localId: cluster.localId,
    action: 'update',
    targetVersion,
    previousVersion: cluster.status.currentVersion,
    executionName: executionName({
      clusterId: cluster.id,
      localId: `${cluster.localId}-renew`,
      action: 'update',
      targetVersion: `renew#${window}#${targetVersion}`,
      attempt: 1,
    }),
    attempt: 1,
    priority: 1,
    wave: 'node renewal',
    message: `node renewal: ${describeDue(due)}`,
    input: {
      clusterId: cluster.id,
      action: 'provision',
      options: { applyOnly: false, nodeRoll: { kind: 'renew', requestedBy: `${trigger} pass` } },
      trigger,
      targetVersion,
    },
  };
}
