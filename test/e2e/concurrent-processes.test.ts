// Two `clm provision --simulate` processes (real child processes) on one --state directory.
// - On one cluster: the second is refused, naming the first as the lease holder, while the first lives (here it is
//   stopped with SIGSTOP, so it is certainly alive and holding its lease); the first then finishes its roll alone.
// - On two different clusters (in the same account and region), started at once on an empty directory: both finish,
//   and neither loses the other's progress, stacks or nodes.
import { rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { startClm, stopOutsideLock } from './support/clm-process';
import {
  EXAMPLES,
  STAGING,
  TEST,
  clm,
  configWithNewImage,
  latestRun,
  loadProgress,
  loadWorld,
  poolInstances,
  tempDir,
} from './support/clm-session';

const SLOW = 240_000;
const temps: string[] = [];
const track = (dir: string): string => {
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const provisionArgs = (state: string, config: string, ...clusters: string[]) => [
  'provision',
  '--simulate',
  ...EXAMPLES,
  '--directory',
  config,
  '--state',
  state,
  ...clusters.flatMap((id) => ['--cluster', id]),
];

describe('two clm processes on one --state directory', () => {
  it(
    'refuses the second process on the same cluster, naming the first as the holder; the first finishes alone',
    async () => {
      const state = track(tempDir('same-cluster'));
      const created = await clm(provisionArgs(state, 'examples/config', TEST));
      expect(created.code).toBe(0);
      const config = track(configWithNewImage(['worker-default']));
      const old = poolInstances(loadWorld(state), TEST)['default-worker']!.alive;

      const first = startClm(provisionArgs(state, config, TEST));
      await first.progress(/RollWorkerPools|RollStep/);
      await stopOutsideLock(first.pid, state);
      let second;
      try {
        second = await clm([...provisionArgs(state, config, TEST), '--output', 'json']);
      } finally {
        process.kill(first.pid, 'SIGCONT');
      }
      const firstRun = await first.done;

      const [refused] = (JSON.parse(second.out) as { clusters: { status: string; message: string }[] }).clusters;
      expect(refused.status).toBe('skipped');
      expect(second.code).toBe(3);
      expect(refused.message).toContain(`being updated by cli:${hostname()}:${first.pid}:`);
      expect(firstRun.code).toBe(0);
      expect(firstRun.out).toMatch(new RegExp(`${TEST}: succeeded`));
      const record = latestRun(state, TEST);
      expect(record.completedAt).toBeDefined();
      expect(record.holder).toMatch(new RegExp(`^cli:${hostname()}:${first.pid}:`));
      // Each outdated node replaced once, the pool back at its size.
      const after = poolInstances(loadWorld(state), TEST)['default-worker']!;
      expect(after.gone.filter((id) => old.includes(id))).toEqual(old);
      expect(after.alive).toHaveLength(old.length);
      expect(record.pools['default-worker']).toMatchObject({ replaced: old.length, total: old.length });
      expect(loadWorld(state).invariants().nodesTerminatedTwice).toBe(0);
      expect(loadProgress(state).leases[TEST]).toBeUndefined();
    },
    SLOW,
  );

  it(
    'lets two processes on different clusters both finish from an empty directory without losing either',
    async () => {
      const state = track(tempDir('two-clusters'));
      const a = startClm(provisionArgs(state, 'examples/config', TEST));
      const b = startClm(provisionArgs(state, 'examples/config', STAGING));
      const [runA, runB] = await Promise.all([a.done, b.done]);

      expect([runA.code, runB.code]).toEqual([0, 0]);
      expect(runA.out).toContain(`${TEST}: succeeded`);
      expect(runB.out).toContain(`${STAGING}: succeeded`);
      const world = loadWorld(state);
      for (const id of [TEST, STAGING]) {
        const cluster = world.describe(id);
        expect(cluster.stacks.length).toBeGreaterThanOrEqual(3);
        expect(cluster.stacks.every((s) => s.status === 'CREATE_COMPLETE')).toBe(true);
        expect(cluster.nodes.length).toBeGreaterThan(0);
        expect(latestRun(state, id).completedAt).toBeDefined();
      }
      expect(world.invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });

      // Nothing was lost: the same command again has nothing to do for either cluster.
      const again = await clm([...provisionArgs(state, 'examples/config', TEST, STAGING), '--output', 'json']);
      const statuses = (JSON.parse(again.out) as { clusters: { id: string; status: string }[] }).clusters;
      expect(statuses).toEqual([
        expect.objectContaining({ id: TEST, status: 'unchanged' }),
        expect.objectContaining({ id: STAGING, status: 'unchanged' }),
      ]);
    },
    SLOW,
  );
});
