import { DEFAULT_FLEET_SETTINGS, type FleetSettings } from '../../core/dispatch/fleet-settings';
import type { ClusterFleetState, FleetSnapshot, WaveHalt, WaveOverride } from '../../core/dispatch/fleet-state';
import type { PullRequestCommentRecord } from '../../core/forge/pr-comment-record';
import type { SourceCommit } from '../../core/webhook/push-match';
import type { DeliveryClaim, FleetStore } from '../../ports/fleet-store';

export interface DeliveryRecord {
  readonly claimedAt: number;
  /** When the id was first accepted (kept when a stale claim is taken over). */
  readonly firstSeenAt: number;
  readonly expiresAt: number;
  readonly completedAt?: number;
  readonly summary?: string;
}

/** Everything the store holds, as plain JSON (what `--state DIR` persists in fleet.json). */
export interface FleetData {
  deliveries: Record<string, DeliveryRecord>;
  commits: Record<string, SourceCommit>;
  clusters: Record<string, ClusterFleetState>;
  halts: WaveHalt[];
  overrides: Record<string, WaveOverride>;
  /** Each pull request's plan comment, by `<repository>#<number>`. */
  pullRequests?: Record<string, PullRequestCommentRecord>;
}

export function emptyFleetData(): FleetData {
  return { deliveries: {}, commits: {}, clusters: {}, halts: [], overrides: {} };
}

/**
 * The FleetStore with the DynamoDB adapter's rules (conditional delivery claims with expiry, newest commit
 * wins, revision-checked cluster states) kept in memory. For the CLI (see file-fleet-store.ts), the
 * simulator and tests; `onChange` lets a caller persist after every write.
 */
export class MemoryFleetStore implements FleetStore {
  readonly data: FleetData;
  readonly settings: FleetSettings;
  private readonly onChange?: (data: FleetData) => void;

  constructor(options: { data?: FleetData; onChange?: (data: FleetData) => void; settings?: FleetSettings } = {}) {
    this.data = options.data ?? emptyFleetData();
    this.settings = options.settings ?? DEFAULT_FLEET_SETTINGS;
    this.onChange = options.onChange;
  }

  async claimDelivery(
    deliveryId: string,
    options: { now: number; ttlMs: number; staleAfterMs: number },
  ): Promise<DeliveryClaim> {
    const existing = this.data.deliveries[deliveryId];
    const live = existing && existing.expiresAt > options.now;
    if (live && (existing.completedAt !== undefined || options.now - existing.claimedAt < options.staleAfterMs)) {
      return { claimed: false, firstSeenAt: existing.firstSeenAt };
    }
    this.data.deliveries[deliveryId] = {
      claimedAt: options.now,
      firstSeenAt: live ? existing.firstSeenAt : options.now,
      expiresAt: options.now + options.ttlMs,
    };
    this.changed();
    return { claimed: true };
  }

  async completeDelivery(deliveryId: string, now: number, summary: string): Promise<void> {
    const existing = this.data.deliveries[deliveryId];
    if (!existing) return;
    this.data.deliveries[deliveryId] = { ...existing, completedAt: now, summary };
    this.changed();
  }

  async recordCommit(commit: SourceCommit): Promise<boolean> {
    const key = commitKey(commit.source, commit.ref);
    const existing = this.data.commits[key];
    if (existing && existing.pushedAt > commit.pushedAt) return false;
    this.data.commits[key] = { ...commit };
    this.changed();
    return true;
  }

  async getCommit(source: string, ref: string): Promise<SourceCommit | undefined> {
    return clone(this.data.commits[commitKey(source, ref)]);
  }

  async loadFleet(): Promise<FleetSnapshot> {
    return {
      clusters: new Map(Object.entries(clone(this.data.clusters))),
      halts: clone(this.data.halts),
      overrides: Object.values(clone(this.data.overrides)),
    };
  }

  async saveClusterStates(states: readonly ClusterFleetState[]): Promise<{ conflicts: string[] }> {
    const conflicts: string[] = [];
    for (const state of states) {
      const stored = this.data.clusters[state.clusterId];
      if ((stored?.revision ?? 0) !== state.revision) {
        conflicts.push(state.clusterId);
        continue;
      }
      this.data.clusters[state.clusterId] = { ...clone(state), revision: state.revision + 1 };
    }
    if (states.length > conflicts.length) this.changed();
    return { conflicts };
  }

  async getPullRequestComment(repository: string, number: number): Promise<PullRequestCommentRecord | undefined> {
    return clone(this.data.pullRequests?.[`${repository}#${number}`]);
  }

  async savePullRequestComment(record: PullRequestCommentRecord): Promise<boolean> {
    const key = `${record.repository}#${record.number}`;
    const pullRequests = (this.data.pullRequests ??= {});
    if ((pullRequests[key]?.version ?? 0) !== record.version) return false;
    pullRequests[key] = { ...clone(record), version: record.version + 1 };
    this.changed();
    return true;
  }

  async forgetClusters(clusterIds: readonly string[]): Promise<void> {
    for (const id of clusterIds) delete this.data.clusters[id];
    if (clusterIds.length) this.changed();
  }

  async saveHalts(halts: readonly WaveHalt[]): Promise<void> {
    this.data.halts = clone([...halts]);
    this.changed();
  }

  async putOverride(override: WaveOverride): Promise<void> {
    this.data.overrides[override.configVersion] = { ...override };
    this.changed();
  }

  async removeOverride(configVersion: string): Promise<void> {
    delete this.data.overrides[configVersion];
    this.changed();
  }

  private changed(): void {
    this.onChange?.(this.data);
  }
}

function commitKey(source: string, ref: string): string {
  return `${source}|${ref}`;
}

function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}
