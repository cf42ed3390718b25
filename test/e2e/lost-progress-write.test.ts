// The one window a SIGKILL can leave inconsistent under --state: the CLI saves the world, then the progress,
// after every task. Here the process "dies" between the two: the world on disk has the effects of task k,
// the progress only those of task k − 1. The same command run again must still finish exactly once.
// Every task of the update that changed the world is tried as k.
import { hostname } from 'node:os';
import { rmSync } from 'node:fs';
import { runClusterUpdate } from '../../lambdas/runtime/local/run-cluster-update';
import { configSourcesFromFlags } from '../../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../../lambdas/adapters/registry/create-registry';
import { createSimulatedSetup } from '../../lambdas/runtime/wiring/simulated-ports';
import {
  ROOT,
  TEST,
  clm,
  configWithNewImage,
  copyState,
  latestRun,
  loadWorld,
  poolInstances,
  tempDir,
  createKubeTest,
  kubeTestArgs,
} from './support/clm-session';
import type { CliRun } from './support/clm-session';
import type { SimulatedWorld } from '../../lambdas/sim';

const MUTATING = [
  'stacks.deploy',
  'stacks.delete',
  'pools.markForDecommission',
  'kube.scaleDeployment',
  'pools.scale',
  'pools.terminate',
  'kube.patchNode',
  'kube.evictPod',
  'kube.deletePod',
  'kube.apply',
  'kube.delete',
];
const temps: string[] = [];
let base: string;
let config: string;

beforeAll(async () => {
  base = tempDir('lost-base');
  config = configWithNewImage(['master-default', 'worker-default']);
  temps.push(base, config);
  await createKubeTest(base);
});

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** What a resumed run that did not exit 0 says: its exit code and the lines that name a failure. */
function exitProblem(run: CliRun): string {
  if (run.code === 0) return '';
  const failed = run.out.split('\n').filter((l) => l.includes('failed'));
  return `exit ${run.code}: ${failed.join(' | ')}`;
}

/** Each Auto Scaling group of a cluster's pools: desired, min and max capacity, by pool. */
function poolSizes(world: SimulatedWorld, clusterId: string): Record<string, string> {
  const sizes: Record<string, string> = {};
  for (const account of Object.values(world.snapshot().accounts))
    for (const asg of Object.values(account.asgs)) {
      if (asg.tags[`kubernetes.io/cluster/${clusterId}`]?.value !== 'owned') continue;
      sizes[asg.tags.NodePool?.value ?? asg.name] = `desired ${asg.desired} (min ${asg.min}, max ${asg.max})`;
    }
  return sizes;
}

/** The world's broken invariants: PDB violations and nodes terminated twice. */
function invariantProblems(world: SimulatedWorld): string[] {
  const { pdbViolations, nodesTerminatedTwice } = world.invariants();
  return [
    pdbViolations ? `PDB violations ${pdbViolations}` : '',
    nodesTerminatedTwice ? `nodes terminated twice ${nodesTerminatedTwice}` : '',
  ];
}

/**
 * Run the update as `clm provision` does (same execution id, world and progress saved after every task),
 * except that after task `freezeAt` only the world is saved and nothing after it. Returns the tasks that
 * changed the world and every step of a roll (a lost save of a step that only waited must be harmless too), by
 * position.
 */
async function runFrozen(
  state: string,
  freezeAt: number,
  action: 'provision' | 'decommission' = 'provision',
): Promise<{ mutating: { index: number; state: string }[] }> {
  const registry = createRegistry('examples/clusters.yaml', { cwd: ROOT });
  const sources = configSourcesFromFlags({ directory: config }, { cwd: ROOT });
  const clusters = (await registry.listClusters()).filter((c) => c.id === TEST);
  const sim = createSimulatedSetup({ stateDir: state, registry, sources, clusters });
  if (action === 'decommission') sim.decommissioning(TEST);
  let index = 0;
  let calls = sim.world.apiCalls();
  const mutating: { index: number; state: string }[] = [];
  await runClusterUpdate(
    { clusterId: TEST, action, options: { applyOnly: false }, trigger: 'cli' },
    {
      ports: sim.ports,
      executionId: `cli:${hostname()}:${TEST}`,
      advanceClock: (seconds) => sim.world.advance(seconds * 1000),
      onTask: (event) => {
        index++;
        const now = sim.world.apiCalls();
        if (MUTATING.some((call) => (now[call] ?? 0) > (calls[call] ?? 0)) || event.stateName === 'RollStep')
          mutating.push({ index, state: event.stateName });
        calls = now;
        if (index < freezeAt) sim.save();
        if (index === freezeAt) sim.world.save(state);
      },
    },
  );
  return { mutating };
}

