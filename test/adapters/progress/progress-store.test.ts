import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbProgressStore } from '../../../lambdas/adapters/progress/dynamodb-progress-store';
import { FileProgressStore } from '../../../lambdas/adapters/progress/file-progress-store';
import { MemoryProgressStore } from '../../../lambdas/adapters/progress/memory-progress-store';
import { newRunRecord } from '../../../lambdas/core/model/run';
import { MAX_PROBLEMS } from '../../../lambdas/core/status/problems';
import type { ProgressStore } from '../../../lambdas/ports/progress-store';
import { ConflictError, LeaseHeldError } from '../../../lambdas/shared/errors';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../support/dynamodb-local';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The same contract, against the in-memory store (simulator, unit tests), the CLI's per-cluster files under
// --state and a real DynamoDB Local.
let local: DynamoDbLocal;
let tables = 0;

beforeAll(async () => {
  local = await startDynamoDbLocal();
}, 60_000);

const dirs: string[] = [];
afterAll(async () => {
  await local?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const stores: [string, () => Promise<ProgressStore>][] = [
  ['memory', async () => new MemoryProgressStore()],
  [
    'files',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'clm-progress-'));
      dirs.push(dir);
      return new FileProgressStore(dir);
    },
  ],
  [
    'dynamodb-local',
    async () => {
      const name = `progress-${++tables}`;
      await local.createTable(name);
      return new DynamoDbProgressStore(local.client, name);
    },
  ],
];

