import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { DEFAULT_FLEET_SETTINGS, type FleetSettings } from '../../core/dispatch/fleet-settings';
import type { ClusterFleetState, FleetSnapshot, WaveHalt, WaveOverride } from '../../core/dispatch/fleet-state';
import type { PullRequestCommentRecord } from '../../core/forge/pr-comment-record';
import type { SourceCommit } from '../../core/webhook/push-match';
import { DynamoDbPullRequestComments } from './dynamodb-pull-request-comments';
import type { DeliveryClaim, FleetStore } from '../../ports/fleet-store';
import { TransientApiError } from '../../shared/errors';

type DeleteRequest = { DeleteRequest: { Key: Record<string, string> } };

const FLEET_PK = 'FLEET';
const CLUSTER = 'CLUSTER#';
const HALT = 'HALT#';
const OVERRIDE = 'OVERRIDE#';
/** Parallel conditional writes per batch of cluster states. */
const WRITE_CONCURRENCY = 16;
/**
 * Cluster states written per second at most: every one is an item of the FLEET partition key, and a partition takes
 * 1,000 write units a second; a pass that starts a wave of 1,500 clusters spreads its writes over 3 s (docs/scale.md).
 */
export const FLEET_WRITES_PER_SECOND = 500;

/**
 * The FleetStore in the progress store's table (pk, sk; DESIGN.md §4), every write that can race
 * conditional:
 *   DELIVERY#<id>   DELIVERY          claimedAt, firstSeenAt, expiresAt, completedAt, ttl — claimed if new,
 *                                     expired, or an unfinished claim gone stale
 *   SOURCE#<name>   REF#<ref>         commit, pushedAt, …    — written unless a later push is stored
 *   FLEET           CLUSTER#<id>      state, revision        — optimistic locking on revision
 *   FLEET           HALT#<version>    halt                   — replaced by every pass
 *   FLEET           OVERRIDE#<version> override
 *   PULL_REQUEST#<repo>#<n> COMMENT  record, version, ttl — optimistic locking on version (the plan comment)
 * Everything the dispatcher needs lives under one partition key, so a pass reads the fleet with one
 * (paginated) Query, however many clusters there are.
 */
export class DynamoDbFleetStore implements FleetStore {
  private readonly doc: DynamoDBDocumentClient;
  private readonly pullRequests: DynamoDbPullRequestComments;

  constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
    readonly settings: FleetSettings = DEFAULT_FLEET_SETTINGS,
  ) {
    this.doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
    this.pullRequests = new DynamoDbPullRequestComments(this.doc, tableName);
  }

  getPullRequestComment(repository: string, number: number): Promise<PullRequestCommentRecord | undefined> {
    return this.pullRequests.getPullRequestComment(repository, number);
  }

  savePullRequestComment(record: PullRequestCommentRecord): Promise<boolean> {
    return this.pullRequests.savePullRequestComment(record);
  }

  async claimDelivery(
    deliveryId: string,
    options: { now: number; ttlMs: number; staleAfterMs: number },
  ): Promise<DeliveryClaim> {
    const key = { pk: `DELIVERY#${deliveryId}`, sk: 'DELIVERY' };
    const expiresAt = options.now + options.ttlMs;
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression:
            'SET claimedAt = :now, expiresAt = :expires, #ttl = :ttl, firstSeenAt = if_not_exists(firstSeenAt, :now) REMOVE completedAt, summary',
          ConditionExpression:
            'attribute_not_exists(pk) OR expiresAt <= :now OR (attribute_not_exists(completedAt) AND claimedAt <= :stale)',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':now': options.now,
            ':expires': expiresAt,
            ':ttl': Math.ceil(expiresAt / 1000),
            ':stale': options.now - options.staleAfterMs,
          },
        }),
      );
      return { claimed: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const item = await this.get(key.pk, key.sk);
      return { claimed: false, firstSeenAt: Number(item?.firstSeenAt ?? item?.claimedAt ?? options.now) };
    }
  }

  async completeDelivery(deliveryId: string, now: number, summary: string): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: `DELIVERY#${deliveryId}`, sk: 'DELIVERY' },
          UpdateExpression: 'SET completedAt = :now, summary = :summary',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': now, ':summary': summary },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async recordCommit(commit: SourceCommit): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: `SOURCE#${commit.source}`, sk: `REF#${commit.ref}`, ...commit },
          ConditionExpression: 'attribute_not_exists(pk) OR pushedAt <= :pushedAt',
          ExpressionAttributeValues: { ':pushedAt': commit.pushedAt },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async getCommit(source: string, ref: string): Promise<SourceCommit | undefined> {
    const item = await this.get(`SOURCE#${source}`, `REF#${ref}`);
    if (!item) return undefined;
    const { pk: _pk, sk: _sk, ...commit } = item;
    return commit as unknown as SourceCommit;
  }

  async loadFleet(): Promise<FleetSnapshot> {
    const clusters = new Map<string, ClusterFleetState>();
    const halts: WaveHalt[] = [];
    const overrides: WaveOverride[] = [];
    for (const item of await this.queryFleet()) {
      const sk = String(item.sk);
      if (sk.startsWith(CLUSTER)) {
        const state = { ...(item.state as ClusterFleetState), revision: Number(item.revision) };
        clusters.set(state.clusterId, state);
      } else if (sk.startsWith(HALT)) halts.push(item.halt as WaveHalt);
      else if (sk.startsWith(OVERRIDE)) overrides.push(item.override as WaveOverride);
    }
    return { clusters, halts, overrides };
  }

  async saveClusterStates(states: readonly ClusterFleetState[]): Promise<{ conflicts: string[] }> {
    const conflicts: string[] = [];
    const began = Date.now();
    for (let i = 0; i < states.length; i += WRITE_CONCURRENCY) {
      const due = began + (i / FLEET_WRITES_PER_SECOND) * 1000 - Date.now();
      if (due > 0) await new Promise((done) => setTimeout(done, due));
      const results = await Promise.all(states.slice(i, i + WRITE_CONCURRENCY).map((s) => this.putState(s)));
      results.forEach((ok, j) => {
        if (!ok) conflicts.push(states[i + j].clusterId);
      });
    }
    return { conflicts };
  }

  async forgetClusters(clusterIds: readonly string[]): Promise<void> {
    await this.deleteKeys(clusterIds.map((id) => `${CLUSTER}${id}`));
  }

  async saveHalts(halts: readonly WaveHalt[]): Promise<void> {
    const keep = new Set(halts.map((h) => `${HALT}${h.configVersion}`));
    const stale = (await this.queryFleet(HALT)).map((item) => String(item.sk)).filter((sk) => !keep.has(sk));
    await Promise.all(
      halts.map((halt) =>
        this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { pk: FLEET_PK, sk: `${HALT}${halt.configVersion}`, halt },
          }),
        ),
      ),
    );
    await this.deleteKeys(stale);
  }

  async putOverride(override: WaveOverride): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: FLEET_PK, sk: `${OVERRIDE}${override.configVersion}`, override },
      }),
    );
  }

  async removeOverride(configVersion: string): Promise<void> {
    await this.doc.send(
      new DeleteCommand({ TableName: this.tableName, Key: { pk: FLEET_PK, sk: `${OVERRIDE}${configVersion}` } }),
    );
  }

  private async putState(state: ClusterFleetState): Promise<boolean> {
    const { revision, ...rest } = state;
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: FLEET_PK, sk: `${CLUSTER}${state.clusterId}`, state: rest, revision: revision + 1 },
          ...(revision === 0
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : { ConditionExpression: 'revision = :expected', ExpressionAttributeValues: { ':expected': revision } }),
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  private async queryFleet(prefix?: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: prefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
          ExpressionAttributeValues: { ':pk': FLEET_PK, ...(prefix ? { ':prefix': prefix } : {}) },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  /** Delete FLEET items by sort key, 25 per batch, retrying what DynamoDB leaves unprocessed. */
  private async deleteKeys(sortKeys: readonly string[]): Promise<void> {
    for (let i = 0; i < sortKeys.length; i += 25) {
      let requests: DeleteRequest[] = sortKeys
        .slice(i, i + 25)
        .map((sk) => ({ DeleteRequest: { Key: { pk: FLEET_PK, sk } } }));
      for (let attempt = 0; requests.length > 0; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
        const result = await this.doc.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: requests } }));
        requests = (result.UnprocessedItems?.[this.tableName] ?? []) as DeleteRequest[];
        if (attempt >= 8 && requests.length)
          throw new TransientApiError(`DynamoDB left ${requests.length} deletes unprocessed in ${this.tableName}`);
      }
    }
  }

  private async get(pk: string, sk: string): Promise<Record<string, unknown> | undefined> {
    const result = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: { pk, sk }, ConsistentRead: true }),
    );
    return result.Item;
  }
}
