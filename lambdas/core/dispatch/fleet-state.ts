/**
 * What the dispatcher remembers about the fleet between passes (the `FLEET` partition of the progress
 * table, or `fleet.json` under `--state`): per cluster the last hash seen and the last execution started,
 * the wave halts of the last pass, and operators' overrides. Plain data; the FleetStore port keeps it.
 */

/** What the dispatcher starts for a cluster. */
export const DISPATCH_ACTIONS = ['update', 'decommission'] as const;
export type DispatchAction = (typeof DISPATCH_ACTIONS)[number];

/** Where a started execution stands, as far as the dispatcher knows. */
export const EXECUTION_STATES = ['running', 'succeeded', 'failed', 'timed-out', 'aborted'] as const;
export type ExecutionState = (typeof EXECUTION_STATES)[number];

/** Why an execution ended without the cluster reaching its target. */
export interface ExecutionFailure {
  /** The error name the execution failed with (`ConfigError`, `States.Timeout`), or the state (`ABORTED`). */
  readonly error: string;
  readonly cause?: string;
  /** A later attempt may succeed unchanged (throttling, a timeout, an abort): resumed, not backed off. */
  readonly retryable: boolean;
  readonly at: number;
}

/** The last execution the dispatcher started for one cluster. */
export interface ExecutionRecord {
  readonly action: DispatchAction;
  readonly targetVersion: string;
  /** status.current_version when it started. */
  readonly previousVersion: string;
  readonly name: string;
  readonly arn?: string;
  /** 1 for the first execution at this target version, then 2, 3… (the name carries it). */
  readonly attempt: number;
  readonly startedAt: number;
  readonly state: ExecutionState;
  readonly endedAt?: number;
  /** Consecutive endings at this target version that left the cluster short of it. */
  readonly failures: number;
  readonly lastFailure?: ExecutionFailure;
}

/** Everything the dispatcher keeps per cluster. */
export interface ClusterFleetState {
  readonly clusterId: string;
  /** The cluster hash of the last registry poll (HTTP and YAML registries). */
  readonly lastSeenHash?: string;
  readonly execution?: ExecutionRecord;
  /** The last "blocked" reason announced, so ClusterUpdateBlocked is sent once per change, not every pass. */
  readonly blocked?: string;
  /** Optimistic lock: the store writes only over the revision it handed out, then increments it. */
  readonly revision: number;
}

/** A failure that holds later waves of one rollout (one config version) back. */
export interface WaveHalt {
  readonly configVersion: string;
  /** The wave the failure is in; it and every later wave start nothing new at this config version. */
  readonly wave: string;
  readonly heldWaves: readonly string[];
  /** The failed clusters (at most 10 listed; `failedCount` counts all). */
  readonly failed: readonly { readonly clusterId: string; readonly targetVersion: string; readonly error: string }[];
  readonly failedCount: number;
  /** When the earliest listed failure happened. */
  readonly since: number;
  /** One readable line for `clm status` and the WaveHalted event. */
  readonly reason: string;
}

/** An operator's decision to let the waves of one rollout proceed despite its failed clusters. */
export interface WaveOverride {
  readonly configVersion: string;
  readonly reason: string;
  readonly by: string;
  readonly at: number;
}

/** What an execution service reports about one execution (Step Functions' statuses, plus "not found"). */
export const EXECUTION_STATUSES = [
  'RUNNING',
  'PENDING_REDRIVE',
  'SUCCEEDED',
  'FAILED',
  'TIMED_OUT',
  'ABORTED',
  'NOT_FOUND',
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export interface ExecutionOutcome {
  readonly name: string;
  readonly status: ExecutionStatus;
  readonly stoppedAt?: number;
  readonly error?: string;
  readonly cause?: string;
  /** It succeeded held HANDED_OVER: a loop reached its cap; the next execution continues from the stored progress. */
  readonly handedOver?: boolean;
  /**
   * The version the execution itself worked towards (its Prepare's target, `$.run.targetVersion`): it resolves the
   * channels when it starts, so a push that landed after the dispatcher started it is in it.
   */
  readonly ranTo?: string;
}

/** Everything of the FLEET partition, read once per pass. */
export interface FleetSnapshot {
  readonly clusters: ReadonlyMap<string, ClusterFleetState>;
  readonly halts: readonly WaveHalt[];
  readonly overrides: readonly WaveOverride[];
}
