import type { ClusterStatus, ConfigItems, LifecycleStatus, Problem } from '../core/model/cluster';
import type { RunRecord } from '../core/model/run';
import type { ApprovalRecord } from '../core/approval/approval';
import type { NodeCheckItems } from '../core/node-renewal/node-check-items';
import type { ClockKind } from './clock';
import type { ObjectRef } from './kube-cluster';

export interface Lease {
  readonly clusterId: string;
  readonly holder: string;
  /** ms since the epoch, on the clock of the holder (`clock`) */
  readonly expiresAt: number;
  /** The clock `expiresAt` is on: absent for the system clock, `simulated` for a `--simulate` run's virtual clock. */
  readonly clock?: ClockKind;
}

export interface StoredStatus extends ClusterStatus {
  readonly lifecycleStatus?: LifecycleStatus;
  readonly updatedAt: number;
  /**
   * Config items CLM wrote back (the EKS creation hook's) for a registry that cannot store them (the YAML file): laid
   * over the file's items wherever the cluster is read, as the HTTP and DynamoDB registries hold them themselves.
   */
  readonly configItems?: ConfigItems;
  /**
   * The node-check items (node repair, node age) the last render found effective, config-defaults.yaml's included:
   * the scheduled pass reads them (core/node-renewal/node-check-items.ts). Kept by every status write.
   */
  readonly nodeChecks?: NodeCheckItems;
}

/** Operator controls per cluster (pause/resume/abort, and the approval of the pending update's plan). */
export interface ClusterControls {
  /** The latest approval request (`update_requires_approval`) and its decision. */
  readonly approval?: ApprovalRecord;
  readonly paused?: boolean;
  readonly abortRequested?: boolean;
  readonly reason?: string;
  /** Who set them (`user@host`, or an IAM principal) and when (ms since the epoch). */
  readonly by?: string;
  readonly at?: number;
}

/**
 * All progress lives here (DynamoDB in AWS). Every write is conditional: a lost race throws ConflictError
 * carrying the current record; a lease held by someone else throws LeaseHeldError.
 */
export interface ProgressStore {
  /**
   * Take the cluster's lease, renew it if `holder` already has it, or steal it only after it expired — judged on the
   * clock it was written on: `now` is on `clock` (absent: the system clock), and a lease on another clock never
   * expires by this one (only a holder known to be gone gives it up).
   */
  acquireLease(clusterId: string, holder: string, ttlMs: number, now: number, clock?: ClockKind): Promise<Lease>;
  /** Release if `holder` still has it; a no-op otherwise. */
  releaseLease(clusterId: string, holder: string): Promise<void>;
  getLease(clusterId: string): Promise<Lease | undefined>;
  /** Many clusters' leases at once (batched reads, for views of the fleet); clusters without one are absent. */
  getLeases(clusterIds: readonly string[]): Promise<ReadonlyMap<string, Lease>>;

  getRun(clusterId: string, targetVersion: string): Promise<RunRecord | undefined>;
  /**
   * Many runs at once (batched reads, for views of the fleet); runs that do not exist are absent. With `unfinished`,
   * only the runs without `completedAt` (the fleet page's): a finished run is not read whole.
   */
  getRuns(
    runs: readonly Pick<RunRecord, 'clusterId' | 'targetVersion'>[],
    options?: { readonly unfinished?: boolean },
  ): Promise<readonly RunRecord[]>;
  /** Write `run` if the stored revision equals `run.revision` (absent when 0); returns it with revision + 1. */
  putRun(run: RunRecord): Promise<RunRecord>;

  getStatus(clusterId: string): Promise<StoredStatus | undefined>;
  /** Many clusters' stored statuses at once (the dispatcher's pass: batched reads); clusters without one are absent. */
  getStatuses(clusterIds: readonly string[]): Promise<ReadonlyMap<string, StoredStatus>>;
  putStatus(clusterId: string, status: StoredStatus): Promise<void>;
  /** Append a problem: consecutive duplicates compacted, capped at 25 (CLM §9.4). Returns the new status. */
  recordProblem(clusterId: string, problem: Problem, now: number): Promise<StoredStatus>;

  getControls(clusterId: string): Promise<ClusterControls | undefined>;
  /** Many clusters' controls at once (batched reads); clusters without any are absent. */
  getControlsOf(clusterIds: readonly string[]): Promise<ReadonlyMap<string, ClusterControls>>;
  putControls(clusterId: string, controls: ClusterControls): Promise<void>;

  /** Objects this system applied to the cluster last time (for pruning). */
  getInventory(clusterId: string): Promise<readonly ObjectRef[]>;
  putInventory(clusterId: string, refs: readonly ObjectRef[]): Promise<void>;
}
