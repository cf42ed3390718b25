import type { Problem } from '../../core/model/cluster';
import type { RunRecord } from '../../core/model/run';
import { appendProblem } from '../../core/status/problems';
import type { ObjectRef } from '../../ports/kube-cluster';
import type { ClusterControls, Lease, ProgressStore, StoredStatus } from '../../ports/progress-store';
import { ConflictError, LeaseHeldError } from '../../shared/errors';

/** Everything the store holds, as plain JSON (what `--state DIR` persists). */
export interface ProgressData {
  leases: Record<string, Lease>;
  runs: Record<string, RunRecord>;
  statuses: Record<string, StoredStatus>;
  controls: Record<string, ClusterControls>;
  inventories: Record<string, ObjectRef[]>;
}

export function emptyProgressData(): ProgressData {
  return { leases: {}, runs: {}, statuses: {}, controls: {}, inventories: {} };
}

/**
 * The ProgressStore with the DynamoDB adapter's rules (conditional writes, lease stealing only after expiry,
 * optimistic locking on runs, capped problems) kept in memory. Used by the simulator and the unit tests;
 * `onChange` lets the CLI persist after every write.
 */
export class MemoryProgressStore implements ProgressStore {
  readonly data: ProgressData;
  private readonly onChange?: (data: ProgressData) => void;

  constructor(options: { data?: ProgressData; onChange?: (data: ProgressData) => void } = {}) {
    this.data = options.data ?? emptyProgressData();
    this.onChange = options.onChange;
  }

  async acquireLease(clusterId: string, holder: string, ttlMs: number, now: number): Promise<Lease> {
    const current = this.data.leases[clusterId];
    if (current && current.holder !== holder && current.expiresAt > now) {
      throw new LeaseHeldError(clusterId, current.holder, current.expiresAt);
    }
    const lease: Lease = { clusterId, holder, expiresAt: now + ttlMs };
    this.data.leases[clusterId] = lease;
    this.changed();
    return lease;
  }

  async releaseLease(clusterId: string, holder: string): Promise<void> {
    if (this.data.leases[clusterId]?.holder === holder) {
      delete this.data.leases[clusterId];
      this.changed();
    }
  }

  async getLease(clusterId: string): Promise<Lease | undefined> {
    return this.data.leases[clusterId];
  }

  async getRun(clusterId: string, targetVersion: string): Promise<RunRecord | undefined> {
    return clone(this.data.runs[runKey(clusterId, targetVersion)]);
  }

  async putRun(run: RunRecord): Promise<RunRecord> {
    const key = runKey(run.clusterId, run.targetVersion);
    const stored = this.data.runs[key];
    if ((stored?.revision ?? 0) !== run.revision) {
      throw new ConflictError(
        `Run ${key} was changed by someone else (revision ${stored?.revision ?? 0}, expected ${run.revision})`,
        { current: clone(stored) },
      );
    }
    const next = { ...clone(run), revision: run.revision + 1 };
    this.data.runs[key] = next;
    this.changed();
    return clone(next);
  }

  async getStatus(clusterId: string): Promise<StoredStatus | undefined> {
    return clone(this.data.statuses[clusterId]);
  }

  async getStatuses(clusterIds: readonly string[]): Promise<ReadonlyMap<string, StoredStatus>> {
    return pick(this.data.statuses, clusterIds);
  }

  async putStatus(clusterId: string, status: StoredStatus): Promise<void> {
    this.data.statuses[clusterId] = clone(status);
    this.changed();
  }

  async recordProblem(clusterId: string, problem: Problem, now: number): Promise<StoredStatus> {
    const current = this.data.statuses[clusterId] ?? {
      currentVersion: '',
      lastVersion: '',
      nextVersion: '',
      problems: [],
      updatedAt: now,
    };
    const next: StoredStatus = { ...current, problems: appendProblem(current.problems, problem), updatedAt: now };
    this.data.statuses[clusterId] = next;
    this.changed();
    return clone(next);
  }

  async getControls(clusterId: string): Promise<ClusterControls | undefined> {
    return clone(this.data.controls[clusterId]);
  }

  async getControlsOf(clusterIds: readonly string[]): Promise<ReadonlyMap<string, ClusterControls>> {
    return pick(this.data.controls, clusterIds);
  }

  async putControls(clusterId: string, controls: ClusterControls): Promise<void> {
    this.data.controls[clusterId] = clone(controls);
    this.changed();
  }

  async getInventory(clusterId: string): Promise<readonly ObjectRef[]> {
    return clone(this.data.inventories[clusterId] ?? []);
  }

  async putInventory(clusterId: string, refs: readonly ObjectRef[]): Promise<void> {
    this.data.inventories[clusterId] = clone([...refs]);
    this.changed();
  }

  private changed(): void {
    this.onChange?.(this.data);
  }
}

export function runKey(clusterId: string, targetVersion: string): string {
  return `${clusterId}|${targetVersion}`;
}

function pick<T>(records: Readonly<Record<string, T>>, ids: readonly string[]): Map<string, T> {
  return new Map(ids.flatMap((id) => (records[id] === undefined ? [] : [[id, clone(records[id])] as const])));
}

function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}
