import { DescribeTimeToLiveCommand, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDbProgressStore } from '../../../lambdas/adapters/progress/dynamodb-progress-store';
import { newRunRecord } from '../../../lambdas/core/model/run';
import { MAX_PROBLEMS, TOO_MANY_PROBLEMS_TYPE } from '../../../lambdas/core/status/problems';
import { ConflictError, LeaseHeldError } from '../../../lambdas/shared/errors';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../support/dynamodb-local';

// The progress store against a real DynamoDB Local on 127.0.0.1, with two independent writers (two stores, two
// HTTP clients) racing each other as two Step Functions executions would.
let local: DynamoDbLocal;
let tables = 0;
const cluster = 'aws:123456789012:eu-central-1:kube-int';

beforeAll(async () => {
  local = await startDynamoDbLocal();
}, 90_000);

afterAll(async () => {
  await local?.stop();
});

async function twoWriters(): Promise<{ table: string; a: DynamoDbProgressStore; b: DynamoDbProgressStore }> {
  const table = `progress-int-${++tables}`;
  await local.createTable(table);
  return {
    table,
    a: new DynamoDbProgressStore(local.client, table),
    b: new DynamoDbProgressStore(local.client, table),
  };
}

describe('DynamoDbProgressStore on DynamoDB Local', () => {
  it('gives a contended lease to exactly one of two writers racing for it, 20 rounds in a row', async () => {
    const { a, b } = await twoWriters();
    for (let round = 0; round < 20; round++) {
      const id = `${cluster}-${round}`;
      const results = await Promise.allSettled([
        a.acquireLease(id, 'exec-a', 60_000, 1000),
        b.acquireLease(id, 'exec-b', 60_000, 1000),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]!.reason).toBeInstanceOf(LeaseHeldError);
      const holder = (await a.getLease(id))!.holder;
      expect((lost[0]!.reason as LeaseHeldError).holder).toBe(holder);
    }
  });

  it('lets the loser take the lease only once it has expired, and releases only for its holder', async () => {
    const { a, b } = await twoWriters();
    await a.acquireLease(cluster, 'exec-a', 1000, 10_000);
    await expect(b.acquireLease(cluster, 'exec-b', 1000, 10_999)).rejects.toBeInstanceOf(LeaseHeldError);
    await expect(b.acquireLease(cluster, 'exec-b', 1000, 11_001)).resolves.toMatchObject({
      holder: 'exec-b',
      expiresAt: 12_001,
    });
    await a.releaseLease(cluster, 'exec-a');
    expect((await b.getLease(cluster))?.holder).toBe('exec-b');
  });

  it('stores a TTL (epoch seconds, a day after expiry) on the lease item, in the attribute the table expires on', async () => {
    const { table, a } = await twoWriters();
    const now = Date.UTC(2026, 0, 1);
    await a.acquireLease(cluster, 'exec-a', 15 * 60_000, now);
    const ttl = await local.client.send(new DescribeTimeToLiveCommand({ TableName: table }));
    expect(ttl.TimeToLiveDescription).toMatchObject({ AttributeName: 'ttl', TimeToLiveStatus: 'ENABLED' });
    const item = await local.client.send(
      new GetItemCommand({
        TableName: table,
        Key: { pk: { S: `CLUSTER#${cluster}` }, sk: { S: 'LEASE' } },
        ConsistentRead: true,
      }),
    );
    expect(Number(item.Item?.ttl?.N)).toBe(Math.ceil((now + 15 * 60_000) / 1000) + 86_400);
  });

  it('lets exactly one of two writers with the same revision win a run update; the loser gets the current record', async () => {
    const { a, b } = await twoWriters();
    const first = await a.putRun(
      newRunRecord(
        { clusterId: cluster, targetVersion: 'v1#abc', action: 'provision', holder: 'exec-a', previousVersion: '' },
        0,
      ),
    );
    for (let round = 0; round < 10; round++) {
      const base = (await a.getRun(cluster, 'v1#abc'))!;
      const results = await Promise.allSettled([
        a.putRun({ ...base, phase: `a-${round}` }),
        b.putRun({ ...base, phase: `b-${round}` }),
      ]);
      const won = results.filter((r): r is PromiseFulfilledResult<typeof first> => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost[0]!.reason).toBeInstanceOf(ConflictError);
      const stored = (await a.getRun(cluster, 'v1#abc'))!;
      expect(stored.revision).toBe(first.revision + round + 1);
      expect(stored.phase).toBe(won[0]!.value.phase);
      expect((lost[0]!.reason as ConflictError<typeof first>).current?.phase).toBe(won[0]!.value.phase);
    }
  });

  it('refuses to create a run twice (revision 0 means "must not exist")', async () => {
    const { a, b } = await twoWriters();
    const fresh = newRunRecord(
      { clusterId: cluster, targetVersion: 'v2#def', action: 'provision', holder: 'exec-a', previousVersion: '' },
      0,
    );
    const results = await Promise.allSettled([a.putRun(fresh), b.putRun(fresh)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason)).toEqual([
      expect.any(ConflictError),
    ]);
  });

  it('caps problems at 25 with a marker, and loses none when two writers record problems at the same time', async () => {
    const { a, b } = await twoWriters();
    // Two executions record a problem at the same moment, 8 times: each time one write loses the race and retries.
    // (recordProblem retries 5 times without back-off; a writer that keeps losing to a busier one can starve, so
    // this models the realistic case of two executions failing together, not a sustained write storm.)
    for (let i = 0; i < 8; i++) {
      await Promise.all([
        a.recordProblem(cluster, { type: 'urn:a', title: `a${i}` }, 1),
        b.recordProblem(cluster, { type: 'urn:b', title: `b${i}` }, 1),
      ]);
    }
    const afterRace = (await a.getStatus(cluster))!.problems.map((p) => p.title);
    expect([...afterRace].sort()).toEqual(
      ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7'].sort(),
    );

    for (let i = 0; i < 20; i++) await b.recordProblem(cluster, { type: 'urn:c', title: `c${i}` }, 2);
    await b.recordProblem(cluster, { type: 'urn:c', title: 'c19' }, 3); // a repeat is compacted
    const capped = (await a.getStatus(cluster))!.problems;
    expect(capped).toHaveLength(MAX_PROBLEMS);
    expect(capped[0]).toEqual({ type: TOO_MANY_PROBLEMS_TYPE, title: '<multiple problems>' });
    expect(capped[capped.length - 1]!.title).toBe('c19');
    expect(capped.filter((p) => p.title === 'c19')).toHaveLength(1);
  });

  it('records a problem on a status written by putStatus (which stores no write counter)', async () => {
    const { a, b } = await twoWriters();
    await a.putStatus(cluster, {
      currentVersion: 'v1',
      lastVersion: '',
      nextVersion: 'v2',
      problems: [],
      lifecycleStatus: 'ready',
      updatedAt: 1,
    });
    const next = await b.recordProblem(cluster, { type: 'urn:x', title: 'stack failed' }, 2);
    expect(next).toMatchObject({ currentVersion: 'v1', nextVersion: 'v2', problems: [{ title: 'stack failed' }] });
    expect((await a.getStatus(cluster))?.problems).toEqual([{ type: 'urn:x', title: 'stack failed' }]);
  });
});
