import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDbLaunchBudget } from '../../../lambdas/adapters/progress/dynamodb-launch-budget';
import { FileLaunchBudget } from '../../../lambdas/adapters/progress/file-launch-budget';
import { MemoryLaunchBudget } from '../../../lambdas/adapters/progress/sharded-launch-budget';
import type { LaunchLimits } from '../../../lambdas/core/capacity/launch-bucket';
import type { LaunchBudget } from '../../../lambdas/ports/launch-budget';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../support/dynamodb-local';

// The same contract in memory, under --state (a file under the directory lock) and in a real DynamoDB Local.
let local: DynamoDbLocal;
let tables = 0;
const dirs: string[] = [];

beforeAll(async () => {
  local = await startDynamoDbLocal();
}, 60_000);

afterAll(async () => {
  await local?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const budgets: [string, (limits: LaunchLimits) => Promise<LaunchBudget>][] = [
  ['memory', async (limits) => new MemoryLaunchBudget(limits)],
  [
    'file',
    async (limits) => {
      const dir = mkdtempSync(join(tmpdir(), 'clm-launches-'));
      dirs.push(dir);
      return new FileLaunchBudget(dir, limits);
    },
  ],
  [
    'dynamodb-local',
    async (limits) => {
      const name = `launches-${++tables}`;
      await local.createTable(name);
      return new DynamoDbLaunchBudget(local.client, name, limits);
    },
  ],
];

const ACCOUNT = { account: 'aws:111111111111', region: 'eu-central-1' };
const roll = (n: number) => ({ ...ACCOUNT, claimant: `aws:111111111111:eu-central-1:kube-${n}/workers` });
const T0 = Date.parse('2026-11-30T08:00:00Z');

describe.each(budgets)('LaunchBudget (%s)', (_kind, create) => {
  it('grants up to the burst, then what the rate refills, and says when the next launch comes', async () => {
    const budget = await create({ perSecond: 2, burst: 10, shards: 1 });
    expect(await budget.take(roll(1), 6, T0)).toEqual({ granted: 6 });
    expect(await budget.take(roll(2), 6, T0)).toEqual({ granted: 4, nextAt: T0 + 500 });
    expect(await budget.take(roll(1), 6, T0 + 2_000)).toEqual({ granted: 4, nextAt: T0 + 2_500 });
    // Another account and region has a budget of its own.
    expect(await budget.take({ ...roll(3), region: 'eu-west-1' }, 10, T0)).toEqual({ granted: 10 });
  });

  it('never grants more than the budget to rolls taking at the same time', async () => {
    const budget = await create({ perSecond: 1, burst: 20, shards: 1 });
    const grants = await Promise.all(Array.from({ length: 12 }, (_, i) => budget.take(roll(i), 3, T0)));
    expect(grants.reduce((sum, g) => sum + g.granted, 0)).toBe(20);
  });

  it('lets one roll reach every shard, and takes back what a roll did not use', async () => {
    const budget = await create({ perSecond: 4, burst: 40, shards: 4 });
    expect(await budget.take(roll(1), 25, T0)).toEqual({ granted: 25 });
    expect((await budget.take(roll(2), 25, T0)).granted).toBe(15);
    await budget.giveBack(roll(2), 5, T0);
    expect((await budget.take(roll(3), 25, T0)).granted).toBe(5);
  });
});
