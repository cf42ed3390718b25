import * as z from '../shared/zod';

/**
 * Events a cluster-update execution sends itself, from its tasks, however it was started (the dispatcher, `clm
 * provision --remote`, a StartExecution from the console, a local `clm provision`). Same bus and `source` as the
 * dispatcher's (fleet-events.ts). Every detail has a deterministic `id`: a retried or resumed step that announces the
 * same thing again sends the same id, and the run record remembers what it announced, so a resumed execution does not
 * announce a finished pool twice (docs/events.md).
 */
const update = {
  /** Deterministic: sha256 of (type, cluster, target version, what the event is about), 32 hex digits. */
  id: z.string().check(z.regex(/^[0-9a-f]{32}$/)),
  clusterId: z.string(),
  targetVersion: z.string(),
  /** The cluster-update execution (its name; `executionArn` when it runs in Step Functions). */
  executionName: z.string(),
  executionArn: z.optional(z.string()),
  /** When the step sent it (ISO 8601, UTC). */
  at: z.iso.datetime(),
};

/** An ISO 8601 time: when the running roll should end at its pace so far (absent until a node was replaced). */
const estimatedEnd = z.optional(z.iso.datetime());

export const UpdateStarted = z.object({
  ...update,
  action: z.enum(['provision', 'decommission']),
  previousVersion: z.string(),
  /** This execution continues an unfinished run (after a hand-over, a hold, a failure, a killed CLI). */
  resumed: z.boolean(),
  /** What started it: webhook, registry, schedule, cli, console. */
  trigger: z.string(),
  message: z.string(),
});

export const ApprovalRequested = z.object({
  ...update,
  /** The plan's digest: an approval names it, and approves exactly that plan. */
  digest: z.string(),
  /** The plan document in the artefact bucket. */
  planKey: z.string(),
  summary: z.string(),
  /** How the update went in its rehearsal in a twin of the cluster (one line), or why it was not rehearsed. */
  rehearsal: z.optional(z.string()),
  /** The command that approves it (`clm approve CLUSTER --plan D`); `reject` likewise. */
  approve: z.string(),
  reject: z.string(),
  /** How long the execution waits for a decision. */
  timeoutSeconds: z.number().check(z.int(), z.minimum(0)),
});

export const HELD_REASONS = [
  'paused',
  'aborted',
  'blocked',
  'window',
  'awaiting-approval',
  'rejected',
  'approval-lapsed',
  'handed-over',
] as const;

export const Held = z.object({
  ...update,
  reason: z.enum(HELD_REASONS),
  message: z.string(),
  /** window: when the next maintenance window opens (ISO 8601). */
  resumeAt: z.optional(z.iso.datetime()),
});

const pool = {
  pool: z.string(),
  /** The pool's nodes to replace (removal: to drain away) and those replaced so far. */
  total: z.number().check(z.int(), z.minimum(0)),
  replaced: z.number().check(z.int(), z.minimum(0)),
  /** A pool the registry no longer has, drained to zero. */
  removal: z.boolean(),
};

export const PoolRollStarted = z.object({ ...update, ...pool, estimatedEnd });

export const PoolRolled = z.object({
  ...update,
  ...pool,
  startedAt: z.iso.datetime(),
  durationSeconds: z.number().check(z.int(), z.minimum(0)),
});

export const DrainBlocked = z.object({
  ...update,
  ...pool,
  /** What refuses, readable ("PDB ns/name allows 0 disruption(s) (2/3 healthy) for pod ns/pod"). */
  blockedBy: z.string(),
  /** `namespace/name` of the pod whose eviction is refused, and of the PodDisruptionBudget refusing it, when known. */
  pod: z.optional(z.string()),
  pdb: z.optional(z.string()),
  /** Since when this block has held unchanged (ISO 8601). */
  since: z.iso.datetime(),
  estimatedEnd,
});

export const UpdateSucceeded = z.object({
  ...update,
  action: z.enum(['provision', 'decommission']),
  previousVersion: z.string(),
  durationSeconds: z.number().check(z.int(), z.minimum(0)),
  message: z.string(),
});

export const UpdateFailed = z.object({
  ...update,
  error: z.string(),
  /** The innermost message of the failure (the problem recorded on the cluster). */
  cause: z.string(),
});

export const UPDATE_EVENT_TYPES = [
  'UpdateStarted',
  'ApprovalRequested',
  'Held',
  'PoolRollStarted',
  'PoolRolled',
  'DrainBlocked',
  'UpdateSucceeded',
  'UpdateFailed',
] as const;
export type UpdateEventType = (typeof UPDATE_EVENT_TYPES)[number];

/** The union's members, for fleet-events.ts to include. */
export const UPDATE_EVENT_OPTIONS = [
  z.object({ type: z.literal('UpdateStarted'), detail: UpdateStarted }),
  z.object({ type: z.literal('ApprovalRequested'), detail: ApprovalRequested }),
  z.object({ type: z.literal('Held'), detail: Held }),
  z.object({ type: z.literal('PoolRollStarted'), detail: PoolRollStarted }),
  z.object({ type: z.literal('PoolRolled'), detail: PoolRolled }),
  z.object({ type: z.literal('DrainBlocked'), detail: DrainBlocked }),
  z.object({ type: z.literal('UpdateSucceeded'), detail: UpdateSucceeded }),
  z.object({ type: z.literal('UpdateFailed'), detail: UpdateFailed }),
] as const;

export const UpdateEvent = z.discriminatedUnion('type', [...UPDATE_EVENT_OPTIONS]);
export type UpdateEvent = z.infer<typeof UpdateEvent>;
