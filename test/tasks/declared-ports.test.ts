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
import type { Ports } from '../../lambdas/ports/ports';
import { configSourcesFromFlags } from '../../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../../lambdas/adapters/registry/create-registry';
import { runClusterUpdate } from '../../lambdas/runtime/local/run-cluster-update';
import { restrictPorts } from '../../lambdas/runtime/restrict-ports';
import { createSimulatedSetup } from '../../lambdas/runtime/wiring/simulated-ports';
import { TASK_CATALOGUE } from '../../lambdas/tasks/catalogue';
import { isStateMachineTask } from '../../lambdas/tasks/define-task';
import type { AnyTask } from '../../lambdas/tasks/define-task';
import { recordingCatalogue, touchedAndDeclared, type TouchedPorts } from '../support/recording-ports';

const ROOT = join(__dirname, '..', '..');
const CLUSTER_ID = 'aws:123456789012:eu-central-1:kube-test';
/** The tasks the cluster-update and rollout machines run (the triggered ones: test/tasks/triggered-tasks.test.ts). */
const MACHINE_TASKS = TASK_CATALOGUE.filter(isStateMachineTask);

/** What each task touched, by port name. */
const touched: TouchedPorts = new Map();

/** The catalogue with every step recording what it touches. */
const catalogue: AnyTask[] = recordingCatalogue(TASK_CATALOGUE, touched);

interface RegistryPool {
  name: string;
  config_items?: Record<string, string>;
  profile: string;
  instance_types: string[];
  min_size: number;
  max_size: number;
  discount_strategy: string;
}
interface RegistryCluster {
  id: string;
  config_items: Record<string, string>;
  node_pools: RegistryPool[];
}

