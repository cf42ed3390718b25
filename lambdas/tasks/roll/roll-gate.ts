import type { Cluster, ConfigItems } from '../../core/model/cluster';
import type { PoolProgress } from '../../core/model/run';
import { updateBlock, type UpdateBlock } from '../../core/model/update-decision';
import { holdPlan, startsNewWork } from '../../core/rollout/hold-roll';
import type { RollPlan } from '../../core/rollout/plan-roll-step';
import type { PoolNode } from '../../core/rollout/pool-snapshot';
import { nextWindowOpening, parseMaintenanceWindows, windowOpen } from '../../core/schedule/maintenance-windows';
import type { RollStepOutput } from '../../contracts/cluster-update';
import type { Ports } from '../../ports/ports';
import { loadCluster } from '../step/cluster-status';
import { updateRun, type RunRef } from '../step/run-record';

type GatePorts = Pick<Ports, 'registry' | 'progress' | 'clock'>;

/** Why a roll stops at this safe point: a hold (the update ends), or a closed maintenance window (it waits). */
export type RollStop =
  | { readonly kind: 'held'; readonly hold: UpdateBlock }
  | { readonly kind: 'window'; readonly resumeAt: number; readonly windows: string };

/**
 * Whether the step may start new work. Asked only when it would (a node to cordon or mark, a scale-out), so a roll
 * reads the registry once per batch of nodes. Stopped by an operator's pause or abort (the progress store),
 * `cluster_update_block` (the live registry; the pinned cluster when it cannot be read), or a closed maintenance
 * window (`maintenance_windows`, the pool's item over the cluster's; not for a repair-only roll with
 * `node_repair_outside_windows`, `anyWindow`). Drains in flight always finish first.
 */
export async function gateRoll(
  ports: GatePorts,
  pinned: Cluster,
  items: ConfigItems,
  planned: RollPlan,
  now: number,
  uncordoned: (node: PoolNode) => boolean = () => false,
  anyWindow = false,
): Promise<{ readonly plan: RollPlan; readonly stop?: RollStop }> {
  // A node waiting for its pre-drain hooks was not touched yet: a hold may stop the roll there too.
  if (planned.done || (!startsNewWork(planned) && !planned.drain.some(uncordoned))) return { plan: planned };
  const live = await loadCluster(ports, pinned.id).catch(() => pinned);
  const hold = updateBlock(live, await ports.progress.getControls(pinned.id));
  const held = holdPlan(planned, uncordoned);
  if (hold) return held.safe ? { plan: held.plan, stop: { kind: 'held', hold } } : { plan: held.plan };
  const text = items.maintenance_windows;
  // Node repair with node_repair_outside_windows: the roll replaces only unhealthy nodes, at any time.
  if (!text || anyWindow) return { plan: planned };
  const windows = parseMaintenanceWindows(text, `cluster ${pinned.id}: config item maintenance_windows`);
  if (windowOpen(windows, now)) return { plan: planned };
  const stop: RollStop = { kind: 'window', resumeAt: nextWindowOpening(windows, now), windows: text };
  return held.safe ? { plan: held.plan, stop } : { plan: held.plan };
}

/** The step's answer at a safe point: HELD (the parent stops the update) or WINDOW (wait until it opens). */
export async function stopStep(
  ports: GatePorts,
  ref: RunRef,
  pool: string,
  progress: PoolProgress,
  stop: RollStop,
  iteration: number,
): Promise<RollStepOutput> {
  const replaced = `${pool}: ${progress.replaced}/${progress.total} nodes replaced`;
  const resumeAt = stop.kind === 'window' ? new Date(stop.resumeAt).toISOString() : undefined;
  const message =
    stop.kind === 'held'
      ? `${replaced}; held at a safe point, ${stop.hold.detail}`
      : `${replaced}; outside the maintenance windows (${stop.windows}), resumes at ${resumeAt}`;
  const blockedBy = resumeAt ? `maintenance window: resumes at ${resumeAt}` : undefined;
  await updateRun(ports, ref, (r) => ({
    ...r,
    pools: { ...r.pools, [pool]: { ...progress, message, ...(blockedBy ? { blockedBy } : {}) } },
  }));
  return {
    status: stop.kind === 'held' ? 'HELD' : 'WINDOW',
    waitSeconds: 1,
    message,
    pool,
    iteration,
    replaced: progress.replaced,
    total: progress.total,
    ...(resumeAt ? { resumeAt, blockedBy: blockedBy! } : {}),
  };
}
