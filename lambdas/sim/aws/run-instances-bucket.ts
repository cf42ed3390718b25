import * as z from '../../shared/zod';
import { takeFromBucket, type BucketState } from '../../core/capacity/launch-bucket';
import type { SimContext } from '../sim-context';
import type { AccountState, AsgRecord, InstanceRecord } from '../world-state';
import { VcpuFigures } from './vcpu-quota';

/**
 * EC2's RunInstances resource bucket, per account and region ("Request throttling for the Amazon EC2 API": 1,000
 * instances, refilled at 2 per second): every instance an Auto Scaling group launches takes a token. With none left,
 * the group's launch fails (its scaling activity: "Request limit exceeded"), is counted, and the group tries again
 * ASG_RETRY_SECONDS later, as Auto Scaling retries a failed scaling activity. Karpenter's launches (CreateFleet) have
 * limits of their own and take nothing here.
 */
export const Quotas = z.strictObject({
  /** Instances at once (AWS's default: 1,000). */
  runInstancesBurst: z._default(z.number().check(z.int(), z.positive()), 1000),
  /** Refill per second (AWS's default: 2). */
  runInstancesPerSecond: z._default(z.number().check(z.positive()), 2),
  /**
   * On-Demand vCPU limits per quota code for every account (aws/vcpu-quota.ts), e.g. `{ L-1216C47A: 640 }`; a code not
   * named allows DEFAULT_VCPU_LIMIT (100,000).
   */
  onDemandVcpus: z._default(VcpuFigures, {}),
});
export type Quotas = z.infer<typeof Quotas>;

/** How long an Auto Scaling group waits before it tries a throttled launch again. */
export const ASG_RETRY_SECONDS = 10;

/** `apiCalls` counters: launches EC2 let through, and launches it throttled. */
export const RUN_INSTANCES = 'ec2.RunInstances';
export const RUN_INSTANCES_THROTTLED = 'ec2.RunInstances.throttled';

/** The bucket of each account, derived from its instances when first needed, then kept up to date (not persisted). */
const buckets = new WeakMap<AccountState, BucketState | undefined>();

const launchedByAsg = (instance: InstanceRecord) => instance.tags['aws:autoscaling:groupName'] !== undefined;

/** The bucket as the account's Auto Scaling launches so far left it. */
function bucketOf(ctx: SimContext, account: AccountState): BucketState | undefined {
  if (buckets.has(account)) return buckets.get(account);
  const limits = limitsOf(ctx);
  let state: BucketState | undefined;
  const times = Object.values(account.instances)
    .filter(launchedByAsg)
    .map((i) => i.launchedAt)
    .sort((a, b) => a - b);
  for (const at of times) state = takeFromBucket(state, 1, at, limits).state;
  buckets.set(account, state);
  return state;
}

function limitsOf(ctx: SimContext): { perSecond: number; burst: number } {
  // Worlds saved before quotas existed have none in their scenario: AWS's defaults.
  const quotas = ctx.state.scenario.quotas ?? Quotas.parse({});
  return { perSecond: quotas.runInstancesPerSecond, burst: quotas.runInstancesBurst };
}

/** One instance launch for an Auto Scaling group: true when EC2 lets it through now. */
export function takeRunInstancesToken(ctx: SimContext, account: AccountState): boolean {
  const take = takeFromBucket(bucketOf(ctx, account), 1, ctx.now, limitsOf(ctx));
  const calls = ctx.state.apiCalls;
  if (take.granted === 0) {
    calls[RUN_INSTANCES_THROTTLED] = (calls[RUN_INSTANCES_THROTTLED] ?? 0) + 1;
    return false;
  }
  buckets.set(account, take.state);
  calls[RUN_INSTANCES] = (calls[RUN_INSTANCES] ?? 0) + 1;
  return true;
}

/** The group tries its launches again later (once: a retry already queued covers it). */
export function retryLaunchLater(
  ctx: SimContext,
  account: AccountState,
  asg: AsgRecord,
  seconds = ASG_RETRY_SECONDS,
): void {
  if (asg.launchRetryAt !== undefined && asg.launchRetryAt > ctx.now) return;
  asg.launchRetryAt = ctx.now + seconds * 1000;
  const cluster = account.stacks[asg.stack]?.cluster ?? '';
  ctx.schedule(seconds, { type: 'asg-retry', account: account.key, asg: asg.name, cluster });
}

/** The Auto Scaling launch times of an account (ms), oldest first: what tests check a launch budget against. */
export function asgLaunchTimes(account: AccountState): number[] {
  return Object.values(account.instances)
    .filter(launchedByAsg)
    .map((i) => i.launchedAt)
    .sort((a, b) => a - b);
}
