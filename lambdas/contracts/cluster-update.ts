import * as z from '../shared/zod';
import { CONTROL_PLANE } from './status';
import { PullRequestPlan } from './pull-request-plan';
import { Rehearsal } from './rehearsal';

/**
 * Contracts of the cluster-update and node-pool-rollout state machines. Each Task receives
 * `{ state: <the execution's state so far>, executionId, stateName, params }` and its result is stored
 * at the ResultPath named below. See statemachines/README.md for the state → task table.
 */

export const UpdateOptions = z.strictObject({
  /** Apply stacks and manifests, never roll nodes (CLM --apply-only). */
  applyOnly: z._default(z.boolean(), false),
  /** `STACK:LogicalId`s ContinueUpdateRollback may skip in UPDATE_ROLLBACK_FAILED (`--skip-rollback-resources`). */
  skipRollbackResources: z.optional(z.array(z.string())),
  /** Decommission: keep the cluster's unattached EBS volumes (`--keep-volumes`). */
  keepVolumes: z.optional(z.boolean()),
  /** Replace nodes without a config change: `force` (`clm roll --force`: `pools`' nodes, or all, once) or `renew`
   * (nodes due for repair or by age, found by the scheduled pass). Who asked and why go on the run record. */
  nodeRoll: z.optional(
    z.strictObject({
      kind: z.enum(['force', 'renew']),
      pools: z.optional(z.array(z.string().check(z.minLength(1)))),
      reason: z.optional(z.string()),
      requestedBy: z.string().check(z.minLength(1)),
    }),
  ),
});
export type UpdateOptions = z.infer<typeof UpdateOptions>;

export { PullRequestPlan } from './pull-request-plan';

/** Execution input of cluster-update. */
export const ClusterUpdateInput = z.object({
  clusterId: z.string().check(z.minLength(1)),
  /** `plan`: compute the plan (writes nothing but the plan document) and end; see PlanOutput. */
  action: z.enum(['provision', 'decommission', 'plan']),
  options: z._default(UpdateOptions, { applyOnly: false }),
  /** What started it: cli, webhook, registry, schedule, pull-request. */
  trigger: z._default(z.string(), 'cli'),
  /**
   * The version the starter resolved (the dispatcher's target): the commit whose statuses the execution's start and
   * end set. Prepare resolves the channels again; the version it ran to is in the output (`$.run.targetVersion`).
   */
  targetVersion: z.optional(z.string()),
  /** `action: plan` only: plan a pull request's head and report on it. */
  pullRequest: z.optional(PullRequestPlan),
  /** `action: plan` only: also rehearse the update in a twin of the cluster (`clm plan --rehearse`). */
  rehearse: z.optional(z.boolean()),
});
export type ClusterUpdateInput = z.infer<typeof ClusterUpdateInput>;

/** $.run — from Prepare. */
export const PrepareOutput = z.object({
  decision: z.enum(['UPDATE', 'DECOMMISSION', 'NOOP', 'SKIP', 'PLAN']),
  targetVersion: z.string(),
  previousVersion: z.string(),
  holder: z.string(),
  message: z.string(),
  /** `eks` for zalando-eks clusters: the update reads the EKS control plane after the main stack (CONTROL_PLANE). */
  controlPlane: z.optional(z.enum([CONTROL_PLANE.EKS])),
});
export type PrepareOutput = z.infer<typeof PrepareOutput>;

/** $.render — from RenderConfig (main stack rendered, deletions validated). */
export const RenderConfigOutput = z.object({
  artifactKey: z.string(),
  message: z.string(),
  /** `update_requires_approval`: the update waits for the approval of its plan before the first write. */
  approvalRequired: z._default(z.boolean(), false),
  /**
   * Outside the cluster's maintenance windows: when the next opens (ISO 8601). The update waits until then
   * (WaitForMaintenanceWindow) before its first write, and renders again.
   */
  resumeAt: z.optional(z.string()),
  /**
   * The waits for a maintenance window in this execution, this one included (`$.render.windowWaits`): the update
   * hands over at LOOP_CAPS.windowWaits.
   */
  windowWaits: z.optional(z.number().check(z.int(), z.minimum(0))),
});
export type RenderConfigOutput = z.infer<typeof RenderConfigOutput>;

/** $.resources — from RenderClusterResources (pools, cf-manifests, manifests rendered with stack outputs). */
export const RenderResourcesOutput = z.object({
  artifactKey: z.string(),
  /** Pools to roll, in order (empty under --apply-only or while the cluster is requested/creating). */
  rollMasterPools: z.array(z.string()),
  rollWorkerPools: z.array(z.string()),
  /**
   * Karpenter pools (`worker-karpenter`) in registry order, and their count for the Choice after PostApplyDeletions:
   * 0 (or absent, from an older run) skips ApplyKarpenterPools and RollKarpenterPools.
   */
  karpenterPools: z.optional(z.array(z.string())),
  karpenterPoolCount: z.optional(z.number().check(z.int(), z.minimum(0))),
  /** Of `karpenterPools`, those RollKarpenterPools may roll (none under --apply-only or while the cluster is new). */
  rollKarpenterPools: z.optional(z.array(z.string())),
  message: z.string(),
});
export type RenderResourcesOutput = z.infer<typeof RenderResourcesOutput>;

