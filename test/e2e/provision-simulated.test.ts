// `clm provision|decommission --simulate` end to end, in process, on the examples: the deployed ASL run by
// the local executor against the simulated world kept under a temporary --state directory. The three
// example clusters are created once; every test starts from a copy of that state.
import { rmSync } from 'node:fs';
import {
  EXAMPLES,
  PROD,
  STAGING,
  TEST,
  clm,
  clusterLines,
  configWithNewImage,
  copyState,
  latestRun,
  loadWorld,
  poolInstances,
  tempDir,
} from './support/clm-session';

const temps: string[] = [];
const track = (dir: string): string => {
  temps.push(dir);
  return dir;
};

interface Summary {
  id: string;
  status: string;
  version: string;
  stacks: { name: string; status: string }[];
  nodesReplaced: number;
  pdbViolations: number;
  nodesTerminatedTwice: number;
  stateTransitions: number;
  simulatedSeconds: number;
  problems: { title: string }[];
}

const summaries = (out: string): Summary[] => (JSON.parse(out) as { clusters: Summary[] }).clusters;
const provision = (state: string, config: string, ...extra: string[]) =>
  clm(['provision', '--simulate', ...EXAMPLES, '--directory', config, '--state', state, ...extra]);

/** kube-test created from examples/config in the world of a scenario file. */
const createInScenario = (state: string, scenario: string) =>
  provision(state, 'examples/config', '--cluster', TEST, '--scenario', scenario);

let created: string;
let createdRun: Awaited<ReturnType<typeof clm>>;

beforeAll(async () => {
  created = track(tempDir('created'));
  createdRun = await provision(created, 'examples/config', '--output', 'json');
});

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('clm provision --simulate on the example clusters', () => {
  it('(a) creates all three clusters without disruption and prints the JSON summary', () => {
    // Assert (the run is in beforeAll)
    expect(createdRun.err).toBe('');
    expect(createdRun.code).toBe(0);
    const clusters = summaries(createdRun.out);
    expect(clusters.map((c) => c.id)).toEqual([TEST, STAGING, PROD]);
    for (const c of clusters) {
      expect(c).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          status: 'succeeded',
          version: expect.stringMatching(/^dir-[0-9a-f]+#/),
          nodesReplaced: 0,
          pdbViolations: 0,
          nodesTerminatedTwice: 0,
          stateTransitions: expect.any(Number),
          simulatedSeconds: expect.any(Number),
          problems: [],
        }),
      );
      expect(c.stacks.length).toBeGreaterThanOrEqual(4);
      expect(c.stacks.every((s) => s.status === 'CREATE_COMPLETE')).toBe(true);
      expect(c.simulatedSeconds).toBeGreaterThan(0);
    }
    const invariants = loadWorld(created).invariants();
    expect(invariants).toEqual({ pdbViolations: 0, nodesTerminatedTwice: 0, details: [] });
  });

  it('(b) a second run has nothing to do: unchanged, ≤ 10 transitions each, nothing deployed or rolled', async () => {
    // Arrange
    const state = track(copyState(created, 'noop'));
    const before = loadWorld(state).apiCalls();

    // Act
    const run = await provision(state, 'examples/config', '--output', 'json');

    // Assert
    expect(run.code).toBe(0);
    for (const c of summaries(run.out)) {
      expect(c.status).toBe('unchanged');
      expect(c.stateTransitions).toBeLessThanOrEqual(10);
      expect(c.nodesReplaced).toBe(0);
    }
    const after = loadWorld(state).apiCalls();
    for (const call of ['stacks.deploy', 'pools.scale', 'pools.terminate', 'kube.evictPod', 'kube.apply'])
      expect([call, after[call] ?? 0]).toEqual([call, before[call] ?? 0]);
  });

  it('(c) a new worker image replaces exactly the outdated worker nodes, once each, masters untouched, with a live ETA', async () => {
    // Arrange
    const state = track(copyState(created, 'roll'));
    const config = track(configWithNewImage(['worker-default']));
    const before = { test: poolInstances(loadWorld(state), TEST), prod: poolInstances(loadWorld(state), PROD) };

    // Act
    const run = await provision(state, config, '--cluster', TEST, '--cluster', PROD);

    // Assert
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const world = loadWorld(state);
    const after = { test: poolInstances(world, TEST), prod: poolInstances(world, PROD) };
    // kube-test: its 2 workers; kube-prod: its 3 on-demand and 2 spot workers (both pools use worker-default)
    for (const [cluster, pools] of [
      ['test', ['default-worker']],
      ['prod', ['default-worker', 'spot-worker']],
    ] as const) {
      for (const pool of pools) {
        const old = before[cluster][pool]!.alive;
        // Every old node gone; the only other nodes gone are extras added for same-zone pairing, drained away
        // at the end, so the pool is back at its size.
        expect(after[cluster][pool]!.gone.filter((id) => old.includes(id))).toEqual(old);
        expect(after[cluster][pool]!.alive.length).toBe(old.length);
        expect(after[cluster][pool]!.alive.filter((id) => old.includes(id))).toEqual([]);
        const progress = latestRun(state, cluster === 'test' ? TEST : PROD).pools[pool]!;
        expect([pool, progress.status, progress.replaced, progress.total]).toEqual([
          pool,
          'done',
          old.length,
          old.length,
        ]);
      }
      expect(after[cluster]['master-default']).toEqual(before[cluster]['master-default']);
    }
    expect(world.invariants()).toEqual({ pdbViolations: 0, nodesTerminatedTwice: 0, details: [] });
    expect(run.out).toMatch(new RegExp(`succeeded +${TEST} .*nodes replaced 2, PDB violations 0`));
    expect(run.out).toMatch(new RegExp(`succeeded +${PROD} .*nodes replaced 5, PDB violations 0`));
    const lines = clusterLines(run.out, TEST);
    // masters untouched: no rollout child for a pool with nothing to roll
    expect(lines.filter((l) => l.includes('RollStep: master-default:'))).toEqual([]);
    expect(lines.filter((l) => l.includes('RollStep: default-worker:')).length).toBeGreaterThan(0);
    expect(lines.some((l) => /RollStep: default-worker: 1\/2 nodes replaced.*; ETA \d+(s|m\d\ds)$/.test(l))).toBe(true);
    expect(lines.some((l) => /RollStep: default-worker: 2\/2 nodes replaced.*ETA/.test(l))).toBe(false);
  });

  it('(c) with new master and worker images, every master is replaced before the first worker', async () => {
    // Arrange
    const state = track(copyState(created, 'roll-all'));
    const config = track(configWithNewImage(['master-default', 'worker-default']));

    // Act
    const run = await provision(state, config, '--cluster', TEST);

    // Assert
    expect(run.code).toBe(0);
    const pools = latestRun(state, TEST).pools;
    // Replaced (outdated) nodes only: extras added for same-zone pairing are drained away after the roll.
    const times = (pool: string): number[] =>
      Object.values(pools[pool]!.nodes)
        .filter((n) => !n.surplus)
        .map((n) => n.terminatedAt ?? Number.NaN);
    expect(times('master-default')).toHaveLength(1);
    expect(times('default-worker')).toHaveLength(2);
    expect(Math.max(...times('master-default'))).toBeLessThan(Math.min(...times('default-worker')));
    expect(loadWorld(state).invariants()).toEqual({ pdbViolations: 0, nodesTerminatedTwice: 0, details: [] });
  });

  it('(d) decommission deletes every stack of the clusters, without PDB violations', async () => {
    // Arrange
    const state = track(copyState(created, 'decommission'));

    // Act
    const run = await clm([
      'decommission',
      '--simulate',
      ...EXAMPLES,
      '--directory',
      'examples/config',
      '--state',
      state,
      '--output',
      'json',
    ]);

    // Assert
    expect(run.code).toBe(0);
    const world = loadWorld(state);
    for (const c of summaries(run.out)) {
      expect([c.id, c.status, c.pdbViolations]).toEqual([c.id, 'succeeded', 0]);
      expect(world.describe(c.id).stacks.filter((s) => s.status !== 'DELETE_COMPLETE')).toEqual([]);
      expect(Object.values(poolInstances(world, c.id)).flatMap((p) => p.alive)).toEqual([]);
    }
    expect(world.invariants().pdbViolations).toBe(0);
    expect(world.invariants().nodesTerminatedTwice).toBe(0);
  });
});

