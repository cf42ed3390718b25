import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Problem } from '../../core/model/cluster';
import type { RunRecord } from '../../core/model/run';
import { appendProblem } from '../../core/status/problems';
import type { ClockKind } from '../../ports/clock';
import type { ObjectRef } from '../../ports/kube-cluster';
import type { ClusterControls, Lease, ProgressStore, StoredStatus } from '../../ports/progress-store';
import { ConflictError, LeaseHeldError } from '../../shared/errors';
import { batchGetItems } from './dynamodb-batch-get';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * The ProgressStore in one DynamoDB table (pk, sk; DESIGN.md §4), every write conditional:
 *   CLUSTER#<id> LEASE            holder, expiresAt, clock (+ ttl) — taken if free, own, or expired on its clock
 *   CLUSTER#<id> RUN#<version>    record, revision            — optimistic locking on revision
 *   CLUSTER#<id> STATUS           record, writeId             — problems capped at 25
 *   CLUSTER#<id> CONTROLS         record
 *   CLUSTER#<id> INVENTORY        refs
 * Statuses, controls, leases and runs of a whole fleet are read with BatchGetItem (100 keys a call), not one read each.
 */
export class DynamoDbProgressStore implements ProgressStore {
  private readonly doc: DynamoDBDocumentClient;

  constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
  ) {
    this.doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  }

  async acquireLease(clusterId: string, holder: string, ttlMs: number, now: number, clock?: ClockKind): Promise<Lease> {
    const lease: Lease = { clusterId, holder, expiresAt: now + ttlMs, ...(clock ? { clock } : {}) };
    // Expired only on the clock it was written on; a simulated lease gets no TTL (its times are not real ones).
    const sameClock = clock ? '#clock = :clock' : 'attribute_not_exists(#clock)';
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk: pk(clusterId),
            sk: 'LEASE',
            holder,
            expiresAt: lease.expiresAt,
            ...(clock ? { clock } : { ttl: Math.ceil(lease.expiresAt / 1000) + 86400 }),
          },
          ConditionExpression: `attribute_not_exists(pk) OR holder = :holder OR (expiresAt < :now AND ${sameClock})`,
          ExpressionAttributeNames: { '#clock': 'clock' },
          ExpressionAttributeValues: { ':holder': holder, ':now': now, ...(clock ? { ':clock': clock } : {}) },
        }),
      );
      return lease;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const current = await this.getLease(clusterId);
      throw new LeaseHeldError(clusterId, current?.holder ?? 'another execution', current?.expiresAt ?? now);
    }
  }

  async releaseLease(clusterId: string, holder: string): Promise<void> {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: pk(clusterId), sk: 'LEASE' },
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': holder },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async getLease(clusterId: string): Promise<Lease | undefined> {
    const item = await this.get(clusterId, 'LEASE');
    return item ? leaseOf(clusterId, item) : undefined;
  }

  async getLeases(clusterIds: readonly string[]): Promise<ReadonlyMap<string, Lease>> {
    const items = await batchGetItems(this.doc, this.tableName, keysOf(clusterIds, 'LEASE'));
    return new Map(items.map((item) => [clusterIdOf(item), leaseOf(clusterIdOf(item), item)]));
  }

  async getRun(clusterId: string, targetVersion: string): Promise<RunRecord | undefined> {
    const item = await this.get(clusterId, `RUN#${targetVersion}`);
    return item ? (item.record as RunRecord) : undefined;
  }

  /**
   * With `unfinished`, each run's `completedAt` is read first (projected: a finished run, which holds every node it
   * replaced, is not transferred), then the unfinished ones whole.
   */
  async getRuns(
    runs: readonly Pick<RunRecord, 'clusterId' | 'targetVersion'>[],
    options: { readonly unfinished?: boolean } = {},
  ): Promise<readonly RunRecord[]> {
    const unique = new Map(runs.map((r) => [`${pk(r.clusterId)}|RUN#${r.targetVersion}`, r]));
    let keys = [...unique.values()].map((r) => ({ pk: pk(r.clusterId), sk: `RUN#${r.targetVersion}` }));
    if (options.unfinished) {
      const ends = await batchGetItems(this.doc, this.tableName, keys, COMPLETED_AT);
      keys = ends
        .filter((item) => (item.record as { completedAt?: number } | undefined)?.completedAt === undefined)
        .map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
    }
    const items = await batchGetItems(this.doc, this.tableName, keys);
    const records = items.map((item) => item.record as RunRecord);
    // A run may have finished between the two reads.
    return options.unfinished ? records.filter((run) => run.completedAt === undefined) : records;
  }

  async putRun(run: RunRecord): Promise<RunRecord> {
    const next = { ...run, revision: run.revision + 1 };
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: pk(run.clusterId), sk: `RUN#${run.targetVersion}`, record: next, revision: next.revision },
          ...(run.revision === 0
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: 'revision = :expected',
                ExpressionAttributeValues: { ':expected': run.revision },
              }),
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return next;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const current = await this.getRun(run.clusterId, run.targetVersion);
      throw new ConflictError(
        `Run of ${run.clusterId} at ${run.targetVersion} was changed by someone else (expected revision ${run.revision})`,
        { current, cause: error },
      );
    }
  }

  async getStatus(clusterId: string): Promise<StoredStatus | undefined> {
    return (await this.get(clusterId, 'STATUS'))?.record as StoredStatus | undefined;
  }

  async getStatuses(clusterIds: readonly string[]): Promise<ReadonlyMap<string, StoredStatus>> {
    return this.records<StoredStatus>(clusterIds, 'STATUS');
  }

  async putStatus(clusterId: string, status: StoredStatus): Promise<void> {
    await this.put(clusterId, 'STATUS', { record: status });
  }

  async recordProblem(clusterId: string, problem: Problem, now: number): Promise<StoredStatus> {
    for (let attempt = 0; ; attempt++) {
      const item = await this.get(clusterId, 'STATUS');
      const current = (item?.record as StoredStatus | undefined) ?? {
        currentVersion: '',
        lastVersion: '',
        nextVersion: '',
        problems: [],
        updatedAt: 0,
      };
      const next: StoredStatus = { ...current, problems: appendProblem(current.problems, problem), updatedAt: now };
      const writeId = Number(item?.writeId ?? 0);
      // putStatus writes no writeId: an item without one is matched by its absence, not by `writeId = 0`.
      const condition = !item
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : item.writeId === undefined
          ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(writeId)' }
          : { ConditionExpression: 'writeId = :w', ExpressionAttributeValues: { ':w': writeId } };
      try {
        await this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { pk: pk(clusterId), sk: 'STATUS', record: next, writeId: writeId + 1 },
            ...condition,
          }),
        );
        return next;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException) || attempt >= 4) throw error;
      }
    }
  }

  async getControls(clusterId: string): Promise<ClusterControls | undefined> {
    return (await this.get(clusterId, 'CONTROLS'))?.record as ClusterControls | undefined;
  }

  async getControlsOf(clusterIds: readonly string[]): Promise<ReadonlyMap<string, ClusterControls>> {
    return this.records<ClusterControls>(clusterIds, 'CONTROLS');
  }

  async putControls(clusterId: string, controls: ClusterControls): Promise<void> {
    await this.put(clusterId, 'CONTROLS', { record: controls });
  }

  /**
   * The inventory is kept gzipped in one binary attribute: as a list, an item (400 KB at most) would hold about
   * 4,000 objects; gzipped JSON holds ten times that. Items written as a list by earlier versions are still read.
   */
  async getInventory(clusterId: string): Promise<readonly ObjectRef[]> {
    const item = await this.get(clusterId, 'INVENTORY');
    if (item?.refsGz instanceof Uint8Array) return JSON.parse(gunzipSync(item.refsGz).toString('utf8')) as ObjectRef[];
    return (item?.refs as ObjectRef[] | undefined) ?? [];
  }

  async putInventory(clusterId: string, refs: readonly ObjectRef[]): Promise<void> {
    await this.put(clusterId, 'INVENTORY', { refsGz: gzipSync(JSON.stringify(refs)) });
  }

  /** The `record` attribute of one sort key for many clusters, batched (eventually consistent: a pass re-reads). */
  private async records<T>(clusterIds: readonly string[], sk: string): Promise<Map<string, T>> {
    const items = await batchGetItems(this.doc, this.tableName, keysOf(clusterIds, sk));
    return new Map(items.map((item) => [clusterIdOf(item), item.record as T]));
  }

  private async get(clusterId: string, sk: string): Promise<Record<string, unknown> | undefined> {
    const result = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: pk(clusterId), sk }, ConsistentRead: true }),
    );
    return result.Item;
  }

  private async put(clusterId: string, sk: string, attributes: Record<string, unknown>): Promise<void> {
    await this.doc.send(new PutCommand({ TableName: this.tableName, Item: { pk: pk(clusterId), sk, ...attributes } }));
  }
}

function pk(clusterId: string): string {
  return `CLUSTER#${clusterId}`;
}

function clusterIdOf(item: Record<string, unknown>): string {
  return String(item.pk).slice('CLUSTER#'.length);
}

/** One key per cluster (duplicates asked once: BatchGetItem refuses them). */
function keysOf(clusterIds: readonly string[], sk: string): { pk: string; sk: string }[] {
  return [...new Set(clusterIds)].map((id) => ({ pk: pk(id), sk }));
}

function leaseOf(clusterId: string, item: Record<string, unknown>): Lease {
  const lease = { clusterId, holder: String(item.holder), expiresAt: Number(item.expiresAt) };
  return item.clock === 'simulated' ? { ...lease, clock: 'simulated' } : lease;
}

/** A run item's key and its record's `completedAt` (RECORD is a reserved word). */
const COMPLETED_AT = { expression: 'pk, sk, #record.completedAt', names: { '#record': 'record' } } as const;
