// Operator controls on a running roll (a real child process): pause, abort and cluster_update_block stop it at a
// safe point — the process is frozen (SIGSTOP) at its first roll step, the control is set, it goes on — and the run
// ends as held (exit 3) with its lease released; the next provision is skipped until the control is lifted, then
// continues from the stored progress. Every outdated node is replaced exactly once, without a PDB violation.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startClm, stopOutsideLock } from './support/clm-process';
import {
  ROOT,
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
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

interface Summary {
  readonly status: string;
  readonly message: string;
  readonly nodesReplaced: number;
  readonly pdbViolations: number;
  readonly nodesTerminatedTwice: number;
}

interface Setup {
  readonly state: string;
  readonly config: string;
  readonly registry: string[];
  readonly old: string[];
}

/**
 * examples/clusters.yaml with kube-test's default-worker at 4 nodes: a roll replaces one node at a time (surge 1), so
 * once the first is replaced at most one more is in flight, and a control set then always finds nodes left to hold.
 */
const FOUR_WORKERS = readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8').replace(
  '        min_size: 2\n        max_size: 3\n',
  '        min_size: 4\n        max_size: 5\n',
);

/** kube-test created with four workers in a fresh state directory, and the config that rolls them. */
async function setUp(): Promise<Setup> {
  const state = tempDir('controls');
  const config = configWithNewImage();
  temps.push(state, config);
  expect(FOUR_WORKERS).toContain('min_size: 4');
  const registry = join(state, 'clusters.yaml');
  writeFileSync(registry, FOUR_WORKERS);
  const created = await clm([
    ...['provision', '--simulate', '--registry', registry, '--directory', 'examples/config'],
    ...['--state', state, '--cluster', TEST],
  ]);
  expect(created.code).toBe(0);
  const old = poolInstances(loadWorld(state), TEST)['default-worker']!.alive;
  expect(old).toHaveLength(4);
  return { state, config, registry: ['--registry', registry], old };
}

const provisionArgs = (s: Setup, registry = s.registry) => [
  ...['provision', '--simulate', ...registry, '--directory', s.config, '--state', s.state, '--cluster', TEST],
];

/**
 * Provision in a child process, apply `control` while it is frozen once the first node of the pool was replaced (a
 * node boundary mid-roll), let it finish.
 */
async function heldRun(s: Setup, control: () => Promise<void>): Promise<{ code: number | null; out: string }> {
  // Each Wait also sleeps 0.5 % of its virtual time (a boot: about a second), so the roll is still under way when the
  // process is frozen, however late this test sees the progress line on a loaded machine.
  const child = startClm(provisionArgs(s), { CLM_LOCAL_WAIT_SCALE: '0.005' });
  await child.progress(/default-worker: 1\/\d+ nodes replaced/);
  await stopOutsideLock(child.pid, s.state);
  try {
    await control();
  } finally {
    process.kill(child.pid, 'SIGCONT');
  }
  const run = await child.done;
  // Stopped mid-roll: some but not all of the old nodes replaced.
  const replaced = latestRun(s.state, TEST).pools['default-worker']!.replaced;
  expect(replaced).toBeGreaterThanOrEqual(1);
  expect(replaced).toBeLessThan(s.old.length);
  return { code: run.code, out: run.out };
}

async function provisionJson(s: Setup, registry = s.registry): Promise<{ code: number; summary: Summary }> {
  const run = await clm([...provisionArgs(s, registry), '--output', 'json']);
  return { code: run.code, summary: (JSON.parse(run.out) as { clusters: Summary[] }).clusters[0]! };
}

/** The roll finished: each old node replaced exactly once, the pool back at its size, no PDB violated. */
function expectRolledOnce(s: Setup, last: Summary): void {
  expect(last).toMatchObject({ status: 'succeeded', pdbViolations: 0, nodesTerminatedTwice: 0 });
  const after = poolInstances(loadWorld(s.state), TEST)['default-worker']!;
  expect(after.gone.filter((id) => s.old.includes(id)).sort()).toEqual([...s.old].sort());
  expect(after.alive).toHaveLength(s.old.length);
  expect(loadWorld(s.state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  expect(latestRun(s.state, TEST).pools['default-worker']).toMatchObject({ replaced: s.old.length });
}

describe('pause, abort and cluster_update_block on a running roll', () => {
  it(
    'pause: held at a safe point with the reason, skipped while paused, finished after resume',
    async () => {
      const s = await setUp();
      const held = await heldRun(s, async () => {
        const paused = await clm(['pause', TEST, ...s.registry, '--state', s.state, '--reason', 'incident 42']);
        expect(paused.code).toBe(0);
      });
      expect(held.code).toBe(3);
      expect(held.out).toMatch(new RegExp(`held +${TEST}`));
      expect(held.out).toContain('paused by ');
      expect(held.out).toContain('incident 42');
      expect(loadProgress(s.state).leases[TEST]).toBeUndefined();
      expect(latestRun(s.state, TEST).phase).toMatch(/^PAUSED: /);
      const status = await clm(['status', ...s.registry, '--state', s.state, '--cluster', TEST]);
      expect(status.out).toContain('updates paused by ');

      expect(await provisionJson(s)).toMatchObject({ code: 3, summary: { status: 'skipped' } });
      expect((await clm(['resume', TEST, ...s.registry, '--state', s.state])).code).toBe(0);
      const resumed = await provisionJson(s);
      expect(resumed.code).toBe(0);
      expectRolledOnce(s, resumed.summary);
    },
    SLOW,
  );

  it(
    'abort: held, recorded as aborted, and stays stopped until resumed',
    async () => {
      const s = await setUp();
      const held = await heldRun(s, async () => {
        expect((await clm(['abort', TEST, ...s.registry, '--state', s.state, '--reason', 'wrong image'])).code).toBe(0);
      });
      expect(held.code).toBe(3);
      expect(latestRun(s.state, TEST).phase).toMatch(/^ABORTED: .*wrong image/);
      expect(loadProgress(s.state).controls[TEST]).toMatchObject({ paused: true, reason: 'aborted: wrong image' });
      expect(await provisionJson(s)).toMatchObject({ code: 3, summary: { status: 'skipped' } });
      await clm(['resume', TEST, ...s.registry, '--state', s.state]);
      expectRolledOnce(s, (await provisionJson(s)).summary);
    },
    SLOW,
  );

  it(
    'cluster_update_block set in the registry mid-roll: held as blocked, continues once removed',
    async () => {
      const s = await setUp();
      const registry = join(s.state, 'clusters.yaml');
      const text = FOUR_WORKERS;
      const block = s;
      const held = await heldRun(block, async () => {
        writeFileSync(
          registry,
          text.replace('      team: platform\n', '      team: platform\n      cluster_update_block: freeze\n'),
        );
      });
      expect(held.code).toBe(3);
      expect(held.out).toContain('config item cluster_update_block (freeze)');
      expect(latestRun(s.state, TEST).phase).toMatch(/^BLOCKED: /);
      writeFileSync(registry, text);
      expectRolledOnce(s, (await provisionJson(block)).summary);
    },
    SLOW,
  );
});
