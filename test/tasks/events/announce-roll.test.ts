// A roll's events are sent once per run: a retried step, and a fresh execution resuming the run (another lease
// holder), find their ids in the run record and send nothing again; a failing sink leaves them unlisted, so the
// retry sends them (with the same ids, for consumers to drop the repeat).
import type { RollStepOutput, RolloutState } from '../../../lambdas/contracts/cluster-update';
import { newRunRecord, type PoolProgress } from '../../../lambdas/core/model/run';
import { announceRoll, DRAIN_BLOCKED_NOTICE_MS } from '../../../lambdas/tasks/roll/announce-roll';
import { fakeEnv } from '../../support/fakes';

const CLUSTER = 'aws:123456789012:eu-central-1:kube-1';
const TARGET = 'c0ffee#1';

async function withPool(pool: PoolProgress) {
  const env = fakeEnv();
  const run = newRunRecord(
    { clusterId: CLUSTER, targetVersion: TARGET, action: 'provision', holder: 'exec-1', previousVersion: 'v0' },
    env.clock.now(),
  );
  await env.progress.putRun({ ...run, pools: { workers: pool } });
  return env;
}

const input = (holder: string): RolloutState => ({
  clusterId: CLUSTER,
  targetVersion: TARGET,
  holder,
  pool: 'workers',
  options: { applyOnly: false },
});
const output = (status: RollStepOutput['status']): RollStepOutput => ({
  status,
  waitSeconds: 30,
  message: 'workers: …',
  pool: 'workers',
  iteration: 1,
  replaced: 3,
  total: 3,
});

describe('announceRoll', () => {
  it('announces a finished pool once, even to an execution that resumes the run', async () => {
    const start = 1_000_000;
    const env = await withPool({
      status: 'done',
      total: 3,
      replaced: 3,
      nodes: {},
      steps: 9,
      startedAt: start,
      completedAt: start + 600_000,
    });
    const ports = { progress: env.progress, events: env.events, clock: env.clock };

    await announceRoll(ports, input('exec-1'), output('DONE'));
    await announceRoll(ports, input('exec-1'), output('DONE'));
    await announceRoll(ports, input('exec-2'), output('DONE'));

    expect(env.events.events.map((e) => e.type)).toEqual(['PoolRollStarted', 'PoolRolled']);
    const run = await env.progress.getRun(CLUSTER, TARGET);
    expect(run!.announced).toEqual(env.events.events.map((e) => (e.detail as { id: string }).id));
  });

  it('sends again, with the same ids, what a failing sink did not take', async () => {
    const env = await withPool({ status: 'rolling', total: 3, replaced: 0, nodes: {}, steps: 1, startedAt: 0 });
    let fail = true;
    const sent: string[] = [];
    const events = {
      publish: async (batch: readonly { detail: unknown }[]) => {
        if (fail) throw new Error('PutEvents: throttled');
        sent.push(...batch.map((e) => (e.detail as { id: string }).id));
      },
    };
    const ports = { progress: env.progress, events, clock: env.clock };

    await expect(announceRoll(ports, input('exec-1'), output('IN_PROGRESS'))).rejects.toThrow('throttled');
    fail = false;
    await announceRoll(ports, input('exec-1'), output('IN_PROGRESS'));
    await announceRoll(ports, input('exec-1'), output('IN_PROGRESS'));

    expect(sent).toHaveLength(1);
    expect((await env.progress.getRun(CLUSTER, TARGET))!.announced).toEqual(sent);
  });

  it('announces a drain block once it has held DRAIN_BLOCKED_NOTICE_MS, and gives the roll its estimated end', async () => {
    const blockedBy = 'PDB default/web allows 0 disruption(s) (2/3 healthy) for pod default/web-1';
    const now = 10_000_000;
    const pool = (since: number): PoolProgress => ({
      status: 'rolling',
      total: 4,
      replaced: 1,
      nodes: {},
      steps: 3,
      startedAt: now - 600_000,
      blockedBy,
      blockedSince: since,
    });
    const fresh = await withPool(pool(now - DRAIN_BLOCKED_NOTICE_MS + 1000));
    fresh.clock.advance(now - fresh.clock.now());
    const held = await withPool(pool(now - DRAIN_BLOCKED_NOTICE_MS));
    held.clock.advance(now - held.clock.now());

    await announceRoll(
      { progress: fresh.progress, events: fresh.events, clock: fresh.clock },
      input('e'),
      output('IN_PROGRESS'),
    );
    const out = await announceRoll(
      { progress: held.progress, events: held.events, clock: held.clock },
      input('e'),
      output('IN_PROGRESS'),
    );

    expect(fresh.events.events.map((e) => e.type)).toEqual(['PoolRollStarted']);
    expect(held.events.events.map((e) => e.type)).toEqual(['PoolRollStarted', 'DrainBlocked']);
    // 1 node in 10 minutes, 3 left: 30 minutes from now.
    expect(out.estimatedEnd).toBe(new Date(now + 1_800_000).toISOString());
    expect(held.events.events[1]!.detail).toMatchObject({
      pod: 'default/web-1',
      pdb: 'default/web',
      estimatedEnd: out.estimatedEnd,
    });
  });
});
