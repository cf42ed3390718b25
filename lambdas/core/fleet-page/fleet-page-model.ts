import type { Cluster } from '../model/cluster';
import type { ClusterReport } from '../status/cluster-report';
import type { FleetSnapshot } from '../dispatch/fleet-state';
import type { FleetSettings } from '../dispatch/fleet-settings';
import { compareWaves, waveOf, type Wave } from '../dispatch/waves';

/** One cluster on the fleet page. */
export interface ClusterRow {
  readonly id: string;
  readonly alias: string;
  readonly current: string;
  readonly target: string;
  /** running, blocked, halted, failed, pending, up to date. */
  readonly state: 'running' | 'blocked' | 'halted' | 'failed' | 'pending' | 'up to date';
  /** What runs now: the run's phase and its pools' progress. */
  readonly runs: readonly string[];
  /** What holds it: a pause, cluster_update_block, an approval, a drain, the dispatcher's block, a halt. */
  readonly blocks: readonly string[];
  readonly problems: readonly string[];
  readonly execution?: { readonly name: string; readonly href?: string };
  /** The running roll's estimated end (ISO 8601). */
  readonly eta?: string;
}

export interface FleetPage {
  readonly generatedAt: string;
  readonly waves: readonly { readonly label: string; readonly clusters: readonly ClusterRow[] }[];
  /** The halted rollouts and overrides, one line each. */
  readonly halts: readonly string[];
}

export interface FleetPageInput {
  readonly clusters: readonly Cluster[];
  readonly reports: ReadonlyMap<string, ClusterReport & { readonly halt?: string }>;
  readonly fleet: FleetSnapshot;
  readonly settings: FleetSettings;
  readonly now: number;
  /** Each cluster's target when known (config sources, or its last execution). */
  readonly targets?: ReadonlyMap<string, string | undefined>;
  /** The page of an execution (the Step Functions console), when it has an ARN. */
  readonly executionLink?: (arn: string) => string;
}

/** Pure: the fleet page's content, wave by wave in rollout order. */
export function fleetPageModel(input: FleetPageInput): FleetPage {
  const waves = new Map<string, { wave: Wave; clusters: ClusterRow[] }>();
  for (const cluster of input.clusters) {
    const wave = waveOf(cluster, input.settings);
    const entry = waves.get(wave.label) ?? { wave, clusters: [] };
    entry.clusters.push(clusterRow(cluster, input));
    waves.set(wave.label, entry);
  }
  const halts = [
    ...input.fleet.halts.map((h) => `rollout to ${h.configVersion} halted at wave ${h.wave}: ${h.reason}`),
    ...input.fleet.overrides.map((o) => `halt of ${o.configVersion} overridden by ${o.by}: ${o.reason}`),
  ];
  return {
    generatedAt: new Date(input.now).toISOString(),
    waves: [...waves.values()]
      .sort((a, b) => compareWaves(a.wave, b.wave))
      .map(({ wave, clusters }) => ({
        label: wave.label,
        clusters: clusters.sort((a, b) => a.id.localeCompare(b.id)),
      })),
    halts,
  };
}

function clusterRow(cluster: Cluster, input: FleetPageInput): ClusterRow {
  const report = input.reports.get(cluster.id);
  const execution = input.fleet.clusters.get(cluster.id)?.execution;
  const fleetState = input.fleet.clusters.get(cluster.id);
  const run = report?.run && !report.run.finished ? report.run : undefined;
  const target =
    input.targets?.get(cluster.id) ??
    (cluster.status.nextVersion || execution?.targetVersion || cluster.status.currentVersion);
  const blocks = [
    ...(report?.updateBlocked ? ['config item cluster_update_block'] : []),
    ...(report?.pausedBy ? [`updates ${report.pausedBy}`] : []),
    ...(report?.approval && /awaits approval/.test(report.approval) ? [report.approval] : []),
    ...(run?.pools.flatMap((p) => (p.blockedBy ? [`${p.name}: ${p.blockedBy}`] : [])) ?? []),
    ...(fleetState?.blocked ? [fleetState.blocked] : []),
    ...(report?.halt ? [report.halt] : []),
  ];
  const problems = report?.problems ?? cluster.status.problems.map((p) => p.title);
  const running = Boolean(report?.lease && run) || execution?.state === 'running';
  const state: ClusterRow['state'] = report?.halt
    ? 'halted'
    : running
      ? 'running'
      : blocks.length
        ? 'blocked'
        : execution?.state === 'failed' || problems.length
          ? 'failed'
          : target && target !== cluster.status.currentVersion
            ? 'pending'
            : 'up to date';
  return {
    id: cluster.id,
    alias: cluster.alias || cluster.localId,
    current: cluster.status.currentVersion || '-',
    target: target || '-',
    state,
    runs: run
      ? [
          `${run.action} to ${run.targetVersion}: ${run.phase}`,
          ...run.pools.map((p) => `${p.name}: ${p.replaced}/${p.total} nodes replaced (${p.status})`),
        ]
      : [],
    blocks,
    problems,
    ...(execution
      ? {
          execution: {
            name: execution.name,
            ...(execution.arn && input.executionLink ? { href: input.executionLink(execution.arn) } : {}),
          },
        }
      : {}),
    ...(run?.estimatedEnd ? { eta: run.estimatedEnd } : {}),
  };
}
