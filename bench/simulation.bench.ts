/**
 * Workflow budgets (DESIGN.md §8), measured by running the deployed ASL in process (local executor) over
 * the simulated world, exactly as `clm provision --simulate` does:
 *  - state transitions of a no-op check (≤ 10), of an update without node changes (≤ 60), and per replaced
 *    node on top of that (≤ 12);
 *  - the most history events of any single execution (< 20,000), including a drain a PDB blocks for 14 h;
 *  - the roll time of an isolated pool of N nodes against ⌈N / surge⌉ × (boot + drain + terminate) (≤ 1.15×);
 *  - AWS and Kubernetes API calls per replaced node (made by RollStep tasks, counted by the world).
 * The isolated roll: one cluster, a worker pool of 9 nodes (surge 3), a 9-replica Deployment without PDB,
 * timings boot 90 s, pod termination 30 s, instance termination 30 s; canary off (and, reported apart, on).
 */
import { ClusterUpdateOutput } from '../lambdas/contracts/cluster-update';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runClusterUpdate } from '../lambdas/runtime/local/run-cluster-update';
import { configSourcesFromFlags } from '../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../lambdas/adapters/registry/create-registry';
import { createSimulatedSetup } from '../lambdas/runtime/wiring/simulated-ports';
import type { ScenarioInput } from '../lambdas/sim';
import type { PoolProgress } from '../lambdas/core/model/run';
import type { BenchResult } from './bench-result';
import { withBudget } from './bench-result';

export const name = 'simulation';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const WORKER_STACK = 'cluster/node-pools/worker-default/stack.yaml';
const AMI_LINE = 'ImageId: {{NodePool.ConfigItems.ami_id}}';
const TIMINGS = {
  instanceBootSeconds: 90,
  podTerminationSeconds: 30,
  instanceTerminateSeconds: 30,
  podStartSeconds: 10,
};
const POOL_SIZE = 9;
const SURGE = 3;

interface RunFigures {
  readonly status: string;
  readonly decision: string;
  readonly transitions: number;
  readonly maxHistoryEvents: number;
  readonly replaced: number;
  readonly pools: Readonly<Record<string, PoolProgress>>;
  /** API calls made by RollStep tasks, AWS (stacks, pools, lookups, values) and Kubernetes (kube.*). */
  readonly rollCalls: { aws: number; kube: number };
}

/** A state directory, a registry file and a config directory, run like `clm provision --simulate`. */
class Session {
  readonly dir = mkdtempSync(join(tmpdir(), 'clm-bench-sim-'));
  readonly config = join(this.dir, 'config');
  readonly state = join(this.dir, 'state');
  readonly registry = join(this.dir, 'clusters.yaml');

  constructor(registryYaml: string, scenario: ScenarioInput, prepareConfig: (dir: string) => void = () => undefined) {
    cpSync(join(ROOT, 'examples/config'), this.config, { recursive: true });
    prepareConfig(this.config);
    writeFileSync(this.registry, registryYaml);
    writeFileSync(join(this.dir, 'scenario.json'), JSON.stringify(scenario));
  }

  edit(path: string, change: (text: string) => string): void {
    const file = join(this.config, path);
    writeFileSync(file, change(readFileSync(file, 'utf8')));
  }

