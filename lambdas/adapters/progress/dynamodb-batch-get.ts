import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TransientApiError } from '../../shared/errors';

type Key = { readonly pk: string; readonly sk: string };

/** Only these attributes of each item (a ProjectionExpression and the names it uses). */
export interface Projection {
  readonly expression: string;
  readonly names: Readonly<Record<string, string>>;
}

/** BatchGetItem takes at most 100 keys per call. */
const BATCH = 100;
/** Calls in flight at once. */
const CONCURRENCY = 8;
const ATTEMPTS = 8;

/**
 * Read many items by key with BatchGetItem: 100 keys per call, a few calls at once, the keys DynamoDB leaves
 * unprocessed (throttling, or over 16 MB in one answer) asked again with a growing pause. Missing items are simply
 * absent from the result. With a projection only those attributes come back (the read costs the same capacity, but
 * a large item is not transferred and unmarshalled whole).
 */
export async function batchGetItems(
  doc: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Key[],
  projection?: Projection,
): Promise<Record<string, unknown>[]> {
  const batches: Key[][] = [];
  for (let i = 0; i < keys.length; i += BATCH) batches.push(keys.slice(i, i + BATCH));
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < batches.length; i += CONCURRENCY) {
    const pages = await Promise.all(
      batches.slice(i, i + CONCURRENCY).map((batch) => getBatch(doc, tableName, batch, projection)),
    );
    for (const page of pages) items.push(...page);
  }
  return items;
}

async function getBatch(
  doc: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Key[],
  projection: Projection | undefined,
): Promise<Record<string, unknown>[]> {
  const only = projection
    ? { ProjectionExpression: projection.expression, ExpressionAttributeNames: { ...projection.names } }
    : {};
  const items: Record<string, unknown>[] = [];
  let pending: Key[] = [...keys];
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt >= ATTEMPTS) {
      throw new TransientApiError(`DynamoDB left ${pending.length} reads unprocessed in ${tableName}`);
    }
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
    const result = await doc.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ...only } } }));
    items.push(...((result.Responses?.[tableName] ?? []) as Record<string, unknown>[]));
    pending = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Key[];
  }
  return items;
}
