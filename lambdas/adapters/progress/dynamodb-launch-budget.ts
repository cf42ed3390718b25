import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { BucketState, LaunchLimits } from '../../core/capacity/launch-bucket';
import { ConflictError } from '../../shared/errors';
import { ShardedLaunchBudget, type ShardKey } from './sharded-launch-budget';

/**
 * Writes that lost a race are read and tried again this often, after a random pause growing with each loss (so racers
 * fall out of step), before the take gives up with a ConflictError (retryable). Shards spread racers over items.
 */
const MAX_RACES = 20;
const RACE_PAUSE_MS = 10;
/** A shard nobody took from for a day is gone (TTL); a new one starts full, as it would have refilled anyway. */
const IDLE_TTL_SECONDS = 86_400;

/**
 * The launch budget in the progress table: one item per account, region and shard,
 *   LAUNCH#<account>#<region>  SHARD#<n>   tokens, at, revision (+ ttl)
 * read consistently and written back only over the revision read (a lost race is read and tried again). Only the
 * rolls of that account and region write it: no item is written by every execution (docs/scale.md).
 */
export class DynamoDbLaunchBudget extends ShardedLaunchBudget {
  private readonly doc: DynamoDBDocumentClient;

  constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
    limits: LaunchLimits,
  ) {
    super(limits);
    this.doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  }

  protected async update<T>(
    key: ShardKey,
    change: (state: BucketState | undefined) => { state: BucketState; result: T },
  ): Promise<T> {
    for (let race = 0; race < MAX_RACES; race++) {
      const read = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
      const item = read.Item;
      const revision = item ? Number(item.revision) : 0;
      const { state, result } = change(item ? { tokens: Number(item.tokens), at: Number(item.at) } : undefined);
      try {
        await this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: {
              ...key,
              tokens: state.tokens,
              at: state.at,
              revision: revision + 1,
              ttl: Math.ceil(state.at / 1000) + IDLE_TTL_SECONDS,
            },
            ...(item
              ? { ConditionExpression: 'revision = :revision', ExpressionAttributeValues: { ':revision': revision } }
              : { ConditionExpression: 'attribute_not_exists(pk)' }),
          }),
        );
        return result;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        await new Promise((done) => setTimeout(done, Math.random() * RACE_PAUSE_MS * (race + 1)));
      }
    }
    throw new ConflictError(`launch budget ${key.pk} ${key.sk}: ${MAX_RACES} writes in a row lost a race`);
  }
}