describe('clm provision --simulate with scenarios', () => {
  it('(e) a PDB that blocks evictions: the roll waits, says so, never forces, and succeeds', async () => {
    // Arrange: kube-test created in the pdb-blocks world (evictions of "payments" refused for 25 virtual minutes)
    const state = track(tempDir('pdb'));
    const create = await createInScenario(state, 'examples/scenarios/pdb-blocks.yaml');
    expect(create.code).toBe(0);
    const forcedBefore = loadWorld(state).apiCalls()['kube.deletePod'] ?? 0;

    // Act
    const run = await provision(state, track(configWithNewImage()), '--cluster', TEST);

    // Assert
    expect(run.code).toBe(0);
    const blocked = clusterLines(run.out, TEST).filter((l) => l.includes('blocked by PDB default/payments'));
    expect(blocked.length).toBeGreaterThanOrEqual(1);
    expect(run.out).toMatch(/nodes replaced 2, PDB violations 0/);
    const world = loadWorld(state);
    expect(world.apiCalls()['kube.deletePod'] ?? 0).toBe(forcedBefore);
    expect(world.invariants()).toEqual({ pdbViolations: 0, nodesTerminatedTwice: 0, details: [] });
  });

  it('(f) flaky AWS and Kubernetes APIs: every injected error is retried and both runs succeed', async () => {
    // Arrange
    const state = track(tempDir('flaky'));

    // Act: create, then roll (so pools.terminate and kube.evictPod are called too)
    const create = await createInScenario(state, 'examples/scenarios/flaky-apis.yaml');
    const roll = await provision(state, track(configWithNewImage()), '--cluster', TEST);

    // Assert
    expect([create.code, roll.code]).toEqual([0, 0]);
    expect(roll.out).toMatch(/succeeded +\S+ .*nodes replaced 2, PDB violations 0/);
    const world = loadWorld(state);
    const faults = world.scenario.faults.apiErrors;
    const uses = world.snapshot().faultUses.apiErrors;
    expect(faults.length).toBeGreaterThan(5);
    expect(faults.map((f, i) => `${f.on} ${uses[i]?.thrown ?? 0}/${f.times}`)).toEqual(
      faults.map((f) => `${f.on} ${f.times}/${f.times}`),
    );
    expect(world.invariants()).toEqual({ pdbViolations: 0, nodesTerminatedTwice: 0, details: [] });
  });
});
