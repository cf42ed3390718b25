import type { EksControlPlane } from '../eks/eks-control-plane';
/**
 * Progress of one cluster update (`CLUSTER#<id>` / `RUN#<target version>` in DynamoDB, DESIGN.md §4).
 * Every step reads it, decides, and writes it back with the revision it read, so a restarted execution
 * continues where the last one stopped and never repeats finished work.
 */

export const RUN_ACTIONS = ['provision', 'decommission'] as const;
export type RunAction = (typeof RUN_ACTIONS)[number];

/** The CloudFormation operation a deploy started. */
export type StackOperation = 'create' | 'update';

export type StackProgressStatus = 'deploying' | 'recovering' | 'done' | 'deleting' | 'deleted' | 'failed';

/** A stack CloudFormation left where no update can start, and what this run did about it (core/stacks/stack-recovery.ts). */
export interface StackRecoveryRecord {
  readonly action: 'continue-rollback' | 'recreate';
  /** The status the stack was found in (UPDATE_ROLLBACK_FAILED, ROLLBACK_COMPLETE). */
  readonly foundStatus: string;
  readonly at: number;
  /** From the stack events: the first failed resource and its reason (and the rollback's failures). */
  readonly cause: string;
  /** The first failed resource, when the events name one. */
  readonly failedResource?: { readonly logicalId: string; readonly resourceType: string; readonly reason: string };
  /** continue-rollback: the resources skipped, as the operator named them. */
  readonly skipped?: readonly string[];
}

export interface StackProgress {
  readonly status: StackProgressStatus;
  readonly startedAt: number;
  readonly completedAt?: number;
  /** True when CloudFormation said there was nothing to update. */
  readonly noChanges?: boolean;
  /** What the deploy started, when the deployer said (its expected duration differs). */
  readonly operation?: StackOperation;
  /** Recoveries of this stack in this run, oldest first; the last one is running while the status is `recovering`. */
  readonly recoveries?: readonly StackRecoveryRecord[];
}

/** Why a node with a current launch template is replaced (core/node-renewal): a forced roll, its age, repair. */
export type RenewalReason = 'forced' | 'age' | 'repair';

export type NodeState = 'cordoned' | 'draining' | 'terminating' | 'terminated';

export interface NodeProgress {
  readonly instanceId: string;
  readonly nodeName?: string;
  readonly availabilityZone?: string;
  readonly state: NodeState;
  readonly cordonedAt?: number;
  /** The drain clock; set once, never restarted (CLM's drain-start annotation). */
  readonly drainStartedAt?: number;
  readonly lastForcedAt?: number;
  readonly terminatedAt?: number;
  /** Not outdated: an extra node this roll added for same-zone pairing, drained away at the end. */
  readonly surplus?: boolean;
  /** Why a node with a current launch template was taken in (forced roll, age, repair; core/node-renewal). */
  readonly renewal?: RenewalReason;
  /** Owners (`Kind namespace/name`) of the pods evicted from this node: the health gate checks them once it is gone. */
  readonly owners?: readonly string[];
  /** Since when a pre-drain or pre-terminate hook annotation holds this node (update_hook_timeout). */
  readonly hookWaitSince?: number;
  /** Since when this drained node waits for its VolumeAttachments to go (update_volume_detach_timeout). */
  readonly detachWaitSince?: number;
  /** The lifecycle phase announced on the node (`clm.zalando.org/lifecycle-phase`). */
  readonly phase?: 'pre-drain' | 'pre-terminate';
}

/**
 * A spell of evictions one PDB refused during a pool's roll: from the step that first found it blocking to the step
 * that found it blocking no more (or the roll's end). A rehearsal of a later update learns from them how long the
 * cluster's PDBs held a drain (core/rollout/pdb-block-spells.ts keeps them).
 */
export interface PdbBlockSpell {
  /** `namespace/name` */
  readonly pdb: string;
  /** ms since the epoch */
  readonly since: number;
  /** The first step that found it no longer blocking: absent while it still blocks. */
  readonly endedAt?: number;
  /** That step forced a drain past its PDB (drain_grace_period): the block did not end by itself. */
  readonly forced?: boolean;
}

