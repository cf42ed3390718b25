import { rollNodePool } from '../../lambdas/tasks/roll-node-pool';
import type { RollStepOutput, RolloutState } from '../../lambdas/contracts/cluster-update';
import { fakeEnv, seedRun, testCluster, testPool, type FakeEnv } from '../support/fakes';
import type { NodePool } from '../../lambdas/core/model/cluster';

export const TARGET = 'c0ffee#abc';
export const HOLDER = 'exec-1';

export interface RollScenario {
  readonly pool?: Partial<NodePool>;
  readonly configItems?: Record<string, string>;
  readonly size: number;
  readonly zones?: readonly string[];
  /** Arrange workloads on the old nodes (named by `env.pools.nodeName`). */
  readonly workloads?: (env: FakeEnv, nodes: string[]) => void;
  readonly podStartMs?: number;
}

export interface RollWorld {
  readonly env: FakeEnv;
  readonly cluster: ReturnType<typeof testCluster>;
  readonly oldInstances: string[];
  readonly base: number;
}

export async function setupRoll(scenario: RollScenario): Promise<RollWorld> {
  const cluster = testCluster({ nodePools: [testPool(scenario.pool)] });
  const env = fakeEnv({ clusters: [cluster] });
  if (scenario.podStartMs !== undefined) env.kube.podStartMs = scenario.podStartMs;
  env.kube.addDaemonSet('kube-proxy');
  env.pools.addPool('workers', scenario.size, scenario.zones ?? ['eu-central-1a', 'eu-central-1b', 'eu-central-1c']);
  const oldInstances = [...env.pools.pools.get('workers')!.instances.map((i) => i.id)];
  scenario.workloads?.(
    env,
    oldInstances.map((id) => env.pools.nodeName(id)),
  );
  env.pools.bumpTemplate('workers');
  await seedRun(env, cluster, { targetVersion: TARGET, holder: HOLDER, configItems: scenario.configItems ?? {} });
  return { env, cluster, oldInstances, base: scenario.size };
}

export interface StepRecord {
  readonly line: string;
  readonly output: RollStepOutput;
}

/** One RollNodePool step, described by what changed in the world: scale, mark, cordon, evict, force, terminate. */
export async function step(
  world: RollWorld,
  index: number,
  holder: string,
  previous?: RollStepOutput,
): Promise<StepRecord> {
  const { env } = world;
  const nodesBefore = new Map([...env.kube.nodes.values()].map((n) => [n.name, { marked: n.taints.length > 0 }]));
  const poolCalls = env.pools.calls.length;
  const kubeCalls = env.kube.calls.length;
  const terminatedBefore = env.pools.terminated.length;
  const patchesBefore = env.kube.patches.length;
  // When the step acted: a step that then waits in process for a PDB-refused drain ends `waitedSeconds` later.
  const seconds = Math.round((env.clock.now() - START) / 1000);
  const input: RolloutState = {
    clusterId: world.cluster.id,
    targetVersion: TARGET,
    holder,
    pool: 'workers',
    options: { applyOnly: false },
    ...(previous ? { step: previous } : {}),
  };
  const output = await rollNodePool(input, env.ports);
  const newPool = env.pools.calls.slice(poolCalls);
  const newKube = env.kube.calls.slice(kubeCalls);
  const marked = [...env.kube.nodes.values()]
    .filter((n) => n.taints.length > 0 && nodesBefore.get(n.name)?.marked === false)
    .map((n) => n.name);
  const cordoned = env.kube.patches
    .slice(patchesBefore)
    .filter((p) => p.patch.unschedulable === true)
    .map((p) => p.node);
  const parts = [
    ...newPool.filter((c) => c.startsWith('scale')).map((c) => `scale→${c.split(' ')[2]}`),
    ...(marked.length ? [`mark ${marked.length}`] : []),
    ...(cordoned.length ? [`cordon ${cordoned.join(',')}`] : []),
    ...(count(newKube, 'evictPod') ? [`evict ${count(newKube, 'evictPod')}`] : []),
    ...newKube.filter((c) => c.startsWith('deletePod')).map((c) => `force ${c.split(' ')[1]}`),
    ...env.pools.terminated.slice(terminatedBefore).map((id) => `terminate ${id}`),
  ];
  const pool = env.pools.pools.get('workers')!;
  const waited = output.waitedSeconds !== undefined ? ` waited=${output.waitedSeconds}s` : '';
  const line = `#${String(index).padStart(2, '0')} t+${seconds}s desired=${pool.desired} ${output.status} [${parts.join('; ')}] wait=${output.waitSeconds}s${waited} | ${output.message}`;
  return { line, output };
}

const START = Date.parse('2024-05-01T12:00:00Z');
const count = (calls: readonly string[], prefix: string): number => calls.filter((c) => c.startsWith(prefix)).length;

export interface RollResult {
  readonly lines: string[];
  readonly steps: number;
  /** PDBs below their minimum, observed after any step. */
  readonly pdbBreaches: string[];
  readonly last: RollStepOutput;
  /** Every step's output, in order. */
  readonly outputs: RollStepOutput[];
}

/** Run steps until DONE (or `maxSteps`), advancing the fake clock by each step's waitSeconds. */
export async function rollUntilDone(
  world: RollWorld,
  options: { holder?: string; maxSteps?: number; from?: number; previous?: RollStepOutput } = {},
): Promise<RollResult> {
  const lines: string[] = [];
  const pdbBreaches: string[] = [];
  const outputs: RollStepOutput[] = [];
  let previous = options.previous;
  const first = options.from ?? 1;
  for (let i = first; i < first + (options.maxSteps ?? 400); i++) {
    const { line, output } = await step(world, i, options.holder ?? HOLDER, previous);
    lines.push(line);
    pdbBreaches.push(...world.env.kube.pdbsBelowMinimum().map((b) => `step ${i}: ${b}`));
    previous = output;
    outputs.push(output);
    if (output.status === 'DONE') return { lines, steps: i - first + 1, pdbBreaches, last: output, outputs };
    world.env.clock.advance(output.waitSeconds * 1000);
  }
  throw new Error(`roll did not finish in ${options.maxSteps ?? 400} steps:\n${lines.slice(-10).join('\n')}`);
}
