import { DynamoDbFleetStore } from '../../../lambdas/adapters/fleet/dynamodb-fleet-store';
import { MemoryFleetStore } from '../../../lambdas/adapters/fleet/memory-fleet-store';
import type { PullRequestCommentRecord } from '../../../lambdas/core/forge/pr-comment-record';
import type { FleetStore } from '../../../lambdas/ports/fleet-store';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../support/dynamodb-local';

// The plan comment records' conditional writes, against the in-memory store and a real DynamoDB Local.
let local: DynamoDbLocal;
let tables = 0;
beforeAll(async () => {
  local = await startDynamoDbLocal();
}, 60_000);
afterAll(() => local?.stop());

const stores: [string, () => Promise<FleetStore>][] = [
  ['memory', async () => new MemoryFleetStore()],
  [
    'dynamodb-local',
    async () => {
      const name = `pr-${++tables}`;
      await local.createTable(name);
      return new DynamoDbFleetStore(local.client, name);
    },
  ],
];

const RECORD: PullRequestCommentRecord = {
  repository: 'acme/config',
  number: 7,
  head: 'h1',
  base: 'main',
  clusters: ['a', 'b'],
  supersededHeads: [],
  sections: { a: { state: 'planned', planKey: 'runs/a/plan.json' } },
  creating: { by: 'plan-a:SUCCEEDED', since: 1000 },
  version: 0,
};

describe.each(stores)('pull request comment records (%s)', (_kind, create) => {
  it('writes a record only over the version it was read at', async () => {
    const store = await create();

    expect(await store.savePullRequestComment(RECORD)).toBe(true);
    expect(await store.savePullRequestComment({ ...RECORD, head: 'lost' })).toBe(false);
    const stored = await store.getPullRequestComment('acme/config', 7);
    expect(stored).toEqual({ ...RECORD, version: 1 });
    expect(await store.savePullRequestComment({ ...stored!, commentId: 42 })).toBe(true);
    expect(await store.savePullRequestComment({ ...stored!, sections: {} })).toBe(false);

    expect(await store.getPullRequestComment('acme/config', 7)).toEqual({ ...RECORD, commentId: 42, version: 2 });
    expect(await store.getPullRequestComment('acme/config', 8)).toBeUndefined();
  });

  it('lets exactly one of two writers over the same version win', async () => {
    const store = await create();
    await store.savePullRequestComment(RECORD);
    const read = (await store.getPullRequestComment('acme/config', 7))!;

    const results = await Promise.all([
      store.savePullRequestComment({ ...read, sections: { ...read.sections, b: { state: 'running' } } }),
      store.savePullRequestComment({ ...read, sections: { ...read.sections, b: { state: 'failed', reason: 'x' } } }),
    ]);

    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await store.getPullRequestComment('acme/config', 7))!.version).toBe(2);
  });
});
