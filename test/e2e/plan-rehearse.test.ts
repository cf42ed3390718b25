// `clm plan --rehearse --simulate`: the snapshot reads the live (simulated) cluster with reads only, never a Secret
// or ConfigMap, and the rehearsal in its twin predicts the roll of a worker image change.
import { readFileSync, rmSync } from 'node:fs';
import { createRegistry } from '../../lambdas/adapters/registry/create-registry';
import { configSourcesFromFlags } from '../../lambdas/adapters/config-source/create-config-sources';
import { createSimulatedSetup } from '../../lambdas/runtime/wiring/simulated-ports';
import { rehearseUpdate } from '../../lambdas/runtime/rehearsal/rehearse-update';
import { SNAPSHOT_KINDS, takeSnapshot } from '../../lambdas/tasks/rehearsal/take-snapshot';
import { listWithStoredStatus } from '../../lambdas/tasks/step/cluster-status';
import { hashValue } from '../../lambdas/sim/hash';
import type { WorldState } from '../../lambdas/sim/world-state';
import type { ClusterPlan } from '../../lambdas/core/plan/plan-document';
import { ROOT, TEST, clm, configWithNewImage, createKubeTest, tempDir } from './support/clm-session';
import { recordingPorts, type Call } from './support/recording-ports';
import { runClusterUpdate } from '../../lambdas/runtime/local/run-cluster-update';
import { PlanOutput } from '../../lambdas/contracts/cluster-update';

/** Every call a rehearsal may make on the live ports: reads only. */
const READS = new Set([
  'sources.resolveVersion',
  'sources.checkout',
  'artifacts.get',
  'secrets.decrypt',
  'clock.now',
  'stacks.events',
  'pools.getPool',
  'kube.list',
  'kube.listPdbs',
  'kube.servesKind',
  'progress.getRuns',
  'quotas.vcpuLimit',
  'quotas.vcpusInUse',
]);

/** What PlanUpdate itself reads besides (apply only as a dry run, checked apart). */
const PLAN_READS = new Set([
  ...READS,
  'registry.listClusters',
  'progress.getStatus',
  'progress.getStatuses',
  'progress.getInventory',
  'templates.render',
  'stacks.describe',
  'stacks.plan',
  'values.clusterValues',
  'kube.ready',
  'kube.apply',
  'kube.listNodes',
]);

const SECRET_VALUE = 'do-not-read-this-password';

function stateHash(snapshot: WorldState): string {
  const { apiCalls: _calls, ...world } = snapshot;
  return hashValue(world);
}

let state: string;
let config: string;

beforeAll(async () => {
  state = tempDir('rehearse-state');
  await createKubeTest(state);
  config = configWithNewImage(['worker-default']);
  // A Secret in the live cluster: its data must never be read.
  const registry = createRegistry('examples/clusters.yaml', { cwd: ROOT });
  const cluster = (await registry.listClusters()).find((c) => c.id === TEST)!;
  const sources = configSourcesFromFlags({ directory: config }, { cwd: ROOT });
  const sim = createSimulatedSetup({ stateDir: state, registry, sources, clusters: [cluster] });
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'default' } };
  await sim.ports.forCluster(cluster).kube.apply([{ ...secret, stringData: { password: SECRET_VALUE } }], {
    fieldManager: 'test',
  });
  sim.save();
});

afterAll(() => {
  for (const dir of [state, config]) rmSync(dir, { recursive: true, force: true });
});

async function liveSetup() {
  const registry = createRegistry('examples/clusters.yaml', { cwd: ROOT });
  const sources = configSourcesFromFlags({ directory: config }, { cwd: ROOT });
  const registered = (await registry.listClusters()).find((c) => c.id === TEST)!;
  const sim = createSimulatedSetup({ stateDir: state, registry, sources, clusters: [registered] });
  const cluster = (await listWithStoredStatus(sim.ports)).find((c) => c.id === TEST)!;
  return { sim, cluster };
}

