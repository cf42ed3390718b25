import * as z from '../shared/zod';
import * as U from './update-events';

/**
 * Events the fleet dispatcher sends (EventBridge, default bus; `source` below, `detail-type` the event's
 * type), and those a cluster-update execution sends itself (update-events.ts). Subscribers match on these, so the
 * shapes are a contract: add fields, never rename them (event-schemas.ts: what goes on the wire, and its version).
 */
export const FLEET_EVENT_SOURCE = 'clm.fleet';

export const FLEET_EVENT_TYPES = [
  'ClusterUpdateStarted',
  'ClusterUpdateSucceeded',
  'ClusterUpdateFailed',
  'ClusterUpdateBlocked',
  'WaveHalted',
  'PushAccepted',
  'ManifestDrift',
  ...U.UPDATE_EVENT_TYPES,
  'PullRequestAccepted',
] as const;
export type FleetEventType = (typeof FLEET_EVENT_TYPES)[number];

const action = z.enum(['update', 'decommission']);

const execution = {
  clusterId: z.string(),
  action,
  targetVersion: z.string(),
  previousVersion: z.string(),
  executionName: z.string(),
  executionArn: z.optional(z.string()),
  attempt: z.number().check(z.int(), z.minimum(1)),
};

export const ClusterUpdateStarted = z.object({
  ...execution,
  wave: z.string(),
  /** webhook, registry, schedule, cli. */
  trigger: z.string(),
  /** Resumed a dead execution rather than starting afresh. */
  resumed: z.boolean(),
});

export const ClusterUpdateSucceeded = z.object({ ...execution });

export const ClusterUpdateFailed = z.object({
  ...execution,
  error: z.string(),
  cause: z.optional(z.string()),
  retryable: z.boolean(),
  failures: z.number().check(z.int(), z.minimum(1)),
  /** When the dispatcher will try again (ms since the epoch). */
  nextAttemptAt: z.optional(z.number()),
});

export const ClusterUpdateBlocked = z.object({
  clusterId: z.string(),
  currentVersion: z.string(),
  targetVersion: z.optional(z.string()),
  /** update-blocked, paused, target-error, backoff (clusters held by a halt: see WaveHalted). */
  reason: z.string(),
  /** What blocks, readable: "config item cluster_update_block (migration)", "wave test halted: …". */
  blockedBy: z.string(),
});

export const WaveHalted = z.object({
  configVersion: z.string(),
  wave: z.string(),
  heldWaves: z.array(z.string()),
  failed: z.array(z.object({ clusterId: z.string(), targetVersion: z.string(), error: z.string() })),
  failedCount: z.number().check(z.int(), z.minimum(1)),
  reason: z.string(),
});

/** A verified push that no earlier delivery announced, and what it matched; the dispatcher's rule starts a pass on it. */
export const PushAccepted = z.object({
  /** `owner/name`. */
  repository: z.string(),
  ref: z.string(),
  commit: z.string(),
  deleted: z.boolean(),
  sources: z.array(z.string()),
  deliveryId: z.string(),
  /** Clusters following the ref. */
  affected: z.number().check(z.int(), z.minimum(0)),
  /** The first 100 of them. */
  clusters: z.array(z.string()),
});

/** Live objects differ from what was applied (`manifest_drift`): reported, or repaired by applying them again. */
export const ManifestDrift = z.object({
  clusterId: z.string(),
  currentVersion: z.string(),
  mode: z.enum(['repair', 'report']),
  repaired: z.boolean(),
  /** The first 25 objects, each with the fields that differ (`spec.replicas (by kubectl-edit)`). */
  objects: z.array(
    z.object({ kind: z.string(), namespace: z.optional(z.string()), name: z.string(), fields: z.array(z.string()) }),
  ),
  message: z.string(),
});

/** A verified pull_request event (opened, synchronize, reopened) whose base branch clusters follow: plan its head. */
export const PullRequestAccepted = z.object({
  /** `owner/name`. */
  repository: z.string(),
  number: z.number().check(z.int(), z.minimum(1)),
  head: z.string(),
  /** The base branch as a full ref (`refs/heads/main`). */
  base: z.string(),
  url: z.optional(z.string()),
  deliveryId: z.string(),
  /** Clusters following the base branch. */
  affected: z.number().check(z.int(), z.minimum(0)),
  /** The first 100 of them. */
  clusters: z.array(z.string()),
});

export const FleetEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ClusterUpdateStarted'), detail: ClusterUpdateStarted }),
  z.object({ type: z.literal('ClusterUpdateSucceeded'), detail: ClusterUpdateSucceeded }),
  z.object({ type: z.literal('ClusterUpdateFailed'), detail: ClusterUpdateFailed }),
  z.object({ type: z.literal('ClusterUpdateBlocked'), detail: ClusterUpdateBlocked }),
  z.object({ type: z.literal('WaveHalted'), detail: WaveHalted }),
  z.object({ type: z.literal('PushAccepted'), detail: PushAccepted }),
  z.object({ type: z.literal('ManifestDrift'), detail: ManifestDrift }),
  ...U.UPDATE_EVENT_OPTIONS,
  z.object({ type: z.literal('PullRequestAccepted'), detail: PullRequestAccepted }),
]);
export type FleetEvent = z.infer<typeof FleetEvent>;
