import type { FleetSettings } from '../core/dispatch/fleet-settings';
import type { ClusterFleetState, FleetSnapshot, WaveHalt, WaveOverride } from '../core/dispatch/fleet-state';
import type { PullRequestCommentRecord } from '../core/forge/pr-comment-record';
import type { SourceCommit } from '../core/webhook/push-match';

/** What claiming a webhook delivery id gave. */
export type DeliveryClaim =
  | { readonly claimed: true }
  /** Accepted before (and finished, or still in hand and not stale): a replay; do nothing. */
  | { readonly claimed: false; readonly firstSeenAt: number };

/** Webhook delivery ids, so a delivery is acted on once (GitHub redeliveries reuse the id). */
export interface WebhookDeliveries {
  /**
   * Claim a delivery id with a conditional write. A claim left unfinished for longer than `staleAfterMs`
   * (the handler died) may be claimed again; the record expires after `ttlMs`.
   */
  claimDelivery(
    deliveryId: string,
    options: { readonly now: number; readonly ttlMs: number; readonly staleAfterMs: number },
  ): Promise<DeliveryClaim>;
  /** Mark a claimed delivery handled, with a one-line summary. */
  completeDelivery(deliveryId: string, now: number, summary: string): Promise<void>;
}

/** The newest commit per config source and ref, as pushes report them. */
export interface SourceCommits {
  /** Remember a pushed commit unless a later push of the same ref is already known; true when written. */
  recordCommit(commit: SourceCommit): Promise<boolean>;
  getCommit(source: string, ref: string): Promise<SourceCommit | undefined>;
}

/** The dispatcher's memory of the fleet. */
export interface FleetLedger {
  /** Every cluster state, the current halts and the overrides, in one read. */
  loadFleet(): Promise<FleetSnapshot>;
  /**
   * Write cluster states, each only over the revision it was read at (then revision + 1). States another
   * writer changed meanwhile are not written and are returned: the next pass judges them again.
   */
  saveClusterStates(states: readonly ClusterFleetState[]): Promise<{ readonly conflicts: readonly string[] }>;
  /** Forget clusters that left the registry. */
  forgetClusters(clusterIds: readonly string[]): Promise<void>;
  /** Replace the halts with those of the latest pass. */
  saveHalts(halts: readonly WaveHalt[]): Promise<void>;
  putOverride(override: WaveOverride): Promise<void>;
  removeOverride(configVersion: string): Promise<void>;
}

/** Each pull request's one plan comment (core/forge/pr-comment-record.ts), written with optimistic concurrency. */
export interface PullRequestComments {
  getPullRequestComment(repository: string, number: number): Promise<PullRequestCommentRecord | undefined>;
  /**
   * Write `record` only over the version it was read at (`record.version`; 0: none stored), storing version + 1.
   * False when another writer was first (nothing written): read again and redo the change.
   */
  savePullRequestComment(record: PullRequestCommentRecord): Promise<boolean>;
}

/**
 * Everything the webhook and the dispatcher keep (DynamoDB in AWS, a file under `--state` locally), and the
 * settings the dispatcher paces the fleet by (CDK context in AWS, the CLI's flags locally).
 */
export interface FleetStore extends WebhookDeliveries, SourceCommits, FleetLedger, PullRequestComments {
  readonly settings: FleetSettings;
}