describe('the snapshot of a live cluster', () => {
  it('holds nodes, pods, PDBs, volumes, workloads, pools and timings, and no Secret or ConfigMap', async () => {
    // Arrange
    const { sim, cluster } = await liveSetup();
    const calls: Call[] = [];
    const ports = recordingPorts(sim.ports, calls);

    // Act
    const snapshot = await takeSnapshot(cluster, { clock: ports.clock, cluster: ports.forCluster(cluster) });

    // Assert: what was listed, and nothing else
    const listed = calls.filter((c) => c.method === 'list').map((c) => String(c.args[0]));
    expect([...new Set(listed)]).toEqual([...SNAPSHOT_KINDS]);
    expect(listed.some((kind) => /secret|configmap/i.test(kind))).toBe(false);
    expect(calls.filter((c) => !READS.has(`${c.port}.${c.method}`))).toEqual([]);
    const text = JSON.stringify(snapshot);
    expect(text).not.toContain(SECRET_VALUE);
    expect(text).not.toContain('Hello from'); // the web ConfigMap's data
    // ...and what a rehearsal needs
    const workers = snapshot.nodes.filter((n) => n.pool === 'default-worker');
    expect(workers).toHaveLength(2);
    expect(workers.every((n) => n.zone && n.instanceType && n.allocatable && n.allocatable.cpuMillis > 1000)).toBe(
      true,
    );
    const web = snapshot.pods.filter((p) => p.namespace === 'web' && p.owner?.kind === 'ReplicaSet');
    expect(web.length).toBeGreaterThan(0);
    expect(web.every((p) => p.requests.cpuMillis === 100)).toBe(true);
    expect(snapshot.pdbs.map((p) => `${p.namespace}/${p.name}`)).toContain('web/web');
    expect(snapshot.volumes.length).toBeGreaterThan(0);
    expect(snapshot.volumes.every((v) => v.zone?.startsWith('eu-central-1'))).toBe(true);
    expect(snapshot.workloads.map((w) => w.kind)).toEqual(
      expect.arrayContaining(['Deployment', 'StatefulSet', 'DaemonSet', 'PodDisruptionBudget']),
    );
    expect(snapshot.pools.find((p) => p.name === 'default-worker')?.instances).toHaveLength(2);
    expect(snapshot.timings.sources.instanceBootSeconds).toBe('history');
    expect(snapshot.timings.instanceBootSeconds).toBe(90);
    // ...and the account's vCPU quota of the pools' instance types, with the account's use (here all the cluster's)
    expect(snapshot.quotas).toEqual([
      expect.objectContaining({ code: 'L-1216C47A', limit: 100_000, inUse: expect.any(Number) }),
    ]);
    expect(snapshot.quotas![0]!.inUse).toBe(snapshot.quotas![0]!.cluster);
    expect(snapshot.quotas![0]!.cluster).toBeGreaterThan(0);
  });
});

describe('clm plan --rehearse --simulate', () => {
  it('rehearses with reads only on the live ports and leaves the live world as it was', async () => {
    // Arrange
    const { sim, cluster } = await liveSetup();
    const before = stateHash(sim.world.snapshot());
    const calls: Call[] = [];

    // Act
    const rehearsal = await rehearseUpdate(cluster, recordingPorts(sim.ports, calls), { runs: 2 });

    // Assert: zero writes to the live cluster, its account or CLM's state
    expect(calls.filter((c) => !READS.has(`${c.port}.${c.method}`))).toEqual([]);
    expect(stateHash(sim.world.snapshot())).toBe(before);
    // ...and the prediction of the worker roll
    expect(rehearsal.failedRuns).toBe(0);
    expect(rehearsal.pools.find((p) => p.pool === 'default-worker')).toMatchObject({ nodes: 2 });
    expect(rehearsal.durationSeconds.p50).toBeGreaterThan(0);
    expect(rehearsal.durationSeconds.p90).toBeGreaterThanOrEqual(rehearsal.durationSeconds.p50);
  });

  it('prints the prediction under the plan, and its JSON', async () => {
    // Act
    const args = [
      'plan',
      '--simulate',
      '--registry',
      'examples/clusters.yaml',
      '--directory',
      config,
      '--state',
      state,
    ];
    const run = await clm([...args, '--cluster', TEST, '--rehearse', '--runs', '2', '--output', 'json']);

    // Assert
    expect(run.code).toBe(0);
    const plan = (JSON.parse(run.out) as { clusters: ClusterPlan[] }).clusters[0]!;
    expect(plan.rehearsal?.runs).toBe(2);
    expect(plan.rehearsal?.durationSeconds.p50).toBeGreaterThan(0);
    expect(plan.rehearsal?.pools.map((p) => p.pool)).toContain('default-worker');
    // ...the surge against the account's vCPU quota (the simulator's default limit, the account's use read live)
    expect(plan.rehearsal?.surge.limits).toEqual([
      expect.objectContaining({ code: 'L-1216C47A', limit: 100_000, fits: true, needed: expect.any(Number) }),
    ]);
    const quota = plan.rehearsal!.surge.limits![0]!;
    expect(quota.needed).toBeGreaterThan(0);
    expect(quota.headroom).toBe(100_000 - quota.inUse!);
    const text = await clm([...args, '--cluster', TEST, '--rehearse', '--runs', '1']);
    expect(text.out).toMatch(
      /vCPU quota L-1216C47A \(Running On-Demand Standard \(A, C, D, H, I, M, R, T, Z\) instances\): surge needs \d+ vCPU; headroom \d+ of limit 100000 \(\d+ in use\): fits/,
    );
    expect(readFileSync(`${config}/cluster/node-pools/worker-default/stack.yaml`, 'utf8')).toContain(
      'ami-0feedface0001',
    );
  });
});

