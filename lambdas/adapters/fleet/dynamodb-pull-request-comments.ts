import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PullRequestCommentRecord } from '../../core/forge/pr-comment-record';
import type { PullRequestComments } from '../../ports/fleet-store';

/** A pull request's record outlives its last report by this long (the table's TTL removes it then). */
const KEPT_DAYS = 90;

/**
 * The plan comment records of pull requests in the progress table, each its own item
 * (`PULL_REQUEST#<repository>#<number>`, `COMMENT`), written only over the version it was read at.
 */
export class DynamoDbPullRequestComments implements PullRequestComments {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
  ) {}

  async getPullRequestComment(repository: string, number: number): Promise<PullRequestCommentRecord | undefined> {
    const result = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: keyOf(repository, number), ConsistentRead: true }),
    );
    if (!result.Item) return undefined;
    return {
      ...(result.Item.record as Omit<PullRequestCommentRecord, 'version'>),
      version: Number(result.Item.version),
    };
  }

  async savePullRequestComment(record: PullRequestCommentRecord): Promise<boolean> {
    const { version, ...rest } = record;
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...keyOf(record.repository, record.number),
            record: rest,
            version: version + 1,
            ttl: Math.ceil(this.now() / 1000) + KEPT_DAYS * 86_400,
          },
          ...(version === 0
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : { ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': version } }),
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}

function keyOf(repository: string, number: number): { pk: string; sk: string } {
  return { pk: `PULL_REQUEST#${repository}#${number}`, sk: 'COMMENT' };
}