describe('a progress write lost after the world was saved', () => {
  it('resumes to success after every world-changing task and roll step: each outdated node replaced once, each pool its size again', async () => {
    // Arrange: which tasks change the world (a full run that never freezes)
    const probe = copyState(base, 'lost-probe');
    temps.push(probe);
    const { mutating } = await runFrozen(probe, Number.POSITIVE_INFINITY);
    expect(mutating.length).toBeGreaterThan(5);
    const failures: string[] = [];

    for (const { index, state: stateName } of mutating) {
      const state = copyState(base, 'lost');
      temps.push(state);
      const before = poolInstances(loadWorld(state), TEST);
      const sizesBefore = poolSizes(loadWorld(state), TEST);
      // Act
      await runFrozen(state, index);
      const resumed = await clm(kubeTestArgs('provision', config, state));
      // Assert (collected, so one run reports every task that breaks)
      const world = loadWorld(state);
      const after = poolInstances(world, TEST);
      const run = latestRun(state, TEST);
      const problems = [
        exitProblem(resumed),
        ...invariantProblems(world),
        ...['master-default', 'default-worker'].map((pool) =>
          JSON.stringify(after[pool]!.gone.filter((id) => before[pool]!.alive.includes(id))) ===
          JSON.stringify(before[pool]!.alive)
            ? ''
            : `${pool}: gone ${after[pool]!.gone.join(',')} ≠ old ${before[pool]!.alive.join(',')}`,
        ),
        run.completedAt === undefined ? 'run not completed' : '',
        ...Object.entries(poolSizes(world, TEST))
          .filter(([pool, size]) => size !== sizesBefore[pool])
          .map(([pool, size]) => `${pool}: ${size}, was ${sizesBefore[pool]}`),
      ].filter(Boolean);
      if (problems.length) failures.push(`task #${index} ${stateName}: ${problems.join('; ')}`);
    }

    process.stdout.write(
      `lost-save sweep (provision): ${mutating.length} saves dropped, ${failures.length} anomalies\n`,
    );
    expect(failures).toEqual([]);
  });

  it('decommission resumes to success after every world-changing task: no stack and no node left', async () => {
    // Arrange
    const probe = copyState(base, 'lost-probe-decommission');
    temps.push(probe);
    const { mutating } = await runFrozen(probe, Number.POSITIVE_INFINITY, 'decommission');
    expect(mutating.length).toBeGreaterThan(2);
    const failures: string[] = [];

    for (const { index, state: stateName } of mutating) {
      const state = copyState(base, 'lost-decommission');
      temps.push(state);
      // Act
      await runFrozen(state, index, 'decommission');
      const resumed = await clm(kubeTestArgs('decommission', 'examples/config', state));
      // Assert
      const world = loadWorld(state);
      const problems = [
        exitProblem(resumed),
        ...world
          .describe(TEST)
          .stacks.filter((s) => s.status !== 'DELETE_COMPLETE')
          .map((s) => `stack ${s.name} ${s.status}`),
        ...Object.entries(poolInstances(world, TEST))
          .filter(([, p]) => p.alive.length > 0)
          .map(([pool, p]) => `${pool}: ${p.alive.length} instance(s) alive`),
        ...invariantProblems(world),
      ].filter(Boolean);
      if (problems.length) failures.push(`task #${index} ${stateName}: ${problems.join('; ')}`);
    }

    process.stdout.write(
      `lost-save sweep (decommission): ${mutating.length} saves dropped, ${failures.length} anomalies\n`,
    );
    expect(failures).toEqual([]);
  });
});