describe.each(stores)('ProgressStore (%s)', (_kind, create) => {
  const cluster = 'aws:123456789012:eu-central-1:kube-1';

  it('gives the lease to one holder, renews it for that holder, and lets another steal it only after expiry', async () => {
    const store = await create();
    await store.acquireLease(cluster, 'exec-a', 1000, 0);
    await expect(store.acquireLease(cluster, 'exec-b', 1000, 500)).rejects.toBeInstanceOf(LeaseHeldError);
    await expect(store.acquireLease(cluster, 'exec-a', 1000, 900)).resolves.toMatchObject({
      holder: 'exec-a',
      expiresAt: 1900,
    });
    await expect(store.acquireLease(cluster, 'exec-b', 1000, 1800)).rejects.toBeInstanceOf(LeaseHeldError);
    await expect(store.acquireLease(cluster, 'exec-b', 1000, 2000)).resolves.toMatchObject({ holder: 'exec-b' });
    await store.releaseLease(cluster, 'exec-a'); // not the holder any more: no effect
    expect((await store.getLease(cluster))?.holder).toBe('exec-b');
    await store.releaseLease(cluster, 'exec-b');
    expect(await store.getLease(cluster)).toBeUndefined();
  });

  it('judges a lease on the clock that wrote it: a simulated lease is not taken on the system clock, nor the reverse', async () => {
    const store = await create();
    // Simulated time is months before the real one: on the system clock this lease would look long expired.
    await store.acquireLease(cluster, 'cli:sim:1:1', 1000, 0, 'simulated');
    expect(await store.getLease(cluster)).toMatchObject({ expiresAt: 1000, clock: 'simulated' });
    await expect(store.acquireLease(cluster, 'exec-b', 1000, 5000)).rejects.toBeInstanceOf(LeaseHeldError);
    await expect(store.acquireLease(cluster, 'cli:sim:2:2', 1000, 500, 'simulated')).rejects.toBeInstanceOf(
      LeaseHeldError,
    );
    await expect(store.acquireLease(cluster, 'cli:sim:2:2', 1000, 1500, 'simulated')).resolves.toMatchObject({
      clock: 'simulated',
    });
    await store.releaseLease(cluster, 'cli:sim:2:2');
    await store.acquireLease(cluster, 'exec-a', 1000, 5000);
    expect((await store.getLease(cluster))?.clock).toBeUndefined();
    await expect(store.acquireLease(cluster, 'cli:sim:3:3', 1000, 9000, 'simulated')).rejects.toBeInstanceOf(
      LeaseHeldError,
    );
  });

  it('writes runs with optimistic locking and reports a lost race as ConflictError', async () => {
    const store = await create();
    const fresh = newRunRecord(
      { clusterId: cluster, targetVersion: 'v1#h', action: 'provision', holder: 'exec-a', previousVersion: '' },
      0,
    );
    const first = await store.putRun(fresh);
    expect(first.revision).toBe(1);
    await expect(store.putRun(fresh)).rejects.toBeInstanceOf(ConflictError);
    const second = await store.putRun({ ...first, phase: 'RenderConfig' });
    expect(second.revision).toBe(2);
    const stale = store.putRun({ ...first, phase: 'stale writer' });
    await expect(stale).rejects.toBeInstanceOf(ConflictError);
    expect((await store.getRun(cluster, 'v1#h'))?.phase).toBe('RenderConfig');
  });

  it('caps problems at 25, compacting repeats, with a too-many-problems marker', async () => {
    const store = await create();
    await store.recordProblem(cluster, { type: 't', title: 'same' }, 1);
    const repeated = await store.recordProblem(cluster, { type: 't', title: 'same' }, 2);
    expect(repeated.problems).toHaveLength(1);
    let status = repeated;
    for (let i = 0; i < 30; i++)
      status = await store.recordProblem(cluster, { type: 't', title: `problem ${i}` }, 3 + i);
    expect(status.problems).toHaveLength(MAX_PROBLEMS);
    expect(status.problems[0].title).toBe('<multiple problems>');
    expect(status.problems[MAX_PROBLEMS - 1].title).toBe('problem 29');
  });

  it('keeps status, controls and the applied-objects inventory', async () => {
    const store = await create();
    await store.putStatus(cluster, {
      currentVersion: 'a',
      lastVersion: '',
      nextVersion: 'b',
      problems: [],
      updatedAt: 5,
      lifecycleStatus: 'ready',
    });
    await store.putControls(cluster, { paused: true, reason: 'freeze' });
    await store.putInventory(cluster, [{ kind: 'Deployment', namespace: 'default', name: 'web' }]);
    expect(await store.getStatus(cluster)).toMatchObject({
      currentVersion: 'a',
      nextVersion: 'b',
      lifecycleStatus: 'ready',
    });
    expect(await store.getControls(cluster)).toEqual({ paused: true, reason: 'freeze' });
    expect(await store.getInventory(cluster)).toEqual([{ kind: 'Deployment', namespace: 'default', name: 'web' }]);
  });

  it('keeps an inventory of 10,000 objects (as a plain list, more than one DynamoDB item holds)', async () => {
    const store = await create();
    const refs = Array.from({ length: 10_000 }, (_, i) => ({
      apiVersion: i % 2 ? 'apps/v1' : 'v1',
      kind: i % 2 ? 'Deployment' : 'ConfigMap',
      namespace: `team-${i % 37}`,
      name: `object-${i}-${(i * 7919) % 10007}`,
    }));
    await store.putInventory(cluster, refs);
    expect(await store.getInventory(cluster)).toEqual(refs);
  });

  it('reads the statuses and controls of many clusters at once, leaving out clusters without any', async () => {
    // Arrange: 250 clusters (three BatchGetItem calls of 100 keys), every third with a status, one paused
    const store = await create();
    const ids = Array.from({ length: 250 }, (_, i) => `aws:123456789012:eu-central-1:fleet-${i}`);
    const status = (version: string) => ({
      currentVersion: version,
      lastVersion: '',
      nextVersion: '',
      problems: [],
      updatedAt: 1,
    });
    for (const [i, id] of ids.entries()) if (i % 3 === 0) await store.putStatus(id, status(`v${i}`));
    await store.putControls(ids[7]!, { paused: true, reason: 'freeze' });

    // Act
    const statuses = await store.getStatuses([...ids, 'aws:123456789012:eu-central-1:not-there']);
    const controls = await store.getControlsOf(ids);

    // Assert
    expect(statuses.size).toBe(84);
    expect(statuses.get(ids[249]!)?.currentVersion).toBe('v249');
    expect(statuses.has(ids[1]!)).toBe(false);
    expect([...controls]).toEqual([[ids[7], { paused: true, reason: 'freeze' }]]);
    expect((await store.getStatuses([])).size).toBe(0);
  });

  it('reads the leases and runs of many clusters at once; only the unfinished runs when asked', async () => {
    // Arrange: 230 clusters (three BatchGetItem calls of 100 keys), each with a finished run of v1 (every node it
    // replaced recorded), every 50th also an unfinished run of v2 and the lease, one with a simulated lease
    const store = await create();
    const ids = Array.from({ length: 230 }, (_, i) => `aws:123456789012:eu-central-1:fleet-${i}`);
    // On the real clock: DynamoDB expires a lease item by its `ttl` (a day after its expiry); a simulated one has none.
    const now = Date.now();
    const runOf = (clusterId: string, targetVersion: string) =>
      newRunRecord(
        { clusterId, targetVersion, action: 'provision', holder: `exec-${clusterId}`, previousVersion: '' },
        0,
      );
    const nodes = Object.fromEntries(
      Array.from({ length: 40 }, (_, n) => [`i-${n}`, { instanceId: `i-${n}`, state: 'terminated' as const }]),
    );
    for (const [i, id] of ids.entries()) {
      const pools = { workers: { status: 'done' as const, total: 40, replaced: 40, steps: 4, nodes } };
      await store.putRun({ ...runOf(id, 'v1'), pools, completedAt: 10 });
      if (i % 50 === 0) {
        await store.putRun({ ...runOf(id, 'v2'), phase: 'RollNodePools' });
        await store.acquireLease(id, `exec-${i}`, 1000, i === 100 ? 0 : now, i === 100 ? 'simulated' : undefined);
      }
    }
    const rolling = ids.filter((_, i) => i % 50 === 0);
    const everyV2 = ids.map((clusterId) => ({ clusterId, targetVersion: 'v2' }));
    const everyV1 = ids.map((clusterId) => ({ clusterId, targetVersion: 'v1' }));

    // Act
    const leases = await store.getLeases([...ids, ids[0]!]);
    const v1 = await store.getRuns(everyV1);
    const v1Unfinished = await store.getRuns(everyV1, { unfinished: true });
    const v2Unfinished = await store.getRuns([...everyV2, everyV2[0]!], { unfinished: true });

    // Assert
    expect([...leases.keys()].sort()).toEqual([...rolling].sort());
    expect(leases.get(ids[50]!)).toEqual({ clusterId: ids[50], holder: 'exec-50', expiresAt: now + 1000 });
    expect(leases.get(ids[100]!)).toEqual({
      clusterId: ids[100],
      holder: 'exec-100',
      expiresAt: 1000,
      clock: 'simulated',
    });
    expect(v1).toHaveLength(230);
    expect(v1.find((r) => r.clusterId === ids[229])).toMatchObject({
      targetVersion: 'v1',
      completedAt: 10,
      revision: 1,
    });
    expect(v1[0]!.pools.workers!.nodes['i-39']).toEqual({ instanceId: 'i-39', state: 'terminated' });
    expect(v1Unfinished).toEqual([]);
    expect(v2Unfinished.map((r) => r.clusterId).sort()).toEqual([...rolling].sort());
    expect(v2Unfinished[0]).toMatchObject({ targetVersion: 'v2', phase: 'RollNodePools', revision: 1 });
    expect(await store.getRuns([])).toEqual([]);
    expect((await store.getLeases([])).size).toBe(0);
  });
});

describe('DynamoDbProgressStore inventory written by earlier versions', () => {
  it('still reads an inventory stored as a plain list', async () => {
    const name = `progress-${++tables}`;
    await local.createTable(name);
    const refs = [{ kind: 'Deployment', namespace: 'default', name: 'web' }];
    await DynamoDBDocumentClient.from(local.client).send(
      new PutCommand({ TableName: name, Item: { pk: 'CLUSTER#kube-old', sk: 'INVENTORY', refs } }),
    );
    expect(await new DynamoDbProgressStore(local.client, name).getInventory('kube-old')).toEqual(refs);
  });
});
