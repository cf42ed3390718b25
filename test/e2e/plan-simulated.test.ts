// `clm plan --simulate`: a real dry run over the simulated world. Every call the plan makes is a read (or a
// Kubernetes dry-run apply), the world's state hash is the same before and after, and nothing is saved.
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRegistry } from '../../lambdas/adapters/registry/create-registry';
import { configSourcesFromFlags } from '../../lambdas/adapters/config-source/create-config-sources';
import { planCluster } from '../../lambdas/tasks/plan/plan-cluster';
import { runClusterUpdate } from '../../lambdas/runtime/local/run-cluster-update';
import { PlanOutput } from '../../lambdas/contracts/cluster-update';
import { createSimulatedSetup } from '../../lambdas/runtime/wiring/simulated-ports';
import { hashValue } from '../../lambdas/sim/hash';
import type { WorldState } from '../../lambdas/sim/world-state';
import type { Cluster } from '../../lambdas/core/model/cluster';
import type { ClusterPlan } from '../../lambdas/core/plan/plan-document';
import type { ClusterPorts, Ports } from '../../lambdas/ports/ports';
import { ROOT, TEST, clm, configWithNewImage, createKubeTest, tempDir } from './support/clm-session';

/** Every method a plan may call: reads, and apply only as a dry run (checked apart). */
const READS = new Set([
  'sources.resolveVersion',
  'sources.checkout',
  'registry.listClusters',
  'progress.getStatus',
  'progress.getStatuses',
  'progress.getInventory',
  'artifacts.get',
  'secrets.decrypt',
  'templates.render',
  'stacks.describe',
  'stacks.plan',
  'values.clusterValues',
  'kube.ready',
  'kube.list',
  'kube.apply',
  'pools.getPool',
  'kube.listNodes',
  'kube.servesKind',
  'clock.now',
]);

type Call = { port: string; method: string; args: unknown[] };

function recorded<T extends object>(port: string, target: T, calls: Call[]): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push({ port, method: String(key), args });
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
}

/** The ports with every call recorded (the config sources each under `sources`). */
function recordingPorts(ports: Ports, calls: Call[]): Ports {
  const shared = ['registry', 'artifacts', 'progress', 'clock', 'templates', 'secrets', 'fleet', 'executions'] as const;
  const wrapped = Object.fromEntries(shared.map((name) => [name, recorded(name, ports[name], calls)]));
  return {
    ...ports,
    ...wrapped,
    sources: ports.sources.map((s) => recorded('sources', s, calls)),
    forCluster: (cluster: Cluster) => {
      const cp = ports.forCluster(cluster);
      const names = ['stacks', 'pools', 'kube', 'lookups', 'values'] as const;
      return Object.fromEntries(names.map((n) => [n, recorded(n, cp[n], calls)])) as unknown as ClusterPorts;
    },
  } as Ports;
}

/** The world's state: everything but its count of the API calls made (a plan makes reads). */
function stateHash(snapshot: WorldState): string {
  const { apiCalls: _calls, ...world } = snapshot;
  return hashValue(world);
}

/** Every file of a directory, path and bytes, hashed: what a saved plan would have changed. */
function directoryHash(dir: string): string {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(`${path}\n${readFileSync(path, 'base64')}`);
    }
  };
  walk(dir);
  return hashValue(files);
}

let state: string;
let config: string;

beforeAll(async () => {
  state = tempDir('plan-state');
  await createKubeTest(state);
  // A new worker image (the worker pool rolls), a new web image (a field change), node-exporter gone (pruned)
  config = configWithNewImage(['worker-default']);
  const deployment = join(config, 'cluster/manifests/20-web/deployment.yaml');
  writeFileSync(deployment, readFileSync(deployment, 'utf8').replace('image: nginx:1.27', 'image: nginx:1.28'));
  rmSync(join(config, 'cluster/manifests/40-node-exporter'), { recursive: true });
});

afterAll(() => {
  for (const dir of [state, config]) rmSync(dir, { recursive: true, force: true });
});

