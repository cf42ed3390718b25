import type { RollPolicy } from '../rollout/roll-policy';

export interface PoolRollEstimate {
  readonly pool: string;
  /** Nodes whose launch configuration is not the target one: each is replaced. */
  readonly nodes: number;
  /** Replacement rounds: the canary alone (when on), then up to surge + unavailable nodes at a time. */
  readonly batches: number;
  /** A rough figure: batches × the time one batch takes (boot and drain), plus the canary soak. */
  readonly estimatedMinutes: number;
  /** A Karpenter pool whose disruption budget freezes it now: the roll starts once this window ends. */
  readonly heldUntil?: { readonly at: number; readonly by: string };
}

/** Minutes a batch takes when nothing blocks a drain: a node booting and joining, then the old ones draining. */
export const MINUTES_PER_BATCH = 10;

/** How long rolling `nodes` outdated nodes of a pool takes with its surge settings. */
export function rollEstimate(
  pool: string,
  nodes: number,
  policy: Pick<RollPolicy, 'maxSurge' | 'maxUnavailable' | 'canary' | 'canarySoakMs'>,
): PoolRollEstimate {
  if (nodes <= 0) return { pool, nodes: 0, batches: 0, estimatedMinutes: 0 };
  const perBatch = Math.max(policy.maxSurge + policy.maxUnavailable, 1);
  const canary = policy.canary ? 1 : 0;
  const batches = canary + Math.ceil((nodes - canary) / perBatch);
  const soakMinutes = policy.canary ? Math.ceil(policy.canarySoakMs / 60_000) : 0;
  return { pool, nodes, batches, estimatedMinutes: batches * MINUTES_PER_BATCH + soakMinutes };
}
