import { approvalPlanText } from '../approval/approval';
import type { Cluster } from '../model/cluster';
import type { RunRecord } from '../model/run';
import type { ClusterControls, Lease } from '../../ports/progress-store';
import { leaseExpired, leaseExpiry, type Clocks } from './lease-state';
import { estimatedRollEnd, runRollEnd } from '../rollout/roll-eta';

/** What `clm status` shows of one cluster: its status, the run in progress (or the last one), who holds it. */
export interface ClusterReport {
  readonly id: string;
  readonly lifecycleStatus: string;
  readonly currentVersion: string;
  readonly nextVersion: string;
  readonly problems: readonly string[];
  readonly paused: boolean;
  /** `paused by ana@laptop at 2026-…: incident 42` when paused or aborted. */
  readonly pausedBy?: string;
  readonly updateBlocked: boolean;
  /** The latest approval request of an update's plan (`update_requires_approval`), one line. */
  readonly approval?: string;
  readonly lease?: { readonly holder: string; readonly expiresAt: string; readonly expired: boolean };
  readonly run?: {
    readonly targetVersion: string;
    readonly action: string;
    readonly phase: string;
    readonly finished: boolean;
    /** An --apply-only run: the nodes were not rolled; the next run without the flag rolls them. */
    readonly nodesNotRolled?: boolean;
    readonly pools: readonly {
      readonly name: string;
      readonly status: string;
      readonly replaced: number;
      readonly total: number;
      readonly blockedBy?: string;
      readonly message?: string;
      /** A rolling pool's estimated end at its pace so far (ISO 8601), while the run holds the lease. */
      readonly estimatedEnd?: string;
    }[];
    /** The estimated end of the running roll: the latest of its pools' (core/rollout/roll-eta.ts). */
    readonly estimatedEnd?: string;
    /** Stacks found stuck (UPDATE_ROLLBACK_FAILED, ROLLBACK_COMPLETE) and what the run did, with the cause. */
    readonly stackRecoveries?: readonly string[];
    /** Decommission: what the cleanup deleted, kept and left outside the stacks (`kind id`). */
    readonly leftovers?: {
      readonly deleted: readonly string[];
      readonly kept: readonly string[];
      readonly remaining: readonly string[];
    };
  };
}

/** Pure: the report from what the registry, the progress store and the run record say. */
export function clusterReport(
  cluster: Cluster,
  run: RunRecord | undefined,
  lease: Lease | undefined,
  controls: ClusterControls | undefined,
  now: number | Clocks,
): ClusterReport {
  const clocks = typeof now === 'number' ? { system: now } : now;
  // The run's clock is its lease's (a --simulate run's is the world's); without a lease nothing rolls now.
  const runNow = lease ? (lease.clock === 'simulated' ? clocks.simulated : clocks.system) : undefined;
  const rolling = run && runNow !== undefined && run.completedAt === undefined ? runNow : undefined;
  return {
    id: cluster.id,
    lifecycleStatus: cluster.lifecycleStatus,
    currentVersion: cluster.status.currentVersion,
    nextVersion: cluster.status.nextVersion,
    problems: cluster.status.problems.map((p) => p.title),
    paused: controls?.paused === true,
    ...(controls?.paused || controls?.abortRequested ? { pausedBy: controlLine(controls) } : {}),
    updateBlocked: 'cluster_update_block' in cluster.configItems,
    ...(controls?.approval ? { approval: approvalLine(controls.approval) } : {}),
    ...(lease
      ? {
          lease: {
            holder: lease.holder,
            expiresAt: leaseExpiry(lease),
            // On the clock that wrote it: a simulated lease where no simulated world is at hand is not called expired.
            expired: leaseExpired(lease, clocks) === true,
          },
        }
      : {}),
    ...(run ? { run: runReport(run, rolling) } : {}),
  };
}

