import type { Problem } from '../../core/model/cluster';
import type { RunRecord } from '../../core/model/run';
import { appendProblem } from '../../core/status/problems';
import type { ClockKind } from '../../ports/clock';
import type { ObjectRef } from '../../ports/kube-cluster';
import type { ClusterControls, Lease, ProgressStore, StoredStatus } from '../../ports/progress-store';
import { ConflictError, LeaseHeldError } from '../../shared/errors';

/** Everything the store holds, as plain JSON (what `--state DIR` persists, one file per cluster). */
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

/** True when `holder` is known to be gone, so its lease may be taken over before it expires. */
export type HolderGone = (holder: string) => boolean;

export interface MemoryProgressStoreOptions {
  readonly data?: ProgressData;
  /** Called after every write. */
  readonly onChange?: (data: ProgressData) => void;
  /** @default - never: a lease held by someone else is taken over only after it expired */
  readonly holderGone?: HolderGone;
}

/**
 * The ProgressStore with the DynamoDB adapter's rules (conditional writes, lease stealing only after expiry,
 * optimistic locking on runs, capped problems) over plain data. Every method goes through `read` or `write`
 * with one cluster's id, and the rules are synchronous, so a subclass can keep each cluster elsewhere and apply a
 * write inside a lock (file-progress-store.ts). Used by the simulator and the unit tests as is.
 */
export class MemoryProgressStore implements ProgressStore {
  private readonly memory: ProgressData;
  private readonly onChange?: (data: ProgressData) => void;
  private readonly holderGone: HolderGone;

  constructor(options: MemoryProgressStoreOptions = {}) {
    this.memory = options.data ?? emptyProgressData();
    this.onChange = options.onChange;
    this.holderGone = options.holderGone ?? (() => false);
  }

  /** Everything the store holds. */
  get data(): ProgressData {
    return this.memory;
  }

  /** Apply a read to the data holding `clusterId`. */
  protected read<T>(_clusterId: string, fn: (data: ProgressData) => T): T {
    return fn(this.memory);
  }

  /** Apply a change to the data holding `clusterId`; a rule that throws changes nothing. */
  protected write<T>(_clusterId: string, fn: (data: ProgressData) => T): T {
    const result = fn(this.memory);
    this.onChange?.(this.memory);
    return result;
  }

  async acquireLease(clusterId: string, holder: string, ttlMs: number, now: number, clock?: ClockKind): Promise<Lease> {
    return this.write(clusterId, (data) => {
      const current = data.leases[clusterId];
      // A lease on another clock cannot be judged by this one: it is live until its holder is known to be gone.
      const live = current && (current.clock !== clock || current.expiresAt > now);
      if (current && current.holder !== holder && live && !this.holderGone(current.holder)) {
        throw new LeaseHeldError(clusterId, current.holder, current.expiresAt);
      }
      const lease: Lease = { clusterId, holder, expiresAt: now + ttlMs, ...(clock ? { clock } : {}) };
      data.leases[clusterId] = lease;
      return lease;
    });
  }

  async releaseLease(clusterId: string, holder: string): Promise<void> {
    if (this.read(clusterId, (data) => data.leases[clusterId]?.holder !== holder)) return;
    this.write(clusterId, (data) => {
      if (data.leases[clusterId]?.holder === holder) delete data.leases[clusterId];
    });
  }

  async getLease(clusterId: string): Promise<Lease | undefined> {
    return this.read(clusterId, (data) => clone(data.leases[clusterId]));
  }

  async getLeases(clusterIds: readonly string[]): Promise<ReadonlyMap<string, Lease>> {
    const leases = new Map<string, Lease>();
    for (const id of new Set(clusterIds)) {
      const lease = await this.getLease(id);
      if (lease) leases.set(id, lease);
    }
    return leases;
  }

  async getRun(clusterId: string, targetVersion: string): Promise<RunRecord | undefined> {
    return this.read(clusterId, (data) => clone(data.runs[runKey(clusterId, targetVersion)]));
  }

  async getRuns(
    runs: readonly Pick<RunRecord, 'clusterId' | 'targetVersion'>[],
    options: { readonly unfinished?: boolean } = {},
  ): Promise<readonly RunRecord[]> {
    const keys = new Map(runs.map((r) => [runKey(r.clusterId, r.targetVersion), r.clusterId]));
    // Judged before the copy: a finished run is not copied when only the unfinished ones are asked for.
    const found = [...keys].map(([key, clusterId]) => this.read(clusterId, (data) => data.runs[key]));
    return found.flatMap((run) => (run && !(options.unfinished && run.completedAt !== undefined) ? [clone(run)] : []));
  }

  async putRun(run: RunRecord): Promise<RunRecord> {
    return this.write(run.clusterId, (data) => {
      const key = runKey(run.clusterId, run.targetVersion);
      const stored = data.runs[key];
      if ((stored?.revision ?? 0) !== run.revision) {
        throw new ConflictError(
          `Run ${key} was changed by someone else (revision ${stored?.revision ?? 0}, expected ${run.revision})`,
          { current: clone(stored) },
        );
      }
      const next = { ...clone(run), revision: run.revision + 1 };
      data.runs[key] = next;
      return clone(next);
    });
  }

  async getStatus(clusterId: string): Promise<StoredStatus | undefined> {
    return this.read(clusterId, (data) => clone(data.statuses[clusterId]));
  }

  async getStatuses(clusterIds: readonly string[]): Promise<ReadonlyMap<string, StoredStatus>> {
    return pick(this.data.statuses, clusterIds);
  }

  async putStatus(clusterId: string, status: StoredStatus): Promise<void> {
    this.write(clusterId, (data) => {
      data.statuses[clusterId] = clone(status);
    });
  }

  async recordProblem(clusterId: string, problem: Problem, now: number): Promise<StoredStatus> {
    return this.write(clusterId, (data) => {
      const current = data.statuses[clusterId] ?? {
        currentVersion: '',
        lastVersion: '',
        nextVersion: '',
        problems: [],
        updatedAt: now,
      };
      const next: StoredStatus = { ...current, problems: appendProblem(current.problems, problem), updatedAt: now };
      data.statuses[clusterId] = next;
      return clone(next);
    });
  }

  async getControls(clusterId: string): Promise<ClusterControls | undefined> {
    return this.read(clusterId, (data) => clone(data.controls[clusterId]));
  }

  async getControlsOf(clusterIds: readonly string[]): Promise<ReadonlyMap<string, ClusterControls>> {
    return pick(this.data.controls, clusterIds);
  }

  async putControls(clusterId: string, controls: ClusterControls): Promise<void> {
    this.write(clusterId, (data) => {
      data.controls[clusterId] = clone(controls);
    });
  }

  async getInventory(clusterId: string): Promise<readonly ObjectRef[]> {
    return this.read(clusterId, (data) => clone(data.inventories[clusterId] ?? []));
  }

  async putInventory(clusterId: string, refs: readonly ObjectRef[]): Promise<void> {
    this.write(clusterId, (data) => {
      data.inventories[clusterId] = clone([...refs]);
    });
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
