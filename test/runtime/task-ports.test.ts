// Every Lambda task runs with only the ports its handler wires (TASK_PORTS through lazyPorts): the cluster-update state
// machine runs in process (local executor) over the simulated world, and each task gets a Ports cut down to its
// TASK_PORTS entry. A task touching anything else fails its execution with "not wired". The runs cover a failed
// update (RecordProblem), a first provision, an update that rolls nodes and removes a pool, and a decommission; the
// test also checks that every member a task lists is really touched, so the table does not over-wire.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import type { ExecutionResult, LocalExecutorOptions } from '../../lambdas/runtime/local/asl-runner';
import type { ClusterUpdateInput } from '../../lambdas/contracts/cluster-update';
import type { Cluster } from '../../lambdas/core/model/cluster';
import type { ClusterPorts, Ports } from '../../lambdas/ports/ports';
import type { AnyTask, TaskName } from '../../lambdas/tasks/cluster-update-tasks';
import { configSourcesFromFlags } from '../../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../../lambdas/adapters/registry/create-registry';
import { createSimulatedSetup } from '../../lambdas/runtime/wiring/simulated-ports';
import { lazyPorts } from '../../lambdas/runtime/restrict-ports';
import type { TaskPortFactories } from '../../lambdas/runtime/restrict-ports';
import { TASK_PORTS } from '../../lambdas/adapters/wiring/task-ports';
import type { ClusterPortName, PortName } from '../../lambdas/adapters/wiring/task-ports';

const ROOT = join(__dirname, '..', '..', '..');
const CLUSTER_ID = 'aws:123456789012:eu-central-1:kube-test';
const TASK_NAMES = Object.keys(TASK_PORTS) as TaskName[];
const PORT_NAMES: readonly PortName[] = [
  'registry',
  'sources',
  'artifacts',
  'progress',
  'clock',
  'templates',
  'secrets',
];
const CLUSTER_PORT_NAMES: readonly ClusterPortName[] = ['stacks', 'pools', 'kube', 'lookups', 'values'];

/** What each task touched, as `registry` or `forCluster.kube`. */
const touched = new Map<TaskName, Set<string>>();

/**
 * The Ports a task's Lambda handler would give it: factories for every member of the full simulated Ports, and
 * lazyPorts exposing only those TASK_PORTS lists for the task.
 */
function asHandlerWires(task: TaskName, full: Ports): Ports {
  const seen = touched.get(task) ?? new Set<string>();
  touched.set(task, seen);
  const shared = Object.fromEntries(
    PORT_NAMES.map((name) => [
      name,
      () => {
        seen.add(name);
        return full[name];
      },
    ]),
  );
  const cluster = Object.fromEntries(
    CLUSTER_PORT_NAMES.map((name) => [
      name,
      (c: Cluster) => {
        seen.add(`forCluster.${name}`);
        return full.forCluster(c)[name] as ClusterPorts[typeof name];
      },
    ]),
  );
  return lazyPorts(task, { ...shared, cluster } as unknown as TaskPortFactories<typeof task>);
}

type Executor = (input: ClusterUpdateInput, options: LocalExecutorOptions) => Promise<ExecutionResult>;
let runClusterUpdate: Executor;
let tasks: Record<TaskName, AnyTask>;

beforeAll(async () => {
  // The executor runs TASKS; every task's `run` gets the handler's view of the ports instead of the full set.
  jest.doMock('../../lambdas/tasks/cluster-update-tasks', () => {
    const actual = jest.requireActual('../../lambdas/tasks/cluster-update-tasks');
    const wrapped = Object.fromEntries(
      Object.entries(actual.TASKS as Record<TaskName, AnyTask>).map(([name, task]) => [
        name,
        {
          ...task,
          run: (input: unknown, ports: Ports, meta: never) =>
            task.run(input, asHandlerWires(name as TaskName, ports), meta),
        },
      ]),
    );
    return { ...actual, TASKS: wrapped };
  });
  ({ runClusterUpdate } = await import('../../lambdas/runtime/local/asl-runner'));
  ({ TASKS: tasks } = await import('../../lambdas/tasks/cluster-update-tasks'));
});

afterAll(() => jest.dontMock('../../../lambdas/tasks/cluster-update-tasks'));

interface RegistryPool {
  name: string;
  profile: string;
  instance_types: string[];
  min_size: number;
  max_size: number;
  discount_strategy: string;
}
interface RegistryCluster {
  id: string;
  node_pools: RegistryPool[];
}

