/** Identifies a cluster in AWS: `name` is CLM's `Name()` (id for zalando-aws, alias for zalando-eks). */
export interface ClusterRef {
  readonly id: string;
  readonly name: string;
  readonly region: string;
  readonly infrastructureAccount: string;
}

export interface PoolInstance {
  readonly instanceId: string;
  readonly availabilityZone: string;
  /** Auto Scaling lifecycle state: Pending, InService, Terminating, Terminated, Detaching, ... */
  readonly lifecycleState: string;
  readonly healthy: boolean;
  /** Launch template version, instance type or spot-ness differ from what the ASG wants now (CLM §7.1). */
  readonly outdated: boolean;
  readonly launchTemplateVersion?: string;
  readonly instanceType?: string;
  readonly asgName: string;
  /** When EC2 launched the instance (ms since the epoch), when known: with its Node's creation, a boot's length. */
  readonly launchedAt?: number;
}

/** An Auto Scaling group's capacity: desired, and the bounds it may move in. */
export interface GroupSize {
  readonly desired: number;
  readonly min: number;
  readonly max: number;
}

/** A group's size before the roll in progress, and the nodes the roll added for same-zone pairing and holds still. */
export interface PreRollMark extends GroupSize {
  readonly pairing?: number;
}

/** The group's newest launch failed (its newest launch activity: Failed), with EC2's reason (VcpuLimitExceeded, …). */
export interface LaunchFailure {
  /** ms since the epoch. */
  readonly at: number;
  /** The scaling activity's StatusMessage. */
  readonly message: string;
}

export interface PoolGroup extends GroupSize {
  readonly name: string;
  /**
   * Set when the group has fewer instances than desired and its newest launch failed: why it does not reach its
   * size (the account's vCPU quota, capacity, a bad launch template). Auto Scaling tries again by itself.
   */
  readonly launchFailure?: LaunchFailure;
  /**
   * The group's size before the roll in progress, as the roll marked it on the group before its first scale-out (a tag,
   * core/rollout/pre-roll-size.ts): what the roll brings the group back to, known even when the run's progress was lost.
   */
  readonly preRoll?: PreRollMark;
}

export interface PoolState {
  readonly poolName: string;
  /** Sums over the pool's ASGs (one per AZ in split-AZ pools). */
  readonly desired: number;
  readonly min: number;
  readonly max: number;
  readonly groups: readonly PoolGroup[];
  readonly instances: readonly PoolInstance[];
}

/** An EC2 instance Karpenter launched for the cluster (tag key `karpenter.sh/nodepool`). */
export interface KarpenterInstance {
  readonly instanceId: string;
  /** The value of its `karpenter.sh/nodepool` tag. */
  readonly pool: string;
  /** EC2 state: pending, running, stopping, stopped. */
  readonly state: string;
}

/** ASG-backed node pools (CLM `ProviderNodePoolsBackend`), plus the EC2 side of Karpenter pools. */
export interface NodePoolBackend {
  /** Undefined when the pool has no ASG yet. */
  getPool(cluster: ClusterRef, poolName: string): Promise<PoolState | undefined>;
  /** Set the total desired capacity; increases go to the smallest groups, min/max widened as needed. */
  scale(cluster: ClusterRef, poolName: string, desired: number): Promise<void>;
  /** Terminate one instance; with `decrementDesired` the ASG does not launch a replacement. Idempotent. */
  terminate(cluster: ClusterRef, instanceId: string, decrementDesired: boolean): Promise<void>;
  /**
   * Before a roll first scales the pool out: mark each group not marked yet with its size now (a tag),
   * so the roll's base survives a lost progress write and a new run. With `pairing`, every group's mark is (re)written
   * to carry that count of nodes the roll added for same-zone pairing and has not taken back. Idempotent.
   */
  markPreRollSize(cluster: ClusterRef, poolName: string, pairing?: number): Promise<void>;
  /**
   * The roll is over: put each marked group's bounds back as they were before it (widened to the desired capacity
   * if it is outside them) and remove the mark. Idempotent.
   */
  restorePreRollSize(cluster: ClusterRef, poolName: string): Promise<void>;
  /** Pool being removed: MinSize 0 and the cluster-autoscaler tag removed. */
  markForDecommission(cluster: ClusterRef, poolName: string): Promise<void>;
  /**
   * Instances tagged `kubernetes.io/cluster/<name>` = owned that carry the tag key `karpenter.sh/nodepool` (with
   * `pool`: that value), pending, running, stopping or stopped (CLM decommission §6.5 step 2).
   */
  karpenterInstances(cluster: ClusterRef, pool?: string): Promise<KarpenterInstance[]>;
  /**
   * EC2 TerminateInstances of Karpenter instances (Karpenter then removes their Node and NodeClaim). Refuses an
   * instance that is not tagged as the cluster's and as a Karpenter pool's; one already gone is fine. Idempotent.
   */
  terminateInstances(cluster: ClusterRef, instanceIds: readonly string[]): Promise<void>;
}
