import type { NodePool } from '../../core/model/cluster';
import type { PoolProgress } from '../../core/model/run';
import type { RollPolicy } from '../../core/rollout/roll-policy';

/** A pool that left the registry, as far as rolling it away needs one (its items are the cluster's). */
export function removedPool(name: string): NodePool {
  return { name, profile: '', instanceTypes: [], discountStrategy: '', minSize: 0, maxSize: 0, configItems: {} };
}

/** Removing a pool: no surge, one node at a time, no canary; the drain settings and bounds stay the cluster's. */
export function removalPolicy(policy: RollPolicy): RollPolicy {
  return { ...policy, maxSurge: 0, maxUnavailable: 1, canary: false, canarySoakMs: 0 };
}

/** Progress of a pool being removed: its capacity goes to zero. */
export function removalProgress(now: number): PoolProgress {
  return {
    status: 'rolling',
    total: 0,
    replaced: 0,
    nodes: {},
    steps: 0,
    baseDesired: 0,
    startedAt: now,
    removal: true,
  };
}
