/**
 * How long a poll loop sleeps while an operation of known typical length runs (a CloudFormation stack create or
 * update, a node boot): the first check when the operation should be done, then back-off. Every check costs three
 * state transitions (Wait, Task, Choice), so checking early only buys cost; checking late only costs time.
 */

/** A node's typical boot on AWS (EC2 launch to a Ready kubelet), until a pool's own boots are learned. */
export const DEFAULT_NODE_BOOT_SECONDS = 180;

/** After the expected end, the next check comes after this share of the time the operation has taken so far. */
const BACKOFF_SHARE = 0.25;
/** Back-off bounds (seconds): never busier than CLM's 15 s poll, never blinder than 5 minutes. */
export const BACKOFF_MIN_SECONDS = 15;
export const BACKOFF_MAX_SECONDS = 300;

/**
 * Seconds to sleep before the next check of an operation that started at `startedAt` and usually takes `expectedMs`
 * (all in ms since the epoch): until `startedAt + expectedMs`, and once that has passed a quarter of the time taken
 * so far, 15 s to 5 min. So an operation that takes twice as long as expected costs about three more checks, and a
 * check comes at most a quarter late.
 */
export function operationWaitSeconds(startedAt: number, expectedMs: number, now: number): number {
  const due = startedAt + expectedMs;
  if (now < due) return Math.max(1, Math.ceil((due - now) / 1000));
  const taken = (now - startedAt) / 1000;
  return Math.min(Math.max(Math.ceil(taken * BACKOFF_SHARE), BACKOFF_MIN_SECONDS), BACKOFF_MAX_SECONDS);
}

/**
 * Seconds to sleep while something outside our control blocks progress (a PDB refusing evictions) since
 * `blockedSince`: as long as it has blocked so far (each check doubles the interval, so a block of T seconds costs
 * about log2(T / min) checks until the cap), at least `minSeconds`, at most `maxSeconds`, and never past `wakeAt`
 * (the next moment the task itself would act differently, e.g. when the drain may force an eviction).
 */
export function blockedWaitSeconds(
  blockedSince: number,
  now: number,
  bounds: { readonly minSeconds: number; readonly maxSeconds: number; readonly wakeAt?: number },
): number {
  const blockedFor = Math.ceil((now - blockedSince) / 1000);
  let wait = Math.min(Math.max(blockedFor, bounds.minSeconds), bounds.maxSeconds);
  if (bounds.wakeAt !== undefined && bounds.wakeAt > now)
    wait = Math.min(wait, Math.ceil((bounds.wakeAt - now) / 1000));
  return Math.max(1, wait);
}