/** The run's part of the report; `rolling` is the run's clock while it holds the lease (for the estimated ends). */
function runReport(run: RunRecord, rolling: number | undefined): NonNullable<ClusterReport['run']> {
  const end = (ms: number | undefined) => (ms === undefined ? {} : { estimatedEnd: new Date(ms).toISOString() });
  return {
    targetVersion: run.targetVersion,
    action: run.action,
    phase: run.phase,
    finished: run.completedAt !== undefined,
    ...(run.applyOnly ? { nodesNotRolled: true } : {}),
    pools: Object.entries(run.pools).map(([name, p]) => ({
      name,
      status: p.status,
      replaced: p.replaced,
      total: p.total,
      ...(p.blockedBy ? { blockedBy: p.blockedBy } : {}),
      ...(p.message ? { message: p.message } : {}),
      ...(rolling !== undefined ? end(estimatedRollEnd(p, rolling)) : {}),
    })),
    ...(rolling !== undefined ? end(runRollEnd(run.pools, rolling)) : {}),
    ...stackRecoveries(run),
    ...(run.leftovers
      ? {
          leftovers: {
            deleted: run.leftovers.deleted,
            kept: run.leftovers.kept,
            remaining: run.leftovers.remaining,
          },
        }
      : {}),
  };
}

function stackRecoveries(run: RunRecord): { stackRecoveries?: string[] } {
  const lines = Object.entries(run.stacks).flatMap(([name, progress]) =>
    (progress.recoveries ?? []).map(
      (r) =>
        `${name} found ${r.foundStatus}: ${r.action === 'recreate' ? 'deleted and created again' : 'rollback continued'}${r.skipped?.length ? ` skipping ${r.skipped.join(', ')}` : ''} (${r.cause})`,
    ),
  );
  return lines.length ? { stackRecoveries: lines } : {};
}

function controlLine(controls: ClusterControls): string {
  const what = controls.abortRequested ? 'abort requested' : 'paused';
  const by = controls.by ? ` by ${controls.by}` : '';
  const at = controls.at !== undefined ? ` at ${new Date(controls.at).toISOString()}` : '';
  return `${what}${by}${at}${controls.reason ? `: ${controls.reason}` : ''}`;
}

function approvalLine(record: NonNullable<ClusterControls['approval']>): string {
  const plan = approvalPlanText(record);
  const at = (ms: number | undefined) => (ms !== undefined ? ` at ${new Date(ms).toISOString()}` : '');
  if (record.status === 'PENDING')
    return `${plan} awaits approval since${at(record.requestedAt)}: \`clm approve\` or \`clm reject\``;
  const verb = record.status === 'APPROVED' ? 'approved' : 'rejected';
  return `${plan} ${verb}${record.by ? ` by ${record.by}` : ''}${at(record.at)}${record.reason ? `: ${record.reason}` : ''}`;
}

/** A few readable lines per cluster. */
export function formatClusterReport(report: ClusterReport): string {
  const lines = [
    `${report.id}  ${report.lifecycleStatus}  current ${report.currentVersion || '-'}${report.nextVersion ? `  next ${report.nextVersion}` : ''}`,
  ];
  if (report.updateBlocked) lines.push('  updates blocked by config item cluster_update_block');
  if (report.pausedBy) lines.push(`  updates ${report.pausedBy}; \`clm resume\` continues`);
  if (report.approval) lines.push(`  ${report.approval}`);
  if (report.lease)
    lines.push(
      `  lease: ${report.lease.holder} until ${report.lease.expiresAt}${report.lease.expired ? ' (expired)' : ''}`,
    );
  if (report.run) {
    lines.push(
      `  ${report.run.finished ? 'last run' : 'run in progress'}: ${report.run.action} to ${report.run.targetVersion}, ${report.run.phase}`,
    );
    if (report.run.nodesNotRolled)
      lines.push('  nodes not rolled (--apply-only): the next provision without --apply-only rolls them');
    for (const recovery of report.run.stackRecoveries ?? []) lines.push(`    stack ${recovery}`);
    const left = report.run.leftovers;
    if (left) {
      lines.push(`    left outside the stacks, deleted: ${left.deleted.length ? left.deleted.join(', ') : 'nothing'}`);
      if (left.kept.length) lines.push(`    kept (--keep-volumes): ${left.kept.join(', ')}`);
      if (left.remaining.length) lines.push(`    still there (in use): ${left.remaining.join(', ')}`);
    }
    for (const pool of report.run.pools) {
      lines.push(
        `    ${pool.name}: ${pool.replaced}/${pool.total} nodes replaced (${pool.status})${pool.blockedBy ? `; blocked by ${pool.blockedBy}` : ''}${pool.estimatedEnd ? `; ETA ${pool.estimatedEnd}` : ''}`,
      );
    }
  }
  for (const problem of report.problems) lines.push(`  problem: ${problem}`);
  return lines.join('\n');
}
