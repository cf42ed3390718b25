import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BucketState, LaunchLimits } from '../../core/capacity/launch-bucket';
import { ConfigError } from '../../shared/errors';
import { withStateLock, writeFileAtomic } from '../../shared/state-directory';
import { ShardedLaunchBudget, type ShardKey } from './sharded-launch-budget';

/** `<dir>/launches.json`: every account and region's budget, by `<pk> <sk>`. */
export const LAUNCHES_FILE = 'launches.json';

/**
 * The launch budget under `--state DIR`, shared by every process using the directory: each take reads, changes and
 * replaces the file under the directory's lock (shared/state-directory.ts), at once, like a lease, so two `clm`
 * processes rolling clusters of one account never grant more than the budget together.
 */
export class FileLaunchBudget extends ShardedLaunchBudget {
  constructor(
    private readonly dir: string,
    limits: LaunchLimits,
  ) {
    super(limits);
  }

  /** Every bucket on disk. */
  buckets(): Record<string, BucketState> {
    const path = join(this.dir, LAUNCHES_FILE);
    if (!existsSync(path)) return {};
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as Record<string, BucketState>;
    } catch (error) {
      throw new ConfigError(`${path} is not the launch budget CLM wrote (${(error as Error).message}); remove it`);
    }
  }

  protected async update<T>(
    key: ShardKey,
    change: (state: BucketState | undefined) => { state: BucketState; result: T },
  ): Promise<T> {
    mkdirSync(this.dir, { recursive: true });
    return withStateLock(this.dir, () => {
      const all = this.buckets();
      const id = `${key.pk} ${key.sk}`;
      const { state, result } = change(all[id]);
      writeFileAtomic(join(this.dir, LAUNCHES_FILE), JSON.stringify({ ...all, [id]: state }));
      return result;
    });
  }
}
