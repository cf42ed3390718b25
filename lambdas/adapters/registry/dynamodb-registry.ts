import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type * as DocumentSdk from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Cluster, ClusterStatus, ConfigItems, LifecycleStatus } from '../../core/model/cluster';
import { toWireCluster, toWireStatus } from '../../core/model/cluster-wire';
import { CONFIG_KEY_PATTERN } from '../../core/model/wire-cluster-schema';
import { parseRegistryClusters } from '../../core/model/parse-clusters';
import { validateWireCluster, formatPath } from '../../core/model/validate-wire-cluster';
import type { Registry } from '../../ports/registry';
import { REGISTRY_SORT_KEY } from '../../contracts/triggers';
import { NotFoundError, RegistryError, RegistryUnavailableError, ValidationError } from '../../shared/errors';
import { importCjs } from '../../shared/import-cjs';

interface Documents {
  readonly doc: DynamoDBDocumentClient;
  readonly lib: typeof DocumentSdk;
}

export interface DynamoDbRegistryOptions {
  readonly tableName: string;
  /** A base client (endpoint override for DynamoDB Local goes here) or a document client. @default new DynamoDBClient({}) */
  readonly client?: DynamoDBClient | DynamoDBDocumentClient;
  /** @default Date.now */
  readonly now?: () => number;
}

/** Sort key of registry items; the partition key is `CLUSTER#<id>` (the stream trigger filters on it). */
export { REGISTRY_SORT_KEY };
const KEY_ATTRIBUTES = ['pk', 'sk', 'updated_at'] as const;

/**
 * Our own cluster registry in a DynamoDB table.
 *
 * Item layout: one item per cluster, `pk = CLUSTER#<id>`, `sk = REGISTRY`, and the cluster's snake_case
 * document (the clusters.yaml / HTTP API shape) as top-level attributes: `id`, `alias`, `local_id`,
 * `api_server_url`, `channel`, `config_items` (map), `criticality_level` (number), `environment`,
 * `infrastructure_account`, `lifecycle_status`, `node_pools` (list of maps), `provider`, `region`,
 * `status` (map: `current_version`, `last_version`, `next_version`, `problems`), optional `owner`,
 * `account_name`, `created_at`; plus `updated_at` (ms since the epoch). Top-level attributes keep items
 * readable in the console and let a DynamoDB stream show what changed.
 *
 * The table may be shared with the progress store (other sort keys under the same `CLUSTER#<id>`):
 * `listClusters` scans with a filter on `sk = REGISTRY`. Writes are validated with the same schema as
 * clusters.yaml; status and config items are written with UpdateExpressions on an existing item only.
 */
export class DynamoDbRegistry implements Registry {
  readonly description: string;
  readonly persistsStatus = true;
  private readonly tableName: string;
  private readonly client?: DynamoDBClient | DynamoDBDocumentClient;
  private documents?: Promise<Documents>;
  private readonly now: () => number;

  constructor(options: DynamoDbRegistryOptions) {
    this.tableName = options.tableName;
    this.description = `dynamodb://${options.tableName}`;
    this.client = options.client;
    this.now = options.now ?? Date.now;
  }

  async listClusters(): Promise<Cluster[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.call('scan the registry', async () => {
        const { doc, lib } = await this.sdk();
        return doc.send(
          new lib.ScanCommand({
            TableName: this.tableName,
            FilterExpression: 'sk = :sk',
            ExpressionAttributeValues: { ':sk': REGISTRY_SORT_KEY },
            ExclusiveStartKey: startKey,
          }),
        );
      });
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);

