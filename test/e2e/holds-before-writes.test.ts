// A hold set while an update is under way — an operator's pause, or cluster_update_block added to the registry — is
// honoured before the next step that writes: after it, no stack is deployed, no manifest applied or deleted, no pool
// scaled; the update ends held (not succeeded), and `clm resume` finishes it. Tried after every task of an update
// with new node images and of one that changes only a manifest.
import { hostname } from 'node:os';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runClusterUpdate } from '../../lambdas/runtime/local/run-cluster-update';
import { configSourcesFromFlags } from '../../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../../lambdas/adapters/registry/create-registry';
import { createSimulatedSetup } from '../../lambdas/runtime/wiring/simulated-ports';
import type { Registry } from '../../lambdas/ports/registry';
import {
  ROOT,
  TEST,
  clm,
  configWithNewImage,
  copyState,
  createKubeTest,
  kubeTestArgs,
  tempDir,
} from './support/clm-session';

/** Calls that start new work on the cluster (finishing a node already cordoned is not new work). */
const NEW_WORK = [
  'stacks.deploy',
  'stacks.delete',
  'kube.apply',
  'kube.delete',
  'pools.scale',
  'pools.markForDecommission',
];
const temps: string[] = [];
let base: string;

beforeAll(async () => {
  base = tempDir('holds-base');
  temps.push(base);
  await createKubeTest(base);
});

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** examples/config with one manifest changed: an update that touches no stack template and no node. */
function configWithNewGreeting(): string {
  const dir = tempDir('config-greeting');
  cpSync(join(ROOT, 'examples/config'), dir, { recursive: true });
  const file = join(dir, 'cluster/manifests/20-web/configmap.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('Hello from', 'Hi from'));
  return dir;
}

/** The registry, with `cluster_update_block` on kube-test once `blocked()` says so. */
function blockingRegistry(inner: Registry, blocked: () => boolean): Registry {
  return Object.assign(Object.create(inner) as Registry, {
    listClusters: async () =>
      (await inner.listClusters()).map((c) =>
        c.id === TEST && blocked() ? { ...c, configItems: { ...c.configItems, cluster_update_block: 'freeze' } } : c,
      ),
  });
}

interface HeldRun {
  readonly tasks: string[];
  /** New work started after the hold was set, by call. */
  readonly after: Record<string, number>;
  readonly status: string;
  readonly held?: string;
}

/** The update as `clm provision` runs it, with the hold set right after task `holdAfter` (1-based). */
async function runWithHold(
  state: string,
  config: string,
  holdAfter: number,
  hold: 'pause' | 'block',
): Promise<HeldRun> {
  let holding = false;
  const files = createRegistry('examples/clusters.yaml', { cwd: ROOT });
  const registry = blockingRegistry(files, () => hold === 'block' && holding);
  const sources = configSourcesFromFlags({ directory: config }, { cwd: ROOT });
  const clusters = (await files.listClusters()).filter((c) => c.id === TEST);
  const sim = createSimulatedSetup({ stateDir: state, registry, sources, clusters });
  const tasks: string[] = [];
  let mark: Record<string, number> = {};
  const result = await runClusterUpdate(
    { clusterId: TEST, action: 'provision', options: { applyOnly: false }, trigger: 'cli' },
    {
      ports: sim.ports,
      executionId: `cli:${hostname()}:${TEST}`,
      advanceClock: (seconds) => sim.world.advance(seconds * 1000),
      onTask: async (event) => {
        tasks.push(event.stateName);
        if (tasks.length === holdAfter) {
          holding = true;
          if (hold === 'pause') await sim.ports.progress.putControls(TEST, { paused: true, reason: 'probe' });
          mark = { ...sim.world.apiCalls() };
        }
        sim.save();
      },
    },
  );
  const calls = sim.world.apiCalls();
  const after = Object.fromEntries(
    NEW_WORK.map((c) => [c, (calls[c] ?? 0) - (mark[c] ?? 0)] as const).filter(([, n]) => holding && n > 0),
  );
  const held = (result.output as { held?: { status: string } } | undefined)?.held?.status;
  return { tasks, after, status: result.status, ...(held ? { held } : {}) };
}

describe('a hold set during an update stops it before the next write', () => {
  const cases: [string, () => string, 'pause' | 'block', string][] = [
    ['new node images, paused', () => configWithNewImage(['master-default', 'worker-default']), 'pause', 'PAUSED'],
    ['a manifest-only change, paused', configWithNewGreeting, 'pause', 'PAUSED'],
    ['a manifest-only change, cluster_update_block added', configWithNewGreeting, 'block', 'BLOCKED'],
  ];
  for (const [name, makeConfig, hold, expected] of cases) {
    it(`${name}: no new write after the hold, wherever it comes; resumed, the update finishes`, async () => {
      // Arrange: every task of the update, uninterrupted
      const config = makeConfig();
      temps.push(config);
      const probe = copyState(base, 'holds-probe');
      temps.push(probe);
      const { tasks } = await runWithHold(probe, config, Number.POSITIVE_INFINITY, hold);
      const writers = tasks.filter((t) => /Deploy|Apply|Deletions|Roll|Remove/.test(t)).length;
      expect(writers).toBeGreaterThan(3);
      const failures: string[] = [];

      // Before each task that follows Prepare, up to the last one that writes
      const last = tasks.findLastIndex((t) => /Deploy|Apply|Deletions|Roll|Remove/.test(t));
      for (let holdAfter = 1; holdAfter <= last; holdAfter++) {
        const state = copyState(base, 'holds');
        temps.push(state);
        // Act
        const run = await runWithHold(state, config, holdAfter, hold);
        // Assert (collected: one run names every point that lets a write through)
        const problems = [
          Object.keys(run.after).length ? `new work after the hold: ${JSON.stringify(run.after)}` : '',
          run.held === expected ? '' : `ended ${run.status} ${run.held ?? 'not held'}`,
        ].filter(Boolean);
        if (problems.length) failures.push(`hold after #${holdAfter} ${tasks[holdAfter - 1]}: ${problems.join('; ')}`);
        if (holdAfter === last && hold === 'pause') {
          const resumed = await clm(['resume', TEST, '--registry', 'examples/clusters.yaml', '--state', state]);
          const finished = await clm(kubeTestArgs('provision', config, state));
          if (resumed.code !== 0 || finished.code !== 0) failures.push(`resume: ${finished.out.slice(-500)}`);
        }
      }

      expect(failures).toEqual([]);
    });
  }
});