/** examples/clusters.yaml cut down to kube-test, with its worker pools changed by `edit`. */
function writeRegistry(file: string, edit: (pools: RegistryPool[]) => RegistryPool[]): void {
  const doc = load(readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8')) as { clusters: RegistryCluster[] };
  const cluster = doc.clusters.find((c) => c.id === CLUSTER_ID)!;
  writeFileSync(file, dump({ clusters: [{ ...cluster, node_pools: edit(cluster.node_pools) }] }));
}

const extraPool = (pools: RegistryPool[]): RegistryPool[] => [
  ...pools,
  { ...pools[1], name: 'extra-worker', min_size: 1, max_size: 1 },
];

describe("TASK_PORTS: each task with only its handler's ports", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'clm-task-ports-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs a failed update, a provision, a rolling update with a pool removed and a decommission to the end', async () => {
    // Arrange
    const registryFile = join(dir, 'clusters.yaml');
    writeRegistry(registryFile, (pools) =>
      pools.map((p) => (p.name === 'default-worker' ? { ...p, profile: 'no-such-profile' } : p)),
    );
    const registry = createRegistry(registryFile, { cwd: dir });
    const sources = configSourcesFromFlags({ directory: join(ROOT, 'examples/config') }, { cwd: ROOT });
    const clusters = await registry.listClusters();
    const sim = createSimulatedSetup({
      stateDir: join(dir, 'state'),
      registry,
      sources,
      clusters,
      scenarioFile: join(ROOT, 'examples/scenarios/default.yaml'),
    });
    const run = (action: 'provision' | 'decommission', n: number) =>
      runClusterUpdate(
        { clusterId: CLUSTER_ID, action, options: { applyOnly: false }, trigger: 'test' },
        { ports: sim.ports, executionId: `test-${n}`, advanceClock: (seconds) => sim.world.advance(seconds * 1000) },
      );

    // Act
    const failed = await run('provision', 0);
    writeRegistry(registryFile, extraPool);
    const provisioned = await run('provision', 1);
    writeRegistry(registryFile, (pools) =>
      pools.map((p) => (p.name === 'default-worker' ? { ...p, instance_types: ['m6i.xlarge'] } : p)),
    );
    const updated = await run('provision', 2);
    const replaced = Object.values(
      (await sim.ports.progress.getRun(
        CLUSTER_ID,
        (updated.output as { run: { targetVersion: string } }).run.targetVersion,
      ))!.pools,
    ).reduce((n, pool) => n + pool.replaced, 0);
    sim.decommissioning(CLUSTER_ID);
    const decommissioned = await run('decommission', 3);

    // Assert
    expect({ status: failed.status, notWired: /not wired/.test(failed.error?.Cause ?? '') }).toEqual({
      status: 'FAILED',
      notWired: false,
    });
    expect([provisioned, updated, decommissioned].map((r) => (r.status === 'SUCCEEDED' ? r.status : r.error))).toEqual([
      'SUCCEEDED',
      'SUCCEEDED',
      'SUCCEEDED',
    ]);
    expect(replaced).toBeGreaterThan(0);
    expect(sim.world.describe(CLUSTER_ID).stacks).toEqual([]);
    const declared = (task: TaskName) =>
      [...TASK_PORTS[task].ports, ...TASK_PORTS[task].cluster.map((name) => `forCluster.${name}`)].sort();
    expect(Object.fromEntries(TASK_NAMES.map((task) => [task, [...(touched.get(task) ?? [])].sort()]))).toEqual(
      Object.fromEntries(TASK_NAMES.map((task) => [task, declared(task)])),
    );
  }, 60_000);

  it('refuses a member the task does not list, naming the task, the member and where to wire it', async () => {
    // Arrange
    const finalize = asHandlerWires('Finalize', { forCluster: () => ({}) } as unknown as Ports);
    const cluster = { id: CLUSTER_ID } as Cluster;

    // Act
    const touch = [() => finalize.sources, () => finalize.templates, () => finalize.forCluster(cluster).kube];

    // Assert
    expect(
      touch.map((fn) => {
        try {
          fn();
          return 'no error';
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      }),
    ).toEqual([
      expect.stringMatching(
        /^ConfigError: Finalize: ports\.sources is not wired for this task; list it in TASK_PORTS \(lambdas\/adapters\/wiring\/task-ports\.ts\)/,
      ),
      expect.stringMatching(/^ConfigError: Finalize: ports\.templates is not wired/),
      expect.stringMatching(
        /^ConfigError: Finalize: forCluster\(aws:123456789012:eu-central-1:kube-test\)\.kube is not wired/,
      ),
    ]);
    expect(Object.keys(tasks)).toEqual(expect.arrayContaining(TASK_NAMES));
  });
});
