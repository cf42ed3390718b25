import type { DispatchReport } from '../../contracts/dispatch-report';
import type { Cluster } from '../model/cluster';
import type { SkipReason } from './assess-cluster';
import type { FleetTarget } from './fleet-targets';
import type { DispatchPlan, SkippedCluster } from './plan-dispatch';

/** Clusters listed per skip reason (the count covers all). */
export const LISTED_PER_REASON = 5;

/** How one planned start went (the execution service's answer). */
export interface StartOutcome {
  readonly how: 'started' | 'redriven' | 'already-running' | 'not-started' | 'throttled';
  readonly executionName: string;
  readonly attempt: number;
}

export interface ReportExtras {
  readonly trigger: string;
  /** From behindTarget. */
  readonly behindTarget: number;
  /** By cluster id; starts without one are reported as `planned`. */
  readonly outcomes?: ReadonlyMap<string, StartOutcome>;
  readonly registry?: DispatchReport['registry'];
  readonly conflicts?: number;
  /** Throttled StartExecution and RedriveExecution answers, each tried again after a back-off. */
  readonly throttles?: number;
  /** Refs clusters follow that moved without a webhook delivery (the scheduled pass's `git ls-remote`). */
  readonly missedPushes?: DispatchReport['missedPushes'];
}

/** A pass's plan as its report: starts with what became of them, skips counted by reason, halts and overrides. */
export function dispatchReport(plan: DispatchPlan, extras: ReportExtras): DispatchReport {
  return {
    trigger: extras.trigger,
    summary: { ...plan.summary, behindTarget: extras.behindTarget },
    starts: plan.starts.map((start) => {
      const outcome = extras.outcomes?.get(start.clusterId);
      return {
        clusterId: start.clusterId,
        action: start.action,
        targetVersion: start.targetVersion,
        executionName: outcome?.executionName ?? start.executionName,
        wave: start.wave,
        message: start.message,
        attempt: outcome?.attempt ?? start.attempt,
        how: outcome?.how ?? 'planned',
      };
    }),
    skipped: groupSkips(plan.skipped),
    halts: plan.halts.map((halt) => ({ ...halt, heldWaves: [...halt.heldWaves], failed: [...halt.failed] })),
    overrides: plan.rollouts.flatMap((r) => (r.overridden ? [{ ...r.overridden }] : [])),
    ...(extras.registry ? { registry: extras.registry } : {}),
    conflicts: extras.conflicts ?? 0,
    throttles: extras.throttles ?? 0,
    ...(extras.missedPushes?.length ? { missedPushes: extras.missedPushes.map((m) => ({ ...m })) } : {}),
  };
}

/** Clusters, not decommissioned, with a target that is not their current version (a target error counts as behind). */
export function behindTarget(clusters: readonly Cluster[], targets: ReadonlyMap<string, FleetTarget>): number {
  let behind = 0;
  for (const cluster of clusters) {
    const target = targets.get(cluster.id);
    if (target && (!target.ok || target.targetVersion !== cluster.status.currentVersion)) behind++;
  }
  return behind;
}

function groupSkips(skipped: readonly SkippedCluster[]): DispatchReport['skipped'] {
  const byReason = new Map<SkipReason, SkippedCluster[]>();
  for (const skip of skipped) {
    const list = byReason.get(skip.reason) ?? [];
    list.push(skip);
    byReason.set(skip.reason, list);
  }
  return [...byReason].map(([reason, list]) => ({
    reason,
    count: list.length,
    clusters: list.slice(0, LISTED_PER_REASON).map((s) => ({ clusterId: s.clusterId, message: s.message })),
  }));
}
