/** Status vocabularies the ASL's Choice states branch on. A test ties these strings to the ASL files. */

/**
 * HELD: a roll stopped at a safe point because an operator paused or aborted it, or `cluster_update_block` was set.
 * WINDOW: a roll at a safe point outside its maintenance windows, waiting (one Wait state) until the next opens.
 */
export const STEP_STATUS = {
  IN_PROGRESS: 'IN_PROGRESS',
  DONE: 'DONE',
  HELD: 'HELD',
  WINDOW: 'WINDOW',
  /** RemoveDeletedPools: removed pools still have nodes (`drainPools`); DrainRemovedPools rolls them away. */
  DRAIN: 'DRAIN',
} as const;
export type StepStatus = (typeof STEP_STATUS)[keyof typeof STEP_STATUS];

export const DECISION = {
  /** Target version differs from current: provision. */
  UPDATE: 'UPDATE',
  /** Lifecycle decommission-requested or `clm decommission`. */
  DECOMMISSION: 'DECOMMISSION',
  /** Nothing to do: current version equals target. */
  NOOP: 'NOOP',
  /** Not now: cluster_update_block, paused, another execution holds the lease. */
  SKIP: 'SKIP',
  /** `action: plan`: plan the update, change nothing. */
  PLAN: 'PLAN',
} as const;
export type Decision = (typeof DECISION)[keyof typeof DECISION];

/** Where the approval of an update's plan stands (ReviewUpdate, `update_requires_approval`). */
export const APPROVAL_STATUS = { APPROVED: 'APPROVED', PENDING: 'PENDING', REJECTED: 'REJECTED' } as const;

/**
 * Prepare's `controlPlane: eks` (zalando-eks clusters) routes the update through ReadControlPlane and the decommission
 * through ReadDecommissionControlPlane; other clusters pass by them without a transition. ReadControlPlane: whether EKS
 * has the cluster; `absent` ends a decommission with nothing to delete.
 */
export const CONTROL_PLANE = { EKS: 'eks', PRESENT: 'present', ABSENT: 'absent' } as const;

export const ROLLOUT_RESULT = { DONE: 'DONE', CONTINUE: 'CONTINUE', HELD: 'HELD' } as const;
export type RolloutResult = (typeof ROLLOUT_RESULT)[keyof typeof ROLLOUT_RESULT];

/** Deploy stages of the DeployStacks task (one handler, several states). */
export const DEPLOY_STAGES = ['main', 'cf-manifests', 'master-pools', 'worker-pools'] as const;
export type DeployStage = (typeof DEPLOY_STAGES)[number];

/** Phases of the ApplyManifests task. */
export const MANIFEST_PHASES = ['pre-deletions', 'apply', 'post-deletions', 'health'] as const;
export type ManifestPhase = (typeof MANIFEST_PHASES)[number];

/** Stages of the DeleteStacks task (decommission). */
export const DELETE_STAGES = ['others', 'main'] as const;
export type DeleteStage = (typeof DELETE_STAGES)[number];

/**
 * Iterations of the rollout child before it hands over to a fresh execution: the worst case of one execution, every
 * RollStep call retried as often as its Retry allows, stays below 20,000 history events (380 × 50 + 54 = 19,054;
 * test/statemachines/history-bound.test.ts computes it from the ASL).
 */
export const MAX_ROLLOUT_ITERATIONS = 380;

/**
 * The loop caps of a cluster-update execution (cluster-update.asl.json), chosen so that its worst case — every loop at
 * its cap, every Lambda call retried as often as its Retry allows — stays below 20,000 history events
 * (test/statemachines/history-bound.test.ts computes it from the ASL). At a cap the execution hands over: it stops at
 * a safe point (ERROR_NAMES.UpdateHandedOverError → StopAtSafePoint, HANDED_OVER) and the next run continues from the stored
 * progress.
 */
export const LOOP_CAPS = {
  /** Calls of the tasks that write `$.step` (every poll, every CONTINUE) in one execution: `$.step.polls`. */
  polls: 150,
  /** Waits for a maintenance window before the first write: `$.render.windowWaits`. */
  windowWaits: 3,
  /** Waits for an approval that changed or came back without a decision: `$.approvalWaits.count`. */
  approvalWaits: 3,
  /** Fresh rollout executions of one pool after the first (CONTINUE hand-overs): `$.handOver.count`. */
  poolHandOvers: 1,
} as const;

/** The most node pools a cluster may have (and the most pools one roll or drain Map takes). */
export const MAX_NODE_POOLS = 64;
