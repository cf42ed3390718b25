import {
  PRE_ROLL_SIZE_TAG,
  formatGroupSize,
  markWith,
  parseGroupSize,
  restoredBounds,
} from '../../core/rollout/pre-roll-size';
import type { ClusterRef, NodePoolBackend, PoolGroup } from '../../ports/node-pool-backend';
import type { AccountState, AsgRecord } from '../world-state';
import { poolAsgs } from './autoscaling';
import type { SyncPort } from '../ports/instrument';

/** A group as the backend reports it, with the roll's mark when it carries one. */
export function poolGroup(asg: AsgRecord): PoolGroup {
  const preRoll = parseGroupSize(asg.tags[PRE_ROLL_SIZE_TAG]?.value);
  return { name: asg.name, desired: asg.desired, min: asg.min, max: asg.max, ...(preRoll ? { preRoll } : {}) };
}

/** The NodePoolBackend methods of the roll's marks over the simulated groups. */
export function simPreRollMarks(
  accountOf: (cluster: ClusterRef) => AccountState,
): SyncPort<Pick<NodePoolBackend, 'markPreRollSize' | 'restorePreRollSize'>> {
  return {
    markPreRollSize(cluster, poolName, pairing) {
      markPreRoll(poolAsgs(accountOf(cluster), cluster.name, poolName), pairing);
    },
    restorePreRollSize(cluster, poolName) {
      restorePreRoll(poolAsgs(accountOf(cluster), cluster.name, poolName));
    },
  };
}

/** CreateOrUpdateTags of the roll's marks (core/rollout/pre-roll-size.ts) on a pool's groups. */
export function markPreRoll(asgs: readonly AsgRecord[], pairing?: number): void {
  for (const asg of asgs) {
    const marked = parseGroupSize(asg.tags[PRE_ROLL_SIZE_TAG]?.value);
    if (marked && pairing === undefined) continue;
    asg.tags[PRE_ROLL_SIZE_TAG] = { value: formatGroupSize(markWith(asg, marked, pairing)), propagate: false };
  }
}

/** The roll is over: each marked group's bounds as they were before it (around its desired now), the mark removed. */
export function restorePreRoll(asgs: readonly AsgRecord[]): void {
  for (const asg of asgs) {
    const tag = asg.tags[PRE_ROLL_SIZE_TAG];
    if (!tag) continue;
    const before = parseGroupSize(tag.value);
    if (before) Object.assign(asg, restoredBounds(asg, before));
    delete asg.tags[PRE_ROLL_SIZE_TAG];
  }
}
