import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  ProvisionedThroughputExceededException,
} from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDbRegistry } from '../../../lambdas/adapters/registry/dynamodb-registry';
import { fromWireCluster } from '../../../lambdas/core/model/cluster-wire';
import type { WireCluster } from '../../../lambdas/core/model/wire-cluster-schema';
import {
  NotFoundError,
  RegistryError,
  RegistryUnavailableError,
  ValidationError,
} from '../../../lambdas/shared/errors';
import { ACCOUNT, wireCluster } from './fixtures';

const ddb = mockClient(DynamoDBDocumentClient);
const ID = `${ACCOUNT}:eu-central-1:kube-1`;

function registry(): DynamoDbRegistry {
  return new DynamoDbRegistry({
    tableName: 'clm-registry',
    client: new DynamoDBClient({ region: 'eu-central-1' }),
    now: () => 1_700_000_000_000,
  });
}

function item(localId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const doc = wireCluster(localId, overrides);
  return { pk: `CLUSTER#${String(doc.id)}`, sk: 'REGISTRY', updated_at: 1, ...doc };
}

describe('DynamoDbRegistry', () => {
  beforeEach(() => ddb.reset());

  it('persists status', () => {
    expect(registry().persistsStatus).toBe(true);
    expect(registry().description).toBe('dynamodb://clm-registry');
  });

  it('scans every page for registry items and returns them oldest first', async () => {
    // Arrange
    ddb
      .on(ScanCommand)
      .resolvesOnce({
        Items: [item('kube-2', { created_at: '2024-02-01T00:00:00Z' })],
        LastEvaluatedKey: { pk: 'x', sk: 'y' },
      })
      .resolvesOnce({ Items: [item('kube-1', { created_at: '2024-01-01T00:00:00Z' })] });

    // Act
    const clusters = await registry().listClusters();

    // Assert
    expect(clusters.map((c) => c.localId)).toEqual(['kube-1', 'kube-2']);
    const calls = ddb.commandCalls(ScanCommand);
    expect(calls).toHaveLength(2);
    expect(calls[0].args[0].input).toMatchObject({
      TableName: 'clm-registry',
      FilterExpression: 'sk = :sk',
      ExpressionAttributeValues: { ':sk': 'REGISTRY' },
    });
    expect(calls[1].args[0].input.ExclusiveStartKey).toEqual({ pk: 'x', sk: 'y' });
  });

  it('names the cluster and field of an invalid item', async () => {
    ddb.on(ScanCommand).resolves({ Items: [item('kube-1', { criticality_level: 'high' })] });
    await expect(registry().listClusters()).rejects.toThrow(RegistryError);
    await expect(registry().listClusters()).rejects.toThrow(
      `cluster ${ID}: criticality_level: expected a number, got "high"`,
    );
  });

  it('writes status and lifecycle with one conditional UpdateExpression', async () => {
    ddb.on(UpdateCommand).resolves({});
    await registry().updateStatus(ID, {
      lifecycleStatus: 'ready',
      status: {
        currentVersion: 'a#b',
        lastVersion: '',
        nextVersion: '',
        problems: [{ type: 't', title: 'x', detail: 'd' }],
      },
    });
    const input = ddb.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input).toEqual({
      TableName: 'clm-registry',
      Key: { pk: `CLUSTER#${ID}`, sk: 'REGISTRY' },
      UpdateExpression: 'SET #status = :status, #updated = :now, #lifecycle = :lifecycle',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#status': 'status', '#updated': 'updated_at', '#lifecycle': 'lifecycle_status' },
      ExpressionAttributeValues: {
        ':status': {
          current_version: 'a#b',
          last_version: '',
          next_version: '',
          problems: [{ type: 't', title: 'x', detail: 'd' }],
        },
        ':now': 1_700_000_000_000,
        ':lifecycle': 'ready',
      },
    });
  });

  it('turns a failed condition into NotFoundError naming the cluster', async () => {
    ddb.on(UpdateCommand).rejects(
      new ConditionalCheckFailedException({
        message: 'The conditional request failed',
        $metadata: { httpStatusCode: 400 },
      }),
    );
    const error = await registry()
      .updateStatus(ID, { status: { currentVersion: '', lastVersion: '', nextVersion: '', problems: [] } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe(
      `cannot update the status of cluster ${ID}: cluster ${ID} is not in dynamodb://clm-registry`,
    );
  });

  it('turns throttling into a retryable RegistryUnavailableError', async () => {
    ddb
      .on(ScanCommand)
      .rejects(
        new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: { httpStatusCode: 400 } }),
      );
    await expect(registry().listClusters()).rejects.toThrow(RegistryUnavailableError);
  });

  it('sets only the given config items, by nested path', async () => {
    ddb.on(UpdateCommand).resolves({});
    await registry().updateConfigItems(ID, { eks_endpoint: 'https://e', eks_oidc_issuer_url: 'https://o' });
    const input = ddb.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input.UpdateExpression).toBe('SET #items.#k0 = :v0, #items.#k1 = :v1, #updated = :now');
    expect(input.ExpressionAttributeNames).toEqual({
      '#items': 'config_items',
      '#updated': 'updated_at',
      '#k0': 'eks_endpoint',
      '#k1': 'eks_oidc_issuer_url',
    });
    expect(input.ExpressionAttributeValues).toEqual({
      ':now': 1_700_000_000_000,
      ':v0': 'https://e',
      ':v1': 'https://o',
    });
  });

  it('refuses config item keys the registry format forbids, before calling DynamoDB', async () => {
    await expect(registry().updateConfigItems(ID, { 'Bad-Key': 'x' })).rejects.toThrow(ValidationError);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('puts a validated cluster given as model or document', async () => {
    ddb.on(PutCommand).resolves({});
    const model = fromWireCluster(wireCluster('kube-1') as unknown as WireCluster);

    await registry().putCluster(model);
    await registry().putCluster(wireCluster('kube-2'));

    const items = ddb.commandCalls(PutCommand).map((c) => c.args[0].input.Item!);
    expect(items[0]).toEqual({
      pk: `CLUSTER#${ID}`,
      sk: 'REGISTRY',
      updated_at: 1_700_000_000_000,
      ...wireCluster('kube-1'),
    });
    expect(items[1].local_id).toBe('kube-2');
  });

  it('refuses to put an invalid cluster, listing every issue', async () => {
    const error = await registry()
      .putCluster(wireCluster('kube-1', { provider: 'gke', colour: 'blue' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      'provider: "gke" is not one of zalando-aws, zalando-eks',
      'colour: unknown field',
    ]);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('deletes a cluster and says whether it existed', async () => {
    ddb
      .on(DeleteCommand)
      .resolvesOnce({ Attributes: item('kube-1') })
      .resolvesOnce({});
    expect(await registry().deleteCluster(ID)).toBe(true);
    expect(await registry().deleteCluster(ID)).toBe(false);
    expect(ddb.commandCalls(DeleteCommand)[0].args[0].input.Key).toEqual({ pk: `CLUSTER#${ID}`, sk: 'REGISTRY' });
  });
});
