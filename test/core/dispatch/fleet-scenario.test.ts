import { createHmac } from 'node:crypto';
import { ForgeWebhookVerifier } from '../../../lambdas/adapters/webhook/forge-webhook-verifier';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { parseVersion } from '../../../lambdas/core/version/cluster-version';
import { FleetWorld } from '../../support/fleet/fleet-world';
import { fixtureText, headers, pushPayload } from '../webhook/payloads';
import { COMMIT_A, COMMIT_B, fleetCluster, settings } from './fleet-fixtures';

const COMMIT_C = 'c'.repeat(40);
const SECRET = 'whsec-fleet-scenario';
const MIN = 60_000;

/** 60 test, 70 staging and 90 production clusters, all at commit A on channel main. */
function fleet(): Cluster[] {
  const make = (env: string, count: number) =>
    Array.from({ length: count }, (_, i) => fleetCluster(`${env.slice(0, 4)}-${i}`, env, { current: COMMIT_A }));
  return [...make('production', 90), ...make('staging', 70), ...make('test', 60)];
}

/** What GitHub sends for a push of `after` to main: the real payload shape, signed with the hook's secret. */
function push(delivery: string, after: string, before = COMMIT_A) {
  const repository = { ...(pushPayload().repository as object), full_name: 'acme/cluster-config' };
  const body = JSON.stringify(pushPayload({ before, after, repository, head_commit: null, commits: [] }));
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  return { method: 'POST', headers: headers('push', delivery, signature), body };
}

const configOf = (c: Cluster) => parseVersion(c.status.currentVersion)?.configVersion;
const envOf = (world: FleetWorld, clusterId: string) => world.cluster(clusterId).environment;

/**
 * Passes every 5 minutes, executions ending in between, checking the wave order after every pass (clusters
 * an operator overrode do not count).
 */
async function run(
  world: FleetWorld,
  passes: number,
  fail: (id: string, cv: string) => string | undefined,
  overridden: ReadonlySet<string> = new Set(),
) {
  let maxRunning = 0;
  for (let i = 0; i < passes; i++) {
    await world.finishRunning(fail);
    world.clock.advance(4 * MIN);
    await world.pass();
    maxRunning = Math.max(maxRunning, world.executions.running().length);
    for (const execution of world.executions.running()) {
      const env = envOf(world, execution.clusterId);
      const earlier = env === 'production' ? ['test', 'staging'] : env === 'staging' ? ['test'] : [];
      const target = world.refs.get('main');
      const behind = world.clusters.filter(
        (c) => earlier.includes(c.environment) && configOf(c) !== target && !overridden.has(c.id),
      );
      expect({ running: execution.clusterId, behind: behind.map((c) => c.id) }).toEqual({
        running: execution.clusterId,
        behind: [],
      });
    }
  }
  return { maxRunning };
}

