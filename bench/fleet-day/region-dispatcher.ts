import type { SkipReason } from '../../lambdas/core/dispatch/assess-cluster';
import type { FleetSettings } from '../../lambdas/core/dispatch/fleet-settings';
import type { ClusterFleetState, ExecutionOutcome, WaveHalt } from '../../lambdas/core/dispatch/fleet-state';
import type { FleetTarget } from '../../lambdas/core/dispatch/fleet-targets';
import { planDispatch, type PlannedStart } from '../../lambdas/core/dispatch/plan-dispatch';
import { recordStart } from '../../lambdas/core/dispatch/record-start';
import { waveOf } from '../../lambdas/core/dispatch/waves';
import type { Cluster } from '../../lambdas/core/model/cluster';
import { startPace } from '../../lambdas/tasks/fleet/start-pacing';
import { FLEET_WRITES_PER_SECOND } from '../../lambdas/adapters/fleet/dynamodb-fleet-store';
import { DESCRIBE_LIST_FROM } from '../../lambdas/adapters/aws/sfn-update-executions';

export { FLEET_WRITES_PER_SECOND };

/**
 * One region's deployment of the dispatcher, as the DispatchFleet task runs it, without its I/O: the real planning core
 * (planDispatch: priorities, waves with soak, halts, the caps) over the region's clusters and the FLEET state, then
 * recordStart for each start, spaced at the StartExecution pace. The caller plays the executions.
 */
export class RegionDispatcher {
  readonly states = new Map<string, ClusterFleetState>();
  private halts: WaveHalt[] = [];
  private readonly clusters: Cluster[];
  private readonly index = new Map<string, number>();
  /** The skips of the last pass, by reason, and when it ran. */
  lastSkips = new Map<SkipReason, number>();
  lastPassAt = 0;
  /** A pass runs until its last start (the pace); passes run one at a time. */
  busyUntil = 0;
  passes = 0;
  cpuMs = 0;

  constructor(
    readonly region: string,
    clusters: readonly Cluster[],
    private readonly targets: ReadonlyMap<string, FleetTarget>,
    readonly settings: FleetSettings,
  ) {
    this.clusters = [...clusters];
    this.clusters.forEach((c, i) => this.index.set(c.id, i));
  }

  waveLabel(cluster: Cluster): string {
    return waveOf(cluster, this.settings).label;
  }

  /** Finalize wrote the cluster's new version (an update succeeded). */
  reached(clusterId: string, version: string): void {
    const i = this.index.get(clusterId)!;
    const cluster = this.clusters[i]!;
    this.clusters[i] = {
      ...cluster,
      status: { ...cluster.status, lastVersion: cluster.status.currentVersion, currentVersion: version },
    };
  }

  /** One pass at `now`: the starts, each with when the pace lets it go, and what the FLEET partition was written. */
  pass(
    now: number,
    trigger: string,
    outcomeOf: (name: string) => ExecutionOutcome,
    running: number,
  ): {
    starts: { start: PlannedStart; at: number }[];
    writes: number;
    /**
     * The pass's Step Functions reads (fleet-pass.ts, sfn-update-executions.ts): DescribeExecution for each execution
     * recorded as running, or, from DESCRIBE_LIST_FROM of them on, only for those no longer running, after
     * ListExecutions pages of the running ones; and countRunning's ListExecutions pages (RUNNING, PENDING_REDRIVE).
     */
    describes: number;
    lists: number;
    skipped: Map<SkipReason, number>;
  } {
    const cpu = process.cpuUsage();
    const outcomes = new Map<string, ExecutionOutcome>();
    for (const state of this.states.values())
      if (state.execution?.state === 'running') outcomes.set(state.execution.name, outcomeOf(state.execution.name));
    const plan = planDispatch({
      clusters: this.clusters,
      targets: this.targets,
      fleet: { clusters: this.states, halts: this.halts, overrides: [] },
      outcomes,
      running,
      settings: this.settings,
      now,
      trigger,
    });
    for (const state of plan.states) this.states.set(state.clusterId, state);
    this.halts = [...plan.halts];
    const pace = startPace(this.settings.startsPerSecond);
    const starts = plan.starts.map((start, i) => {
      const at = now + Math.floor(i / pace.batch) * pace.intervalMs;
      const result = { how: 'started' as const, name: start.executionName };
      this.states.set(start.clusterId, recordStart(start, result, this.states.get(start.clusterId), at).state);
      return { start, at };
    });
    const skipped = new Map<SkipReason, number>();
    for (const skip of plan.skipped) skipped.set(skip.reason, (skipped.get(skip.reason) ?? 0) + 1);
    const used = process.cpuUsage(cpu);
    this.cpuMs += (used.user + used.system) / 1000;
    this.passes++;
    this.busyUntil = starts.length ? starts[starts.length - 1]!.at : now;
    const pages = (n: number) => Math.max(1, Math.ceil(n / 1000));
    const listing = outcomes.size >= DESCRIBE_LIST_FROM;
    const ended = [...outcomes.values()].filter((o) => o.status !== 'RUNNING').length;
    return {
      starts,
      writes: plan.states.length + starts.length,
      describes: listing ? ended : outcomes.size,
      lists: pages(running) + 1 + (listing ? pages(running) : 0),
      skipped,
    };
  }
}
