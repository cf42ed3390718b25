import {
  giveBackToBucket,
  shardLimits,
  shardOrder,
  takeFromBucket,
  type BucketState,
  type LaunchLimits,
} from '../../core/capacity/launch-bucket';
import type { LaunchBudget, LaunchGrant, LaunchScope } from '../../ports/launch-budget';

/** The key of one shard of an account and region's budget: `LAUNCH#<account>#<region>`, `SHARD#<n>`. */
export interface ShardKey {
  readonly pk: string;
  readonly sk: string;
}

export function shardKey(scope: Pick<LaunchScope, 'account' | 'region'>, shard: number): ShardKey {
  return { pk: `LAUNCH#${scope.account}#${scope.region}`, sk: `SHARD#${shard}` };
}

/**
 * A LaunchBudget over any store that can update one item atomically (`update`: read it, apply the change, write it
 * back unless someone else wrote it meanwhile). A take starts at the claimant's shard and moves on to the next ones
 * while it is short, so shards split the writes, not the budget a lone roll can reach.
 */
export abstract class ShardedLaunchBudget implements LaunchBudget {
  constructor(readonly limits: LaunchLimits) {}

  /** Apply `change` to the item atomically and give its result. */
  protected abstract update<T>(
    key: ShardKey,
    change: (state: BucketState | undefined) => { state: BucketState; result: T },
  ): Promise<T>;

  async take(scope: LaunchScope, want: number, now: number): Promise<LaunchGrant> {
    const limits = shardLimits(this.limits);
    let granted = 0;
    let nextAt: number | undefined;
    for (const shard of shardOrder(scope.claimant, this.limits.shards)) {
      if (granted >= want) break;
      const take = await this.update(shardKey(scope, shard), (state) => {
        const result = takeFromBucket(state, want - granted, now, limits);
        return { state: result.state, result };
      });
      granted += take.granted;
      if (take.nextAt !== undefined) nextAt = nextAt === undefined ? take.nextAt : Math.min(nextAt, take.nextAt);
    }
    return granted >= want ? { granted } : { granted, ...(nextAt !== undefined ? { nextAt } : {}) };
  }

  async giveBack(scope: LaunchScope, count: number, now: number): Promise<void> {
    if (count <= 0) return;
    const [first] = shardOrder(scope.claimant, this.limits.shards);
    await this.update(shardKey(scope, first!), (state) => ({
      state: giveBackToBucket(state, count, now, shardLimits(this.limits)),
      result: undefined,
    }));
  }
}

/** The budget in this process's memory (unit tests, the simulator's in-process runs). */
export class MemoryLaunchBudget extends ShardedLaunchBudget {
  readonly buckets = new Map<string, BucketState>();

  protected async update<T>(
    key: ShardKey,
    change: (state: BucketState | undefined) => { state: BucketState; result: T },
  ): Promise<T> {
    const id = `${key.pk} ${key.sk}`;
    const { state, result } = change(this.buckets.get(id));
    this.buckets.set(id, state);
    return result;
  }
}
