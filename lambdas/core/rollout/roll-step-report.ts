import type { NodePool } from '../model/cluster';
import type { PoolProgress } from '../model/run';
import type { RollPlan } from './plan-roll-step';
import type { PoolNode, PoolSnapshot } from './pool-snapshot';
import type { RollPolicy } from './roll-policy';
import { nextForceAt } from './drain-rules';
import { DEFAULT_NODE_BOOT_SECONDS, blockedWaitSeconds, operationWaitSeconds } from '../schedule/operation-wait';

/**
 * After terminating with a decrement nothing boots: the slot it freed is taken (or the finished roll seen) by the next
 * step, a second later and in the same invocation (a short wait). CLM polls every 15 s here; that left the last batches
 * idle (bench, N = 10: the roll took 510 s with it, 482 s without).
 */
const AFTER_DECREMENT_SECONDS = 1;
/**
 * A new node that has registered but is not Ready yet: its readiness (CNI, kubelet checks) comes seconds later, so it is
 * looked at again this soon instead of backing off by a quarter of the boot (45 s for a 3-minute boot). The boots the
 * roll learns end at registration, so on AWS this is the usual state when a boot's wait ends. Only for the first two
 * minutes after registering: a node that stays NotReady longer gets the usual back-off, not a busy poll.
 */
const REGISTERED_POLL_SECONDS = 5;
const REGISTERED_POLL_WINDOW_MS = 120_000;
/** The longest sleep between two roll steps (a Wait state, or RollNodePool's in-process wait). */
export const BLOCKED_MAX_WAIT_SECONDS = 900;
/**
 * The longest a roll step waits in process for a PDB-refused drain to change (tasks/roll/await-drain-change.ts): a
 * 14 h block costs one step (two transitions) per 10 minutes, and a change is seen at the next poll (seconds). The
 * step's own work before the wait takes seconds; RollNodePool's Lambda timeout (15 min) leaves the rest as margin.
 */
export const IN_PROCESS_WAIT_SECONDS = 600;

/** What one roll step did: the progress after it, what blocks, and the counts the next wait depends on. */
export interface RollActions {
  readonly progress: PoolProgress;
  readonly blocked: readonly string[];
  /** Longest termination grace of the pods on their way out (seconds). */
  readonly terminatingSeconds: number;
  /** Outdated nodes terminated in this step. */
  readonly terminated: number;
  /** Terminated without decrement: the Auto Scaling group launches a replacement for each. */
  readonly replacements: number;
  /** Pods whose eviction a PDB refused in this step's drain passes (the block RollNodePool waits out in process). */
  readonly refused?: number;
  /** Problems to record without stopping the roll (a node terminated with volumes still attached). */
  readonly problems?: readonly string[];
}

/** A step with nothing to do: the plan says the pool is up to date. */
export function noActions(progress: PoolProgress): RollActions {
  return { progress, blocked: [], terminatingSeconds: 0, terminated: 0, replacements: 0 };
}

/** Sleep until the first thing we wait for can have happened: a pod gone, a node booted, a PDB re-checked. */
export function rollWaitSeconds(
  plan: RollPlan,
  acted: RollActions,
  snapshot: PoolSnapshot,
  policy: RollPolicy,
  now: number,
): number {
  const { progress } = acted;
  const candidates: number[] = [];
  // No margin on the pods' grace or the expected boot: waking a moment early costs one more step in the invocation.
  if (acted.terminatingSeconds > 0) candidates.push(acted.terminatingSeconds);
  const wakeAt = acted.blocked.length > 0 ? nextForceAt(progress.nodes, policy.drain, now) : undefined;
  if ((acted.refused ?? 0) > 0) {
    // Refused by a PDB: the step waits in process for a change (so no back-off), never past the next forced eviction.
    const untilForce = wakeAt !== undefined ? Math.ceil((wakeAt - now) / 1000) : IN_PROCESS_WAIT_SECONDS;
    candidates.push(Math.min(IN_PROCESS_WAIT_SECONDS, untilForce));
  } else if (acted.blocked.length > 0) {
    // Held otherwise (health gate, hooks, volumes): back off, doubling while the same block lasts.
    candidates.push(
      blockedWaitSeconds(progress.blockedSince ?? now, now, {
        minSeconds: Math.ceil(policy.drain.pollIntervalMs / 1000),
        maxSeconds: BLOCKED_MAX_WAIT_SECONDS,
        ...(wakeAt !== undefined ? { wakeAt } : {}),
      }),
    );
  }
  const booting = snapshot.nodes.filter((n: PoolNode) => !n.outdated && !n.ready);
  if (booting.length > 0 || plan.scaleTo !== undefined || acted.replacements > 0) {
    const launchedAt = Math.min(now, ...booting.map((n) => progress.launches?.[n.instanceId] ?? now));
    // Sleep until the boot should be over (learned, else typical), then back off.
    const expectedMs = progress.bootEstimateMs ?? DEFAULT_NODE_BOOT_SECONDS * 1000;
    candidates.push(operationWaitSeconds(launchedAt, expectedMs, now));
    const justRegistered = (n: PoolNode) =>
      n.node !== undefined && now - Date.parse(n.node.createdAt) < REGISTERED_POLL_WINDOW_MS;
    if (booting.some(justRegistered)) candidates.push(REGISTERED_POLL_SECONDS);
  }
  // Terminated with a decrement: nothing boots, only the instance shuts down; a boot-long sleep here was
  // the last batch's idle time (measured: 80 s of a 511 s roll of 9 nodes).
  if (acted.terminated > acted.replacements) candidates.push(AFTER_DECREMENT_SECONDS);
  if (plan.wakeAt !== undefined) candidates.push(Math.ceil((plan.wakeAt - now) / 1000));
  if (progress.firstReplacedAt !== undefined && now < progress.firstReplacedAt + policy.canarySoakMs) {
    candidates.push(Math.ceil((progress.firstReplacedAt + policy.canarySoakMs - now) / 1000));
  }
  const wait = candidates.length ? Math.min(...candidates) : 5;
  return Math.min(Math.max(wait, 1), BLOCKED_MAX_WAIT_SECONDS);
}

/** The step's line for the console: `default-worker: 1/2 nodes replaced; draining …; blocked by …`. */
export function describeRoll(
  pool: Pick<NodePool, 'name'>,
  progress: PoolProgress,
  plan: RollPlan,
  blocked: readonly string[],
): string {
  const head = `${pool.name}: ${progress.replaced}/${progress.total} nodes replaced`;
  if (plan.done) return `${head}; pool is up to date`;
  const draining = Object.values(progress.nodes)
    .filter((n) => n.state === 'draining')
    .map((n) => n.nodeName ?? n.instanceId);
  const parts = [head];
  if (draining.length) parts.push(`draining ${draining.join(', ')}`);
  if (blocked.length)
    parts.push(`blocked by ${blocked[0]}${blocked.length > 1 ? ` (+${blocked.length - 1} more)` : ''}`);
  if (plan.waitingFor) parts.push(`waiting for ${plan.waitingFor}`);
  return parts.join('; ');
}
