import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDbRegistry } from '../../../lambdas/adapters/registry/dynamodb-registry';
import { NotFoundError } from '../../../lambdas/shared/errors';
import { startDynamoDbLocal } from '../../support/dynamodb-local';
import type { DynamoDbLocal } from '../../support/dynamodb-local';
import { ACCOUNT, wireCluster } from './fixtures';

const ID = `${ACCOUNT}:eu-central-1:kube-1`;
let local: DynamoDbLocal;

beforeAll(async () => {
  local = await startDynamoDbLocal();
  await local.createTable('clm-registry');
}, 60_000);

afterAll(async () => {
  await local?.stop();
});

describe('DynamoDbRegistry against DynamoDB Local', () => {
  const registry = (): DynamoDbRegistry =>
    new DynamoDbRegistry({ tableName: 'clm-registry', client: local.client, now: () => 42 });

  it('stores, lists, updates and deletes clusters, ignoring other items of a shared table', async () => {
    // Arrange: two clusters, plus a progress item under the same partition key
    await registry().putCluster(wireCluster('kube-1', { created_at: '2024-01-01T00:00:00Z' }));
    await registry().putCluster(wireCluster('kube-2', { created_at: '2024-02-01T00:00:00Z', status: undefined }));
    await local.client.send(
      new PutItemCommand({
        TableName: 'clm-registry',
        Item: { pk: { S: `CLUSTER#${ID}` }, sk: { S: 'LEASE' }, holder: { S: 'x' } },
      }),
    );

    // Act
    await registry().updateStatus(ID, {
      lifecycleStatus: 'decommission-requested',
      status: {
        currentVersion: 'a#b',
        lastVersion: '',
        nextVersion: 'c#d',
        problems: [{ type: 'https://x/p', title: 'boom', status: 500 }],
      },
    });
    await registry().updateConfigItems(ID, { eks_endpoint: 'https://e' });
    const clusters = await registry().listClusters();

    // Assert
    expect(clusters.map((c) => c.localId)).toEqual(['kube-1', 'kube-2']);
    expect(clusters[0]).toMatchObject({
      lifecycleStatus: 'decommission-requested',
      configItems: { product_key: 'abc', eks_endpoint: 'https://e' },
      status: {
        currentVersion: 'a#b',
        lastVersion: '',
        nextVersion: 'c#d',
        problems: [{ type: 'https://x/p', title: 'boom', status: 500 }],
      },
    });
    expect(clusters[1].status).toEqual({ currentVersion: '', lastVersion: '', nextVersion: '', problems: [] });

    expect(await registry().deleteCluster(`${ACCOUNT}:eu-central-1:kube-2`)).toBe(true);
    expect((await registry().listClusters()).map((c) => c.localId)).toEqual(['kube-1']);
  });

  it('refuses to update a cluster that is not there', async () => {
    await expect(registry().updateConfigItems(`${ACCOUNT}:eu-central-1:nope`, { a_b: 'x' })).rejects.toThrow(
      NotFoundError,
    );
    await expect(
      registry().updateStatus(`${ACCOUNT}:eu-central-1:nope`, {
        status: { currentVersion: '', lastVersion: '', nextVersion: '', problems: [] },
      }),
    ).rejects.toThrow(NotFoundError);
  });
});