/** $.plan — from PlanUpdate (`action: plan`) and ReviewUpdate: the plan, stored as a document in the artefact store. */
export const PlanOutput = z.object({
  targetVersion: z.string(),
  /** Identifies the plan: the same update of the same live cluster has the same digest. */
  digest: z.string(),
  /** The plan document (JSON; `.txt` beside it is the text `clm plan` prints). */
  planKey: z.string(),
  summary: z.string(),
  changes: z.boolean(),
  problems: z.array(z.string()),
  /** `rehearse`: the rehearsal (lists capped, store-plan.ts; whole in the document) and its one-line summary. */
  rehearsal: z.optional(Rehearsal),
  rehearsalSummary: z.optional(z.string()),
});
export type PlanOutput = z.infer<typeof PlanOutput>;

/** $.approval — from ReviewUpdate: where the approval of this plan stands. */
export const ApprovalOutput = z.object({
  status: z.enum(['APPROVED', 'REJECTED', 'PENDING']),
  /** PENDING: how long AwaitApproval waits for the decision (its TimeoutSecondsPath). */
  timeoutSeconds: z.number().check(z.int(), z.minimum(60)),
  message: z.string(),
  /** The plan asked about: its digest and document (see PlanOutput). */
  digest: z.string(),
  planKey: z.string(),
});
export type ApprovalOutput = z.infer<typeof ApprovalOutput>;

/**
 * The task token the in-process runner passes to a `.waitForTaskToken` state: nobody can send it back, so a CLI run
 * that would wait ends held instead.
 */
export const LOCAL_TASK_TOKEN_PREFIX = 'local:';

/** $.step — from every polling task (DeployStacks, WaitForApiServer, RemoveDeletedPools, DeleteStacks, RollNodePool). */
export const StepOutput = z.object({
  /**
   * DRAIN (RemoveDeletedPools only): `drainPools` still have nodes; DrainRemovedPools rolls them away, then polls again.
   * CONTINUE (the manifest phases): the call neared its Lambda timeout with work left; its cursor is recorded and the
   * state machine calls the task again at once (no Wait).
   */
  status: z.enum(['IN_PROGRESS', 'DONE', 'DRAIN', 'CONTINUE']),
  /** How long the Wait state sleeps before the next poll. */
  waitSeconds: z.number().check(z.int(), z.minimum(1), z.maximum(3600)),
  message: z.string(),
  /** DeployStacks: CloudFormation operations this call started (the StackOperations metric). */
  started: z.optional(z.number().check(z.int(), z.minimum(0))),
  /**
   * DeployStacks master-pools / worker-pools when done: the pools of `$.resources.rollMasterPools` / `rollWorkerPools`
   * with something to roll, the items of the next roll Map (an empty list skips it). WaitForApiServer passes the
   * masters' on, through its polls, to RollMasterPools.
   */
  rollPools: z.optional(z.array(z.string())),
  /** The length of `rollPools`, for the Choice that skips the Map (a JSONPath index is no portable emptiness test). */
  rollPoolCount: z.optional(z.number().check(z.int(), z.minimum(0))),
  /** DRAIN: the removed pools with nodes left, one node-pool-rollout child (with `removal`) each. */
  drainPools: z.optional(z.array(z.string())),
  /**
   * ReadControlPlane (zalando-eks): whether EKS has the cluster. `absent` in a decommission ends it as a success with
   * nothing deleted (CLM: a missing EKS cluster is a successful no-op).
   */
  controlPlane: z.optional(z.enum([CONTROL_PLANE.PRESENT, CONTROL_PLANE.ABSENT])),
  /**
   * Calls of the tasks writing `$.step` so far in this execution, this one included (runtime/poll-count.ts): the
   * cluster-update Choices hand over at LOOP_CAPS.polls.
   */
  polls: z.optional(z.number().check(z.int(), z.minimum(1))),
});
export type StepOutput = z.infer<typeof StepOutput>;

/** The state the cluster-update execution carries. Small: keys and statuses only (256 KiB limit). */
export const ClusterUpdateState = z.extend(ClusterUpdateInput, {
  run: z.optional(PrepareOutput),
  render: z.optional(RenderConfigOutput),
  plan: z.optional(PlanOutput),
  approval: z.optional(ApprovalOutput),
  resources: z.optional(RenderResourcesOutput),
  step: z.optional(StepOutput),
  error: z.optional(z.object({ Error: z.string(), Cause: z.optional(z.string()) })),
});
export type ClusterUpdateState = z.infer<typeof ClusterUpdateState>;

/** What every Task receives. */
export const TaskPayload = z.object({
  state: z.unknown(),
  executionId: z._default(z.string(), 'local'),
  stateName: z._default(z.string(), 'local'),
  /** What the state passes besides the state (a stage, a phase); each task's contract says which. */
  params: z.unknown(),
});
export type TaskPayload = z.infer<typeof TaskPayload>;