describe('the deployed action plan with rehearse: true', () => {
  it('runs the rehearsal in PlanUpdate through the real ASL, with reads only on the live ports', async () => {
    // Arrange
    const { sim } = await liveSetup();
    const before = stateHash(sim.world.snapshot());
    const callsBefore = { ...sim.world.snapshot().apiCalls };
    const calls: Call[] = [];
    const input = { clusterId: TEST, action: 'plan' as const, options: { applyOnly: false }, rehearse: true };

    // Act
    const result = await runClusterUpdate(
      { ...input, trigger: 'cli' },
      { ports: recordingPorts(sim.ports, calls), executionId: 'plan-rehearse-1' },
    );

    // Assert: the rehearsal in the output, as `clm plan --rehearse` prints it, and its summary
    expect(result.status).toBe('SUCCEEDED');
    expect(result.run.entered).toEqual(['Prepare', 'DecideAction', 'PlanUpdate', 'Planned']);
    const plan = PlanOutput.parse((result.output as { plan: unknown }).plan);
    expect(plan.problems).toEqual([]);
    expect(plan.rehearsal?.runs).toBe(5);
    expect(plan.rehearsal?.failedRuns).toBe(0);
    expect(plan.rehearsal?.durationSeconds.p50).toBeGreaterThan(0);
    expect(plan.rehearsal?.pools.find((p) => p.pool === 'default-worker')).toMatchObject({ nodes: 2 });
    expect(plan.rehearsalSummary).toMatch(/^rehearsed 5x: about \d/);
    const document = JSON.parse((await sim.ports.artifacts.get(plan.planKey))!) as ClusterPlan;
    expect(document.rehearsal?.durationSeconds).toEqual(plan.rehearsal?.durationSeconds);
    expect(await sim.ports.artifacts.get(plan.planKey.replace(/\.json$/, '.txt'))).toContain('rehearsal (5 runs');
    // ...and nothing written but the plan document: every other call a read (applies dry runs), the world unchanged
    const writes = calls.filter((c) => !PLAN_READS.has(`${c.port}.${c.method}`));
    expect(writes.map((c) => `${c.port}.${c.method} ${String(c.args[0])}`)).toEqual([
      `artifacts.put ${plan.planKey}`,
      `artifacts.put ${plan.planKey.replace(/\.json$/, '.txt')}`,
    ]);
    const applies = calls.filter((c) => c.method === 'apply');
    expect(applies.every((c) => (c.args[1] as { dryRun?: boolean }).dryRun === true)).toBe(true);
    expect(calls.some((c) => c.port === 'stacks' && c.method === 'events')).toBe(true); // the snapshot ran here
    expect(stateHash(sim.world.snapshot())).toBe(before);
    const added = Object.entries(sim.world.snapshot().apiCalls)
      .filter(([name, n]) => n !== (callsBefore[name] ?? 0))
      .map(([name]) => name);
    // (the world counts the plan document's two puts, checked above)
    expect(added.filter((name) => !PLAN_READS.has(name))).toEqual(['artifacts.put']);
  });
});