export type PoolProgressStatus = 'pending' | 'rolling' | 'done' | 'failed';

export interface PoolProgress {
  readonly status: PoolProgressStatus;
  /** Outdated nodes when the roll started (grows if more appear). */
  readonly total: number;
  readonly replaced: number;
  readonly nodes: Readonly<Record<string, NodeProgress>>;
  /** What blocks progress right now, readable ("PDB kube-system/coredns allows 0 disruptions"). */
  readonly blockedBy?: string;
  readonly message?: string;
  readonly startedAt?: number;
  readonly completedAt?: number;
  /** Steps taken (one per RollNodePool invocation), for reporting. */
  readonly steps: number;
  /** Desired capacity before the roll started; surge is added on top and taken back by decrements. */
  readonly baseDesired?: number;
  /** When the first node of this roll was terminated (canary soak starts here). */
  readonly firstReplacedAt?: number;
  /** Instances first seen launching, to learn how long a boot takes (ms since the epoch). */
  readonly launches?: Readonly<Record<string, number>>;
  /** Longest observed boot (launch → node Ready), used to sleep exactly as long as needed. */
  readonly bootEstimateMs?: number;
  /**
   * When the last step made the Auto Scaling group launch (a scale-out, a termination with replacement): the launch
   * time of the instances the next step sees for the first time, so a boot is measured from the launch, not from
   * the step that first saw it.
   */
  readonly launchedAt?: number;
  /** Since when `blockedBy` has blocked unchanged: a blocked drain's checks back off over this (doubling). */
  readonly blockedSince?: number;
  /** The spells of evictions each PDB refused in this roll (rollout/pdb-block-spells.ts): a rehearsal's history. */
  readonly pdbBlocks?: readonly PdbBlockSpell[];
  /** Nodes this roll added beyond the surge to get a node in a zone with volumes; removed again at the end. */
  readonly pairingNodes?: number;
  /** When the health gate last passed: nodes terminated at or after it are checked at the next batch boundary. */
  readonly gatedAt?: number;
  /** Since when the health gate finds the pool unhealthy (cleared when it passes). */
  readonly unhealthySince?: number;
  /** The pool left the registry: drained to zero (CLM PrepareForRemoval), its stack deleted by RemoveDeletedPools. */
  readonly removal?: boolean;
  /** Launches the account and region's launch budget held back so far (the surge shrank, or waited). */
  readonly launchesDeferred?: number;
  /** Auto Scaling calls AWS throttled so far (each tried again after a back-off, none failed the roll). */
  readonly scalingThrottled?: number;
}

/**
 * Nodes replaced without a config change (README "Node repair, forced rolls and node age"): `force` is `clm roll
 * --force` (every node of `pools` registered before `requestedAt` goes, once), `renew` a run started because nodes
 * were due for repair or by age (the scheduled pass, or a run that found them).
 */
export interface NodeRollRequest {
  readonly kind: 'force' | 'renew';
  /** force: the pools named (absent: every pool of the cluster). */
  readonly pools?: readonly string[];
  /** Why (`--reason`), or what was found due. */
  readonly reason?: string;
  /** Who asked: the CLI's user@host, or the scheduled pass. */
  readonly requestedBy: string;
  /** When it was asked for (ms since the epoch): a forced roll replaces the nodes registered before it. */
  readonly requestedAt: number;
  /** When the run that carried it completed. */
  readonly completedAt?: number;
}

/** Node rolls a run record keeps of earlier runs of the same version (the newest last). */
export const NODE_ROLL_HISTORY = 10;