describe('the dispatcher over a fleet of 220 clusters in 3 environments', () => {
  const broken = 'aws:123456789012:eu-central-1:test-7';
  const failAtB = (id: string, cv: string) => (id === broken && cv === COMMIT_B ? 'StackFailedError' : undefined);

  it('halts staging and production when a test cluster fails, and rolls on wave by wave after the fix', async () => {
    const world = new FleetWorld(
      fleet(),
      settings({ maxConcurrent: 20 }),
      new ForgeWebhookVerifier({ github: [SECRET], gitlab: [], bitbucket: [] }),
    );
    world.refs.set('main', COMMIT_A);

    // git push of B, then GitHub's delivery.
    world.refs.set('main', COMMIT_B);
    const answer = await world.receive(push('delivery-b', COMMIT_B));
    expect(answer).toMatchObject({ status: 202, body: { affected: 220, sources: ['main'], dispatch: 'requested' } });
    expect(world.executions.started).toHaveLength(20);
    expect(world.executions.started.every((e) => envOf(world, e.clusterId) === 'test')).toBe(true);

    const first = await run(world, 40, failAtB); // 200 minutes
    const startedAtB = world.executions.started.filter((e) => e.name.includes('-bbbbbbbb-'));
    expect(startedAtB.filter((e) => envOf(world, e.clusterId) !== 'test')).toEqual([]);
    expect(world.clusters.filter((c) => c.environment === 'test' && configOf(c) === COMMIT_B)).toHaveLength(59);
    expect(world.clusters.filter((c) => c.environment !== 'test' && configOf(c) !== COMMIT_A)).toEqual([]);
    // Back-off, not a loop: 15, 30, 60, 120 minutes between attempts.
    expect(startedAtB.filter((e) => e.clusterId === broken).map((e) => e.name.slice(-3))).toEqual([
      expect.stringMatching(/^[0-9a-f]{3}$/),
      '-r2',
      '-r3',
      '-r4',
    ]);
    expect(world.events.ofType('WaveHalted')).toHaveLength(1);
    expect(world.events.ofType('WaveHalted')[0].detail).toMatchObject({
      configVersion: COMMIT_B,
      wave: 'test (criticality 1)',
      heldWaves: ['staging (criticality 2)', 'production (criticality 3)'],
      failed: [{ clusterId: broken, error: 'StackFailedError' }],
    });
    // The held clusters are named by the halt, not announced one by one; the failed one is, per failure.
    const blocked = world.events.ofType('ClusterUpdateBlocked');
    expect(blocked.map((e) => [e.detail.clusterId, e.detail.reason])).toEqual(Array(4).fill([broken, 'backoff']));
    expect(world.problems.filter((p) => p.clusterId === broken)).toHaveLength(4);
    expect((await world.store.loadFleet()).halts).toEqual([expect.objectContaining({ configVersion: COMMIT_B })]);
    expect(first.maxRunning).toBeLessThanOrEqual(20);

    // The fix: commit C, pushed.
    world.refs.set('main', COMMIT_C);
    expect(await world.receive(push('delivery-c', COMMIT_C, COMMIT_B))).toMatchObject({ status: 202 });
    const second = await run(world, 30, failAtB);
    expect(world.clusters.filter((c) => configOf(c) !== COMMIT_C)).toEqual([]);
    const startedAtC = world.executions.started.filter((e) => e.name.includes('-cccccccc-'));
    expect(startedAtC).toHaveLength(220); // one execution per cluster: nothing started twice
    expect(new Set(startedAtC.map((e) => e.clusterId)).size).toBe(220);
    expect(second.maxRunning).toBeLessThanOrEqual(20);
    expect(
      world.events.ofType('ClusterUpdateSucceeded').filter((e) => e.detail.targetVersion.startsWith(COMMIT_C)),
    ).toHaveLength(220);
    expect((await world.store.loadFleet()).halts).toEqual([]);

    // A converged fleet costs nothing: no starts, no describes.
    const calls = { ...world.executions.calls };
    await world.pass();
    expect(world.executions.calls).toEqual({ ...calls, countRunning: calls.countRunning + 1 });
  });

  it('starts nothing twice for duplicate deliveries, redeliveries and overlapping passes', async () => {
    const world = new FleetWorld(
      fleet(),
      settings({ maxConcurrent: 20 }),
      new ForgeWebhookVerifier({ github: [SECRET], gitlab: [], bitbucket: [] }),
    );
    world.refs.set('main', COMMIT_B);
    const delivery = push('72d3162e-cc78-11e3-81ab-4c9367dc0958', COMMIT_B);
    expect((await world.receive(delivery)).status).toBe(202);
    expect(world.executions.started).toHaveLength(20);

    const again = await world.receive(delivery); // GitHub's "Redeliver" reuses the delivery id
    expect(again).toMatchObject({ status: 401, body: { error: expect.stringMatching(/was already accepted/) } });
    const otherHook = await world.receive(push('a-second-hook-delivery', COMMIT_B)); // same push, another hook
    expect(otherHook).toMatchObject({ status: 202, body: { dispatch: 'requested' } });
    expect(world.executions.started).toHaveLength(20);
    await Promise.all([world.pass(), world.pass()]); // the schedule and a stream event at once
    expect(world.executions.started).toHaveLength(20);
    expect(new Set(world.executions.started.map((e) => e.name)).size).toBe(20);
  });

  it('lets an operator override a halt so the later waves proceed', async () => {
    const clusters = fleet().filter((_, i) => i % 10 === 0); // 22 clusters
    const world = new FleetWorld(clusters, settings({ maxConcurrent: 50 }));
    const victim = clusters.find((c) => c.environment === 'test')!.id;
    world.refs.set('main', COMMIT_B);
    await world.pass();
    await run(world, 3, (id, cv) => (id === victim && cv === COMMIT_B ? 'ConfigError' : undefined));
    expect(world.clusters.filter((c) => c.environment !== 'test' && configOf(c) === COMMIT_B)).toEqual([]);

    await world.store.putOverride({
      configVersion: COMMIT_B,
      reason: 'test cluster under repair',
      by: 'jdoe',
      at: world.clock.now(),
    });
    await run(world, 6, (id, cv) => (id === victim && cv === COMMIT_B ? 'ConfigError' : undefined), new Set([victim]));
    expect(world.clusters.filter((c) => c.id !== victim && configOf(c) !== COMMIT_B)).toEqual([]);
    expect(configOf(world.cluster(victim))).toBe(COMMIT_A);
  });

  it('resumes a dead execution by redriving it, without a new execution', async () => {
    const clusters = fleet()
      .filter((c) => c.environment === 'test')
      .slice(0, 3);
    const world = new FleetWorld(clusters, settings());
    world.refs.set('main', COMMIT_B);
    await world.pass();
    const [dead] = world.executions.running();
    world.executions.end(dead.name, 'TIMED_OUT');
    world.clock.advance(MIN);
    const plan = await world.pass();
    expect(plan.starts).toEqual([
      expect.objectContaining({
        clusterId: dead.clusterId,
        priority: 3,
        resume: expect.objectContaining({ name: dead.name }),
      }),
    ]);
    expect(world.executions.started).toHaveLength(3);
    expect(dead).toMatchObject({ status: 'RUNNING', redrives: 1 });
    expect(world.events.ofType('ClusterUpdateStarted').at(-1)?.detail).toMatchObject({ resumed: true, attempt: 2 });
  });

  it('refuses unsigned, wrongly signed and oversized deliveries without recording anything', async () => {
    const world = new FleetWorld(
      fleet().slice(0, 5),
      settings(),
      new ForgeWebhookVerifier({ github: [SECRET], gitlab: [], bitbucket: [] }),
    );
    world.refs.set('main', COMMIT_B);
    const good = push('d-1', COMMIT_B);
    const unsigned = { ...good, headers: { ...good.headers } } as typeof good;
    delete (unsigned.headers as Record<string, string>)['X-Hub-Signature-256'];
    const wrong = { ...good, headers: { ...good.headers, 'X-Hub-Signature-256': `sha256=${'0'.repeat(64)}` } };
    const tampered = { ...good, body: good.body.replace('acme/cluster-config', 'acme/cluster-confih') };
    const oversized = { ...good, body: good.body + ' '.repeat(4 * 1024 * 1024) };
    expect((await world.receive(unsigned)).status).toBe(401);
    expect((await world.receive(wrong)).status).toBe(401);
    expect((await world.receive(tampered)).status).toBe(401);
    expect((await world.receive(oversized)).status).toBe(400);
    expect(world.store.data.deliveries).toEqual({});
    expect(world.store.data.commits).toEqual({});
    expect(world.executions.started).toEqual([]);
    expect((await world.receive(good)).status).toBe(202); // the same id, properly signed, is still new
  });

  it('answers a signed ping with 200 and a signed issues event with 202, recording and starting nothing', async () => {
    const world = new FleetWorld(
      fleet().slice(0, 5),
      settings(),
      new ForgeWebhookVerifier({ github: [SECRET], gitlab: [], bitbucket: [] }),
    );
    world.refs.set('main', COMMIT_B);
    const signed = (event: string, body: string, delivery: string) => ({
      method: 'POST',
      headers: headers(event, delivery, `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`),
      body,
    });
    const pingPayload = JSON.parse(fixtureText('ping'));
    pingPayload.repository.full_name = 'acme/cluster-config';
    const ping = JSON.stringify(pingPayload);
    expect(await world.receive(signed('ping', ping, 'p-1'))).toMatchObject({
      status: 200,
      body: { sources: ['main'] },
    });
    expect(await world.receive(signed('issues', fixtureText('issues-opened'), 'i-1'))).toMatchObject({
      status: 202,
      body: { ignored: true },
    });
    expect(world.store.data.deliveries).toEqual({});
    expect(world.executions.started).toEqual([]);
  });
});