    const documents = items.map(registryDocument);
    const { clusters, issues } = parseRegistryClusters(documents, 'lenient');
    if (issues.length > 0) {
      throw new RegistryError(`${this.description} holds invalid clusters:\n  - ${issues.join('\n  - ')}`);
    }
    // A scan returns items in hash order; give callers a stable order: oldest first, then by id.
    return clusters.sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? '') || a.id.localeCompare(b.id));
  }

  async updateStatus(
    clusterId: string,
    update: { lifecycleStatus?: LifecycleStatus; status: ClusterStatus },
  ): Promise<void> {
    const names: Record<string, string> = { '#status': 'status', '#updated': 'updated_at' };
    const values: Record<string, unknown> = { ':status': toWireStatus(update.status), ':now': this.now() };
    const sets = ['#status = :status', '#updated = :now'];
    if (update.lifecycleStatus !== undefined) {
      names['#lifecycle'] = 'lifecycle_status';
      values[':lifecycle'] = update.lifecycleStatus;
      sets.push('#lifecycle = :lifecycle');
    }
    await this.updateExisting(clusterId, 'update the status', `SET ${sets.join(', ')}`, names, values);
  }

  async updateConfigItems(clusterId: string, items: ConfigItems): Promise<void> {
    const keys = Object.keys(items);
    const badKeys = keys.filter((key) => !CONFIG_KEY_PATTERN.test(key));
    if (badKeys.length > 0) {
      throw new ValidationError(`config item keys ${badKeys.join(', ')} must match ${CONFIG_KEY_PATTERN.source}`, {
        location: { clusterId },
      });
    }
    if (keys.length === 0) return;
    const names: Record<string, string> = { '#items': 'config_items', '#updated': 'updated_at' };
    const values: Record<string, unknown> = { ':now': this.now() };
    const sets = keys.map((key, i) => {
      names[`#k${i}`] = key;
      values[`:v${i}`] = items[key];
      return `#items.#k${i} = :v${i}`;
    });
    await this.updateExisting(
      clusterId,
      'update config items',
      `SET ${sets.join(', ')}, #updated = :now`,
      names,
      values,
    );
  }

  /**
   * Create or replace a cluster (admin/CLI use). Accepts the camelCase model or a snake_case document,
   * validated with the same rules as clusters.yaml (unknown fields are errors).
   */
  async putCluster(input: Cluster | Record<string, unknown>): Promise<Cluster> {
    const document = isModel(input) ? toWireCluster(input) : input;
    const result = validateWireCluster(document, 'strict');
    if (!result.cluster) {
      const id = typeof document.id === 'string' ? document.id : '(no id)';
      throw new ValidationError(`cluster ${id} is not valid`, {
        issues: result.issues.map(
          (issue) => `${issue.path.length ? `${formatPath(issue.path)}: ` : ''}${issue.message}`,
        ),
      });
    }
    const cluster = result.cluster;
    await this.call(`put cluster ${cluster.id}`, async () => {
      const { doc, lib } = await this.sdk();
      return doc.send(
        new lib.PutCommand({
          TableName: this.tableName,
          Item: {
            pk: partitionKey(cluster.id),
            sk: REGISTRY_SORT_KEY,
            ...toWireCluster(cluster),
            updated_at: this.now(),
          },
        }),
      );
    });
    return cluster;
  }

  /** Remove a cluster from the registry; true if it was there. */
  async deleteCluster(clusterId: string): Promise<boolean> {
    const result = await this.call(`delete cluster ${clusterId}`, async () => {
      const { doc, lib } = await this.sdk();
      return doc.send(
        new lib.DeleteCommand({
          TableName: this.tableName,
          Key: { pk: partitionKey(clusterId), sk: REGISTRY_SORT_KEY },
          ReturnValues: 'ALL_OLD',
        }),
      );
    });
    return result.Attributes !== undefined;
  }

  private async updateExisting(
    clusterId: string,
    what: string,
    expression: string,
    names: Record<string, string>,
    values: Record<string, unknown>,
  ): Promise<void> {
    await this.call(
      `${what} of cluster ${clusterId}`,
      async () => {
        const { doc, lib } = await this.sdk();
        return doc.send(
          new lib.UpdateCommand({
            TableName: this.tableName,
            Key: { pk: partitionKey(clusterId), sk: REGISTRY_SORT_KEY },
            UpdateExpression: expression,
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          }),
        );
      },
      clusterId,
    );
  }

  /** The document client and its commands, loaded with the first call (a CLI run on a file registry never loads them). */
  private sdk(): Promise<Documents> {
    this.documents ??= (async () => {
      const lib = await importCjs(import('@aws-sdk/lib-dynamodb'));
      const client = this.client ?? new (await importCjs(import('@aws-sdk/client-dynamodb'))).DynamoDBClient({});
      const doc =
        client instanceof lib.DynamoDBDocumentClient
          ? client
          : lib.DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
      return { doc, lib };
    })();
    return this.documents;
  }

  /** Run one SDK call (the SDK has already retried), translating failures: throttling/5xx/network → retryable, missing item → NotFoundError. */
  private async call<T>(what: string, send: () => Promise<T>, clusterId?: string): Promise<T> {
    try {
      return await send();
    } catch (error) {
      const name = (error as { name?: string }).name ?? '';
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (name === 'ConditionalCheckFailedException' && clusterId !== undefined) {
        throw new NotFoundError(`cannot ${what}: cluster ${clusterId} is not in ${this.description}`, { cause: error });
      }
      const code = (error as { code?: string }).code ?? '';
      if (RETRYABLE_NAMES.has(name) || NETWORK_CODES.has(code) || (status !== undefined && status >= 500)) {
        throw new RegistryUnavailableError(
          `cannot ${what} in ${this.description}: ${name || 'error'}: ${(error as Error).message}`,
          { cause: error },
        );
      }
      throw new RegistryError(`cannot ${what} in ${this.description}: ${name}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

const RETRYABLE_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'LimitExceededException',
  'TimeoutError',
  'AbortError',
]);

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

function partitionKey(clusterId: string): string {
  return `CLUSTER#${clusterId}`;
}

/** A registry item's cluster document: the item without the table's keys and bookkeeping. */
export function registryDocument(item: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...item };
  for (const key of KEY_ATTRIBUTES) delete copy[key];
  return copy;
}

function isModel(input: Cluster | Record<string, unknown>): input is Cluster {
  return 'localId' in input && 'nodePools' in input;
}
