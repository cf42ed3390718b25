import type { PoolProgress } from '../model/run';
import type { PoolSnapshot } from '../rollout/pool-snapshot';

/**
 * Is the pool's roll a repair roll, which `node_repair_outside_windows` lets run outside the maintenance windows? Yes
 * when every node it replaces or has replaced was taken in for repair (`renewal: 'repair'`, in the snapshot or, for a
 * node taken in earlier, in the roll's record) and there is at least one. The nodes the roll itself added (`surplus`:
 * launched for same-zone pairing, taken back at the end) belong to it: they never make a repair roll a windowed one,
 * so its take-back finishes too. A node replaced for any other reason (a new launch template, age, a forced roll), or
 * one the record no longer holds in detail (forgotten after a long roll, its reason unknown), makes the roll wait
 * for a window. Pure.
 */
export function isRepairRoll(snapshot: PoolSnapshot, progress: PoolProgress | undefined): boolean {
  const recorded = progress?.nodes ?? {};
  const outdated = snapshot.nodes.filter((n) => n.outdated);
  if (!outdated.every((n) => (n.renewal ?? recorded[n.instanceId]?.renewal) === 'repair')) return false;
  const taken = Object.values(recorded).filter((n) => n.surplus !== true);
  if (!taken.every((n) => n.renewal === 'repair')) return false;
  // `replaced` counts every node the roll replaced; the record may have dropped the oldest finished ones.
  const finished = taken.filter((n) => n.state === 'terminated').length;
  if ((progress?.replaced ?? 0) > finished) return false;
  return outdated.length + taken.length > 0;
}
