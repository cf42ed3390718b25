// Every task runs with only the ports it declares (lambdas/tasks/<task>.ts `ports`; the runner restricts them as
// the Lambda runtime does): the cluster-update state machine runs in process over the simulated world. The runs cover
// a failed update (RecordProblem), a first provision, an update that rolls nodes and removes a pool, and a
// decommission; the test also checks that every port a task declares is really touched, so no task over-declares
// (which would over-grant IAM, derived from the same declaration).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import type { Cluster } from '../../lambdas/core/model/cluster';
import type { ClusterPorts, Ports } from '../../lambdas/ports/ports';
import { configSourcesFromFlags } from '../../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../../lambdas/adapters/registry/create-registry';
import { runClusterUpdate } from '../../lambdas/runtime/local/run-cluster-update';
import { restrictPorts } from '../../lambdas/runtime/restrict-ports';
import { createSimulatedSetup } from '../../lambdas/runtime/wiring/simulated-ports';
import { TASK_CATALOGUE } from '../../lambdas/tasks/catalogue';
import type { AnyTask, ClusterPortName, SharedPortName } from '../../lambdas/tasks/define-task';

const ROOT = join(__dirname, '..', '..');
const CLUSTER_ID = 'aws:123456789012:eu-central-1:kube-test';
const SHARED: readonly SharedPortName[] = [
  'registry',
  'sources',
  'artifacts',
  'progress',
  'clock',
  'templates',
  'secrets',
];
const PER_CLUSTER: readonly ClusterPortName[] = ['stacks', 'pools', 'kube', 'lookups', 'values'];

/** What each task touched, by port name. */
const touched = new Map<string, Set<string>>();

/** The ports a step receives, recording each member it touches under the task's name. */
function recording(task: string, ports: Ports): Ports {
  const seen = touched.get(task) ?? new Set<string>();
  touched.set(task, seen);
  const shared = Object.fromEntries(SHARED.map((name) => [name, { get: () => (seen.add(name), ports[name]) }]));
  const perCluster = (c: Cluster) =>
    Object.defineProperties(
      {} as ClusterPorts,
      Object.fromEntries(PER_CLUSTER.map((name) => [name, { get: () => (seen.add(name), ports.forCluster(c)[name]) }])),
    );
  return Object.assign(Object.defineProperties({} as Ports, shared), { forCluster: perCluster });
}

/** The catalogue with every step recording what it touches. */
const catalogue: AnyTask[] = TASK_CATALOGUE.map((task) => ({
  ...task,
  step: (input: unknown, ports: never) => task.step(input, recording(task.name, ports) as never),
}));

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

describe('each task with only the ports it declares', () => {
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
        {
          ports: sim.ports,
          executionId: `test-${n}`,
          advanceClock: (seconds) => sim.world.advance(seconds * 1000),
          catalogue,
        },
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
    expect({ status: failed.status, notWired: /not one of the task's ports/.test(failed.error?.Cause ?? '') }).toEqual({
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
    expect(Object.fromEntries(TASK_CATALOGUE.map((t) => [t.name, [...(touched.get(t.name) ?? [])].sort()]))).toEqual(
      Object.fromEntries(TASK_CATALOGUE.map((t) => [t.name, Object.keys(t.ports).sort()])),
    );
  }, 60_000);

  it('refuses a port the task does not declare, naming the task and the port', () => {
    // Arrange
    const finalize = TASK_CATALOGUE.find((t) => t.name === 'Finalize')!;
    const full = { forCluster: () => ({}) } as unknown as Ports;
    const ports = restrictPorts(finalize.name, finalize.ports, { sources: () => full.sources });
    const cluster = { id: CLUSTER_ID } as Cluster;

    // Act
    const touch = [() => ports.sources, () => ports.templates, () => ports.forCluster(cluster).kube];

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
      "ConfigError: Finalize: ports.sources is not one of the task's ports (declared: artifacts, clock, progress, registry); add it to the task's ports in lambdas/tasks/",
      expect.stringMatching(/^ConfigError: Finalize: ports\.templates is not one of the task's ports/),
      expect.stringMatching(
        /^ConfigError: Finalize: forCluster\(aws:123456789012:eu-central-1:kube-test\)\.kube is not one/,
      ),
    ]);
  });
});