export interface RunRecord {
  readonly clusterId: string;
  readonly targetVersion: string;
  readonly action: RunAction;
  /** Optimistic lock: incremented on every write. */
  readonly revision: number;
  readonly phase: string;
  readonly holder: string;
  readonly startedAt: number;
  readonly updatedAt: number;
  readonly completedAt?: number;
  /** status.current_version when this run started. */
  readonly previousVersion: string;
  /** Keys in the ArtifactStore. */
  readonly artifacts: Readonly<Record<string, string>>;
  readonly stackOutputs: Readonly<Record<string, string>>;
  readonly stacks: Readonly<Record<string, StackProgress>>;
  readonly pools: Readonly<Record<string, PoolProgress>>;
  /** Manifest phases finished: 'pre-deletions' | 'apply' | 'post-deletions'. */
  readonly manifestPhases: Readonly<Record<string, number>>;
  readonly counters: Readonly<Record<string, number>>;
  /** Boot times learned by earlier runs, per pool (ms): the first roll step sleeps as long as a boot takes. */
  readonly learnedBootMs?: Readonly<Record<string, number>>;
  /** Stack operation durations learned by earlier runs (ms, per stack and operation): the first check comes then. */
  readonly learnedStackMs?: Readonly<Record<string, Partial<Record<StackOperation, number>>>>;
  /**
   * Started with `--apply-only`: stacks and manifests reached the target version but no node was rolled, so nodes may
   * still be behind it. The next run without the flag rolls them, although the cluster's current version is the target
   * (update-decision.ts nothingToDo).
   */
  readonly applyOnly?: boolean;
  /**
   * The plan this run was approved on (`update_requires_approval`): once approved, a resumed run does not ask again,
   * although the live cluster changed under its own work since.
   */
  readonly approval?: { readonly digest: string; readonly by?: string; readonly at: number };
  /** Decommission's cleanup of what the cluster left outside its stacks (tasks/clean-up-leftovers.ts). */
  readonly leftovers?: LeftoversProgress;
  /**
   * zalando-eks: the EKS control plane ReadControlPlane found (tasks/read-control-plane.ts); every later step sees the
   * cluster through it (core/eks/eks-control-plane.ts withControlPlane: the endpoint as API server URL, its CA).
   */
  readonly controlPlane?: EksControlPlane;
  /**
   * How far the manifest phases got (tasks/apply-manifests.ts), by key `apply`, `prune`,
   * `pre-deletions:kubernetes`, `post-deletions:kubernetes`: a call that nears its Lambda timeout stops between
   * objects and the next call continues here, so a finished object is never applied or deleted twice.
   */
  readonly manifestCursors?: Readonly<Record<string, ManifestCursor>>;
  /** The node roll this run carries (forced or renewing nodes), who asked and why. */
  readonly nodeRoll?: NodeRollRequest;
  /** Node rolls of earlier runs of this version, the newest last (at most NODE_ROLL_HISTORY). */
  readonly nodeRollHistory?: readonly NodeRollRequest[];
  /** The ids of the events this run sent (tasks/events/announce.ts), newest last: none is sent twice. */
  readonly announced?: readonly string[];
}

export interface ManifestCursor {
  /** A digest of the list the cursor walks: a cursor over another list (re-rendered differently) starts over. */
  readonly of: string;
  /** Objects (apply, prune) or deletions.yaml entries (deletions) finished, in the phase's fixed order. */
  readonly done: number;
  /** apply: created, configured, unchanged; prune and deletions: deleted. */
  readonly counts: Readonly<Record<string, number>>;
  /** The first objects pruned or deleted (`Kind namespace/name`), for the message. */
  readonly shown: readonly string[];
}

/** `kind id` entries (core/decommission/leftovers.ts leftoverName). */
export interface LeftoversProgress {
  readonly passes: number;
  readonly deleted: readonly string[];
  /** Volumes kept by --keep-volumes. */
  readonly kept: readonly string[];
  /** Still there when the cleanup stopped (in use after the last pass). */
  readonly remaining: readonly string[];
  /** Kinds the adapter could not look for. */
  readonly unchecked: readonly string[];
  readonly completedAt?: number;
}

export function newRunRecord(
  init: Pick<RunRecord, 'clusterId' | 'targetVersion' | 'action' | 'holder' | 'previousVersion'>,
  now: number,
): RunRecord {
  return {
    ...init,
    revision: 0,
    phase: 'Prepare',
    startedAt: now,
    updatedAt: now,
    artifacts: {},
    stackOutputs: {},
    stacks: {},
    pools: {},
    manifestPhases: {},
    counters: {},
  };
}