/** examples/clusters.yaml cut down to kube-test, with its worker pools changed by `edit`. */
function writeRegistry(
  file: string,
  edit: (pools: RegistryPool[]) => RegistryPool[],
  items: Record<string, string> = {},
): void {
  const doc = load(readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8')) as { clusters: RegistryCluster[] };
  const cluster = doc.clusters.find((c) => c.id === CLUSTER_ID)!;
  const configItems = { ...cluster.config_items, ...items };
  writeFileSync(
    file,
    dump({ clusters: [{ ...cluster, config_items: configItems, node_pools: edit(cluster.node_pools) }] }),
  );
}

/** A Karpenter pool (examples/karpenter-clusters.yaml's), with the cluster item that enables Karpenter. */
const KARPENTER_ITEMS = { karpenter_pools_enabled: 'true', burst_replicas: '2' };
const withKarpenter = (pools: RegistryPool[]): RegistryPool[] => [
  ...pools,
  {
    name: 'burst',
    profile: 'worker-karpenter',
    instance_types: ['default-for-karpenter'],
    discount_strategy: 'none',
    min_size: 0,
    max_size: 0,
    config_items: { taints: 'dedicated=burst:NoSchedule', karpenter_max_pods: '3' },
  },
];

const extraPool = (pools: RegistryPool[]): RegistryPool[] => [
  ...withKarpenter(pools),
  { ...pools[1], name: 'extra-worker', min_size: 1, max_size: 1 },
];

/** examples/stack-clusters.yaml's cluster created at cluster stack v1 and updated to v2, every step recording. */
async function stackClusterRuns(stateDir: string): Promise<string[]> {
  const registry = createRegistry(join(ROOT, 'examples/stack-clusters.yaml'), { cwd: ROOT });
  const clusters = await registry.listClusters();
  const statuses: string[] = [];
  let n = 10;
  let world: ReturnType<typeof createSimulatedSetup>['world'] | undefined;
  for (const version of ['v1', 'v2']) {
    const sources = configSourcesFromFlags(
      { directory: join(ROOT, 'examples/cluster-stacks', version) },
      { cwd: ROOT },
    );
    const sim = createSimulatedSetup({ stateDir, registry, sources, clusters });
    world = sim.world;
    const result = await runClusterUpdate(
      { clusterId: clusters[0].id, action: 'provision', options: { applyOnly: false }, trigger: 'test' },
      {
        ports: sim.ports,
        executionId: `test-${(n += 1)}`,
        advanceClock: async (seconds) => world!.advance(seconds * 1000),
        catalogue,
      },
    );
    statuses.push(result.status === 'SUCCEEDED' ? result.status : JSON.stringify(result.error));
    sim.save();
  }
  return statuses;
}

/** The EKS example created and decommissioned: ReadControlPlane reads EKS and writes the registry's items. */
async function eksClusterRuns(stateDir: string): Promise<string[]> {
  const registry = createRegistry(join(ROOT, 'examples/eks-clusters.yaml'), { cwd: ROOT });
  const clusters = await registry.listClusters();
  const sources = configSourcesFromFlags({ directory: join(ROOT, 'examples/cluster-stacks/v1') }, { cwd: ROOT });
  const sim = createSimulatedSetup({ stateDir, registry, sources, clusters });
  const statuses: string[] = [];
  let n = 20;
  for (const action of ['provision', 'decommission'] as const) {
    const result = await runClusterUpdate(
      { clusterId: clusters[0].id, action, options: { applyOnly: false }, trigger: 'test' },
      {
        ports: sim.ports,
        executionId: `test-${(n += 1)}`,
        advanceClock: async (seconds) => sim.world.advance(seconds * 1000),
        catalogue,
      },
    );
    statuses.push(result.status === 'SUCCEEDED' ? result.status : JSON.stringify(result.error));
  }
  return statuses;
}

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
    // The default scenario, with the key of alias/etcd-cluster in the account: the provision manages its etcd stack.
    const scenarioFile = join(dir, 'scenario.yaml');
    const readScenario = (name: string) =>
      load(readFileSync(join(ROOT, 'examples/scenarios', name), 'utf8')) as Record<string, unknown>;
    writeFileSync(scenarioFile, dump({ ...readScenario('default.yaml'), ...readScenario('etcd-key.yaml') }));
    const sim = createSimulatedSetup({ stateDir: join(dir, 'state'), registry, sources, clusters, scenarioFile });
    const run = (action: 'provision' | 'decommission' | 'plan', n: number, onWait?: () => Promise<void>) =>
      runClusterUpdate(
        // The plan rehearses too (PlanUpdate's `rehearsals` port).
        { clusterId: CLUSTER_ID, action, options: { applyOnly: false }, trigger: 'test', rehearse: action === 'plan' },
        {
          ports: sim.ports,
          executionId: `test-${n}`,
          advanceClock: async (seconds) => {
            await onWait?.();
            sim.world.advance(seconds * 1000);
          },
          catalogue,
        },
      );
    // Paused once the update is under way: its roll stops at the first safe point (StopAtSafePoint).
    const pauseWhileRunning = () => sim.ports.progress.putControls(CLUSTER_ID, { paused: true, reason: 'test' });

    // Act
    const failed = await run('provision', 0);
    writeRegistry(registryFile, extraPool, { ...KARPENTER_ITEMS, manage_etcd_stack: 'true' });
    const provisioned = await run('provision', 1);
    // The roll's health gate reads the pool's CloudWatch alarm (OK all along).
    sim.world.addFaults({ alarms: [{ name: 'kube-test-workers', untilSeconds: 0 }] });
    writeRegistry(
      registryFile,
      (pools) =>
        withKarpenter(pools).map((p) =>
          p.name === 'default-worker'
            ? { ...p, instance_types: ['m6i.xlarge'], config_items: { update_health_alarm: 'kube-test-workers' } }
            : p.name === 'burst'
              ? { ...p, config_items: { ...p.config_items, ami_id: 'ami-0feedface0003' } }
              : p,
        ),
      KARPENTER_ITEMS,
    );
    const held = await run('provision', 2, pauseWhileRunning);
    await sim.ports.progress.putControls(CLUSTER_ID, {});
    const updated = await run('provision', 4);
    const replaced = Object.values(
      (await sim.ports.progress.getRun(
        CLUSTER_ID,
        (updated.output as { run: { targetVersion: string } }).run.targetVersion,
      ))!.pools,
    ).reduce((n, pool) => n + pool.replaced, 0);
    // An action: plan execution (of a change: it rehearses), then an update that waits for approval, approved, and
    // run again
    writeRegistry(
      registryFile,
      (pools) => pools.map((p) => (p.name === 'default-worker' ? { ...p, instance_types: ['m6i.2xlarge'] } : p)),
      // Outside its maintenance window first: RenderConfig announces the hold (events), the update waits for it.
      { update_requires_approval: 'true', maintenance_windows: '* 12:00-12:05 UTC' },
    );
    const planned = await run('plan', 5);
    const awaiting = await run('provision', 6);
    const pending = (await sim.ports.progress.getControls(CLUSTER_ID))!.approval!;
    await sim.ports.progress.putControls(CLUSTER_ID, { approval: { ...pending, status: 'APPROVED', at: 0 } });
    const approved = await run('provision', 7);
    sim.decommissioning(CLUSTER_ID);
    const decommissioned = await run('decommission', 3);
    // A cluster pinning a cluster stack, created and updated: Prepare reads its live Kubernetes versions.
    const stackRuns = await stackClusterRuns(join(dir, 'stack-state'));
    const eksRuns = await eksClusterRuns(join(dir, 'eks-state'));

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
    expect((held.output as { held?: { status: string } }).held?.status).toBe('PAUSED');
    expect([planned, approved].map((r) => (r.status === 'SUCCEEDED' ? r.status : r.error))).toEqual([
      'SUCCEEDED',
      'SUCCEEDED',
    ]);
    expect((awaiting.output as { held?: { status: string } }).held?.status).toBe('AWAITING_APPROVAL');
    expect(replaced).toBeGreaterThan(0);
    expect(stackRuns).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    expect(eksRuns).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    // (the etcd stack carries no cluster tag: decommission leaves it, as CLM does)
    expect(sim.world.describe(CLUSTER_ID).stacks).toEqual([]);
    const { touched: used, declared } = touchedAndDeclared(MACHINE_TASKS, touched);
    expect(used).toEqual(declared);
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
      "ConfigError: Finalize: ports.sources is not one of the task's ports (declared: artifacts, clock, events, progress, registry); add it to the task's ports in lambdas/tasks/",
      expect.stringMatching(/^ConfigError: Finalize: ports\.templates is not one of the task's ports/),
      expect.stringMatching(
        /^ConfigError: Finalize: forCluster\(aws:123456789012:eu-central-1:kube-test\)\.kube is not one/,
      ),
    ]);
  });
});