  async run(clusterId: string): Promise<RunFigures> {
    const registry = createRegistry(this.registry, { cwd: this.dir });
    const sources = configSourcesFromFlags({ directory: this.config }, { cwd: this.dir });
    const clusters = (await registry.listClusters()).filter((c) => c.id === clusterId);
    const sim = createSimulatedSetup({
      stateDir: this.state,
      registry,
      sources,
      clusters,
      scenarioFile: join(this.dir, 'scenario.json'),
    });
    let last = sim.world.apiCalls();
    const rollCalls = { aws: 0, kube: 0 };
    const result = await runClusterUpdate(
      { clusterId, action: 'provision', options: { applyOnly: false }, trigger: 'cli' },
      {
        ports: sim.ports,
        executionId: `bench:${clusterId}`,
        advanceClock: (seconds) => sim.world.advance(seconds * 1000),
        onTask: (event) => {
          const now = sim.world.apiCalls();
          if (event.task.name === 'RollNodePool') {
            for (const [call, count] of Object.entries(now)) {
              const delta = count - (last[call] ?? 0);
              if (call.startsWith('kube.')) rollCalls.kube += delta;
              else rollCalls.aws += delta;
            }
          }
          last = now;
        },
      },
    );
    sim.save();
    const run = result.status === 'SUCCEEDED' ? ClusterUpdateOutput.parse(result.output).run : undefined;
    const record = run?.targetVersion ? await sim.progress.getRun(clusterId, run.targetVersion) : undefined;
    const pools = record?.pools ?? {};
    if (result.status !== 'SUCCEEDED') throw new Error(`${clusterId}: ${result.error?.Error}: ${result.error?.Cause}`);
    const invariants = sim.world.invariants();
    if (invariants.pdbViolations || invariants.nodesTerminatedTwice)
      throw new Error(`${clusterId}: invariants broken: ${invariants.details.join('; ')}`);
    return {
      status: result.status,
      decision: run?.decision ?? '',
      transitions: result.stats.stateTransitions,
      maxHistoryEvents: result.stats.maxHistoryEvents,
      replaced: Object.values(pools).reduce((n, p) => n + p.replaced, 0),
      pools,
      rollCalls,
    };
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function registryYaml(id: string, workers: number, items: Record<string, string>): string {
  const localId = id.split(':').pop()!;
  return `clusters:
  - id: ${id}
    alias: ${localId}
    local_id: ${localId}
    api_server_url: https://${localId}.test.example.org
    channel: main
    environment: test
    criticality_level: 1
    infrastructure_account: aws:123456789012
    lifecycle_status: ready
    provider: zalando-aws
    region: eu-central-1
    config_items: ${JSON.stringify({ team: 'platform', ...items })}
    node_pools:
      - { name: master-default, profile: master-default, instance_types: [m6i.large], discount_strategy: none, min_size: 1, max_size: 1 }
      - { name: workers, profile: worker-default, instance_types: [m6i.large], discount_strategy: none, min_size: ${workers}, max_size: ${workers + SURGE} }
    status: {}
`;
}

/** Only stateless manifests, so nothing but the roll itself is measured (no AZ pairing, no PDB waits). */
function statelessConfig(dir: string): void {
  for (const component of ['05-backup-policies', '10-coredns', '20-web', '30-database'])
    rmSync(join(dir, 'cluster/manifests', component), { recursive: true });
  writeFileSync(join(dir, 'cluster/manifests/deletions.yaml'), 'pre_apply: []\npost_apply: []\n');
}

const changeAmi = (text: string): string => text.replace(AMI_LINE, 'ImageId: ami-0feedface0001');

interface Measured {
  readonly noop: RunFigures;
  readonly noNodeChanges: RunFigures;
  readonly roll: RunFigures;
  readonly create: RunFigures;
}

/** Create, no-op, a manifest-only update, then a new worker image: the whole life of one cluster. */
async function isolatedRoll(canary: boolean): Promise<Measured> {
  const id = `aws:123456789012:eu-central-1:kube-bench${canary ? '-canary' : ''}`;
  const scenario: ScenarioInput = {
    seed: 3,
    timings: TIMINGS,
    clusters: {
      [id]: {
        workloads: [
          {
            kind: 'Deployment',
            name: 'app',
            replicas: POOL_SIZE,
            terminationGracePeriodSeconds: TIMINGS.podTerminationSeconds,
          },
        ],
      },
    },
  };
  const session = new Session(
    registryYaml(id, POOL_SIZE, canary ? {} : { update_canary: 'false' }),
    scenario,
    statelessConfig,
  );
  try {
    const create = await session.run(id);
    const noop = await session.run(id);
    session.edit(
      'cluster/manifests/01-namespaces/namespaces.yaml',
      (text) => `${text.trimEnd()}\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: bench-extra\n`,
    );
    const noNodeChanges = await session.run(id);
    session.edit(WORKER_STACK, changeAmi);
    const roll = await session.run(id);
    return { create, noop, noNodeChanges, roll };
  } finally {
    session.dispose();
  }
}

/** A drain a PDB blocks for 14 virtual hours (drain grace 24 h: never forced): the rollout hands over to new executions. */
async function longDrain(): Promise<RunFigures> {
  const id = 'aws:123456789012:eu-central-1:kube-longdrain';
  const scenario: ScenarioInput = {
    seed: 5,
    timings: TIMINGS,
    clusters: {
      [id]: {
        workloads: [{ kind: 'Deployment', name: 'app', replicas: 2 }],
        pdbs: [{ name: 'app', selector: { app: 'app' }, maxUnavailable: 1, blockEvictionsUntilSeconds: 14 * 3600 }],
      },
    },
  };
  const session = new Session(
    registryYaml(id, 2, { update_canary: 'false', drain_grace_period: '24h' }),
    scenario,
    statelessConfig,
  );
  try {
    await session.run(id);
    session.edit(WORKER_STACK, changeAmi);
    return await session.run(id);
  } finally {
    session.dispose();
  }
}

/** kube-test of the examples (stateful pods: same-AZ pairing), default world: a manifest change, then a new worker image. */
async function examplesRoll(): Promise<{ noNodeChanges: RunFigures; roll: RunFigures }> {
  const id = 'aws:123456789012:eu-central-1:kube-test';
  const session = new Session(readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8'), {});
  try {
    await session.run(id);
    session.edit(
      'cluster/manifests/01-namespaces/namespaces.yaml',
      (text) => `${text.trimEnd()}\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: bench-extra\n`,
    );
    const noNodeChanges = await session.run(id);
    session.edit(WORKER_STACK, changeAmi);
    return { noNodeChanges, roll: await session.run(id) };
  } finally {
    session.dispose();
  }
}

function rollSeconds(pool: PoolProgress | undefined): number {
  if (pool?.startedAt === undefined || pool.completedAt === undefined)
    throw new Error('the worker pool did not finish its roll');
  return (pool.completedAt - pool.startedAt) / 1000;
}

export async function run(): Promise<BenchResult[]> {
  const plain = await isolatedRoll(false);
  const canary = await isolatedRoll(true);
  const drain = await longDrain();
  const examples = await examplesRoll();
  const batch = TIMINGS.instanceBootSeconds + TIMINGS.podTerminationSeconds + TIMINGS.instanceTerminateSeconds;
  const lowerBound = Math.ceil(POOL_SIZE / SURGE) * batch;
  const plainSeconds = rollSeconds(plain.roll.pools.workers);
  const canarySeconds = rollSeconds(canary.roll.pools.workers);
  const replaced = plain.roll.replaced;
  const perNode = (plain.roll.transitions - plain.noNodeChanges.transitions) / replaced;
  const maxHistory = Math.max(
    ...[plain, canary].flatMap((m) => [m.create, m.noop, m.noNodeChanges, m.roll]).map((r) => r.maxHistoryEvents),
    drain.maxHistoryEvents,
    examples.roll.maxHistoryEvents,
  );
  const examplesPerNode = (examples.roll.transitions - examples.noNodeChanges.transitions) / examples.roll.replaced;
  const drainMinutes = Math.round(rollSeconds(drain.pools.workers) / 60);
  return [
    withBudget({
      name: 'state transitions, no-op check',
      value: plain.noop.transitions,
      unit: 'transitions',
      budget: 10,
      note: `decision ${plain.noop.decision}`,
    }),
    withBudget({
      name: 'state transitions, update without node changes',
      value: plain.noNodeChanges.transitions,
      unit: 'transitions',
      budget: 60,
      note: 'one manifest added; every stack NO_CHANGES; one rollout child per pool',
    }),
    withBudget({
      name: 'state transitions per replaced node',
      value: perNode,
      unit: 'transitions',
      budget: 12,
      note: `(${plain.roll.transitions} − ${plain.noNodeChanges.transitions}) / ${replaced} nodes; includes the pool stack update polls`,
    }),
    {
      name: 'state transitions, cluster creation',
      value: plain.create.transitions,
      unit: 'transitions',
      note: 'stacks created and polled, API server wait; informative',
    },
    withBudget({
      name: 'max history events of one execution',
      value: maxHistory,
      unit: 'events',
      budget: 19_999,
      note: `every run incl. a PDB-blocked drain of ${drainMinutes} min (${drain.transitions} transitions)`,
    }),
    withBudget({
      name: `roll time ratio, ${POOL_SIZE} nodes surge ${SURGE}, no canary`,
      value: plainSeconds / lowerBound,
      unit: '×',
      budget: 1.15,
      note: `${plainSeconds} s vs ⌈${POOL_SIZE}/${SURGE}⌉ × (${TIMINGS.instanceBootSeconds}+${TIMINGS.podTerminationSeconds}+${TIMINGS.instanceTerminateSeconds}) = ${lowerBound} s; below 1: replacements boot while old instances shut down`,
    }),
    {
      name: `roll time ratio, ${POOL_SIZE} nodes surge ${SURGE}, canary (default)`,
      value: canarySeconds / lowerBound,
      unit: '×',
      note: `${canarySeconds} s; the canary adds a batch: ${(Math.ceil((POOL_SIZE - 1) / SURGE) + 1) * batch} s bound with it`,
    },
    withBudget({
      name: 'state transitions per replaced node, examples kube-test',
      value: examplesPerNode,
      unit: 'transitions',
      budget: 12,
      note: `(${examples.roll.transitions} − ${examples.noNodeChanges.transitions}) / ${examples.roll.replaced}; a node with volumes waits for a new node in its AZ`,
    }),
    {
      name: 'AWS API calls per replaced node',
      value: plain.roll.rollCalls.aws / replaced,
      unit: 'calls',
      note: `${plain.roll.rollCalls.aws} by RollStep tasks for ${replaced} nodes (getPool, scale, terminate)`,
    },
    {
      name: 'Kubernetes API calls per replaced node',
      value: plain.roll.rollCalls.kube / replaced,
      unit: 'calls',
      note: `${plain.roll.rollCalls.kube} by RollStep tasks for ${replaced} nodes (list, patch, evict)`,
    },
  ];
}