/** node-pool-rollout execution input (and the state it carries). */
export const RolloutInput = z.object({
  clusterId: z.string(),
  targetVersion: z.string(),
  holder: z.string(),
  pool: z.string(),
  options: z._default(UpdateOptions, { applyOnly: false }),
  /**
   * The pool left the registry (RemoveDeletedPools' DrainRemovedPools): drain it to zero as CLM's PrepareForRemoval
   * does — MinSize 0 and the cluster-autoscaler tag removed, no-replacement label, one node at a time, PDBs respected.
   */
  removal: z.optional(z.boolean()),
});
export type RolloutInput = z.infer<typeof RolloutInput>;

/** $.step of the rollout child: a StepOutput plus progress figures for the console. */
export const RollStepOutput = z.extend(StepOutput, {
  /**
   * HELD: stopped at a safe point (paused, aborted, blocked); `message` says by whom and why. WINDOW: at a safe point
   * outside the maintenance windows; the rollout waits until `resumeAt`.
   */
  status: z.enum(['IN_PROGRESS', 'DONE', 'HELD', 'WINDOW']),
  /**
   * How long the Wait state sleeps before the next step; 0 when the step already waited in process (a drain PDBs
   * refused, `waitedSeconds`): the rollout's Choice goes straight back to RollStep.
   */
  waitSeconds: z.number().check(z.int(), z.minimum(0), z.maximum(3600)),
  /** Seconds this step waited in process for a PDB-refused drain to change, after acting and recording its block. */
  waitedSeconds: z.optional(z.number().check(z.int(), z.minimum(0))),
  /** WINDOW: when the next maintenance window opens (ISO 8601), the Wait state's timestamp. */
  resumeAt: z.optional(z.string()),
  pool: z.string(),
  iteration: z.number().check(z.int(), z.minimum(0)),
  replaced: z.number().check(z.int(), z.minimum(0)),
  total: z.number().check(z.int(), z.minimum(0)),
  /** Nodes this step finished replacing (the dashboard's NodesReplaced). */
  replacedNow: z.optional(z.number().check(z.int(), z.minimum(0))),
  /** The longest drain among them, from its start to the node's termination (DrainSeconds). */
  drainSeconds: z.optional(z.number().check(z.minimum(0))),
  blockedBy: z.optional(z.string()),
  /** Launches this step wanted and the account and region's launch budget held back (LaunchesDeferred). */
  launchesDeferred: z.optional(z.number().check(z.int(), z.minimum(0))),
  /** Auto Scaling calls of this step AWS throttled, each tried again after a back-off (ScalingThrottled). */
  scalingThrottled: z.optional(z.number().check(z.int(), z.minimum(0))),
  /** When the pool's roll should end at its pace so far (ISO 8601; core/rollout/roll-eta.ts), once it has one. */
  estimatedEnd: z.optional(z.string()),
});
export type RollStepOutput = z.infer<typeof RollStepOutput>;

export const RolloutState = z.extend(RolloutInput, { step: z.optional(RollStepOutput) });
export type RolloutState = z.infer<typeof RolloutState>;

/** Output of the rollout child; CONTINUE means "start me again" (history budget reached). */
export const RolloutOutput = z.object({
  status: z.enum(['DONE', 'CONTINUE', 'HELD']),
  pool: z.string(),
  replaced: z.number().check(z.int()),
  total: z.number().check(z.int()),
  message: z.string(),
});
export type RolloutOutput = z.infer<typeof RolloutOutput>;

/** $.final — from Finalize. */
export const FinalizeOutput = z.object({
  status: z.enum(['SUCCEEDED']),
  version: z.string(),
  message: z.string(),
});
export type FinalizeOutput = z.infer<typeof FinalizeOutput>;

/** $.held — from StopAtSafePoint: the update stopped at a safe point and waits for the operator (or the block). */
export const HeldOutput = z.object({
  /**
   * PAUSED, ABORTED, BLOCKED: an operator's control or cluster_update_block held a roll. AWAITING_APPROVAL: a CLI run
   * stopped at the approval gate; REJECTED: `clm reject`; APPROVAL_LAPSED: nobody decided within the timeout.
   * HANDED_OVER: a loop reached its cap (LOOP_CAPS): the next run continues from the stored progress.
   */
  status: z.enum(['PAUSED', 'ABORTED', 'BLOCKED', 'AWAITING_APPROVAL', 'REJECTED', 'APPROVAL_LAPSED', 'HANDED_OVER']),
  message: z.string(),
});
export type HeldOutput = z.infer<typeof HeldOutput>;

/**
 * What a cluster-update execution ends with when it succeeds: its state, with `$.final` after Finalize, or `$.held`
 * when it stopped at a safe point.
 */
export const ClusterUpdateOutput = z.extend(ClusterUpdateState, {
  final: z.optional(FinalizeOutput),
  held: z.optional(HeldOutput),
});
export type ClusterUpdateOutput = z.infer<typeof ClusterUpdateOutput>;