describe('clm plan --simulate', () => {
  it('makes only reads and dry-run applies, and leaves the world state hash unchanged', async () => {
    // Arrange
    const registry = createRegistry('examples/clusters.yaml', { cwd: ROOT });
    const sources = configSourcesFromFlags({ directory: config }, { cwd: ROOT });
    const cluster = (await registry.listClusters()).find((c) => c.id === TEST)!;
    const sim = createSimulatedSetup({ stateDir: state, registry, sources, clusters: [cluster] });
    const before = stateHash(sim.world.snapshot());
    const callsBefore = { ...sim.world.snapshot().apiCalls };
    const calls: Call[] = [];

    // Act
    const plan = await planCluster(cluster, recordingPorts(sim.ports, calls), { applyOnly: false });

    // Assert: zero writes...
    expect(calls.filter((c) => !READS.has(`${c.port}.${c.method}`))).toEqual([]);
    const applies = calls.filter((c) => c.method === 'apply');
    expect(applies.length).toBeGreaterThan(0);
    expect(applies.every((c) => (c.args[1] as { dryRun?: boolean }).dryRun === true)).toBe(true);
    expect(stateHash(sim.world.snapshot())).toBe(before);
    // the world's own count of API calls agrees: only reads and (dry-run) applies were added
    const added = Object.entries(sim.world.snapshot().apiCalls)
      .filter(([name, n]) => n !== (callsBefore[name] ?? 0))
      .map(([name]) => name);
    expect(added.filter((name) => !READS.has(name))).toEqual([]);
    // ...and the plan says what an update would do
    expect(plan.problems).toEqual([]);
    expectPlannedChanges(plan);
  });

  it('prints the plan as JSON and saves nothing in the state directory', async () => {
    // Arrange
    const before = directoryHash(state);

    // Act
    const run = await clm([
      'plan',
      '--simulate',
      '--registry',
      'examples/clusters.yaml',
      '--directory',
      config,
      '--state',
      state,
      '--cluster',
      TEST,
      '--output',
      'json',
    ]);

    // Assert
    expect(run.code).toBe(0);
    expectPlannedChanges((JSON.parse(run.out) as { clusters: ClusterPlan[] }).clusters[0]);
    expect(directoryHash(state)).toBe(before);
  });
});

describe('an action: plan execution of the cluster-update state machine', () => {
  it('plans through PlanUpdate, stores the plan document and writes nothing else', async () => {
    // Arrange
    const registry = createRegistry('examples/clusters.yaml', { cwd: ROOT });
    const sources = configSourcesFromFlags({ directory: config }, { cwd: ROOT });
    const cluster = (await registry.listClusters()).find((c) => c.id === TEST)!;
    const sim = createSimulatedSetup({ stateDir: state, registry, sources, clusters: [cluster] });
    const before = stateHash(sim.world.snapshot());
    const calls: Call[] = [];
    const input = { clusterId: TEST, action: 'plan' as const, options: { applyOnly: false }, trigger: 'cli' };

    // Act
    const result = await runClusterUpdate(input, { ports: recordingPorts(sim.ports, calls), executionId: 'plan-1' });

    // Assert: the execution went Prepare → PlanUpdate → Planned...
    expect(result.status).toBe('SUCCEEDED');
    expect(result.run.entered).toEqual(['Prepare', 'DecideAction', 'PlanUpdate', 'Planned']);
    const plan = PlanOutput.parse((result.output as { plan: unknown }).plan);
    expect(plan.changes).toBe(true);
    expect(plan.summary).toMatch(/stack change.*object change.*node replacement/);
    // ...wrote only the plan document (JSON and text) and no lease, run, status or world change...
    const writes = calls.filter((c) => !READS.has(`${c.port}.${c.method}`) && c.method !== 'getControls');
    expect(writes.map((c) => `${c.port}.${c.method} ${String(c.args[0])}`)).toEqual([
      `artifacts.put ${plan.planKey}`,
      `artifacts.put ${plan.planKey.replace(/\.json$/, '.txt')}`,
    ]);
    expect(stateHash(sim.world.snapshot())).toBe(before);
    // ...and the document is the plan clm plan shows
    const stored = JSON.parse((await sim.ports.artifacts.get(plan.planKey))!) as ClusterPlan;
    expectPlannedChanges(stored);
    expect(await sim.ports.artifacts.get(plan.planKey.replace(/\.json$/, '.txt'))).toContain(
      'change spec.template.spec.containers[0].image: "nginx:1.27" -> "nginx:1.28"',
    );
  });
});

function expectPlannedChanges(plan: ClusterPlan): void {
  const worker = plan.stacks.find((s) => s.kind === 'node-pool' && s.name.includes('worker'))!;
  expect(worker.action).toBe('update');
  expect(worker.changes.map((c) => `${c.action} ${c.resourceType}`)).toContain('Modify AWS::EC2::LaunchTemplate');
  expect(plan.stacks.filter((s) => s !== worker).every((s) => s.action === 'no-changes')).toBe(true);
  const web = plan.objects.find((o) => o.ref.kind === 'Deployment' && o.ref.name === 'web')!;
  expect(web.action).toBe('update');
  expect(web.fields).toEqual([
    { path: 'spec.template.spec.containers[0].image', op: 'change', before: 'nginx:1.27', after: 'nginx:1.28' },
  ]);
  expect(plan.deletions.filter((d) => d.reason === 'prune').map((d) => d.ref.kind)).toContain('DaemonSet');
  const rolls = plan.pools.filter((p) => p.nodes > 0);
  expect(rolls.map((p) => p.pool)).toEqual(['default-worker']);
  expect(rolls[0].batches).toBeGreaterThan(0);
}
