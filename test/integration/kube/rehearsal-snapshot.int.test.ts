import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRegistry } from '../../../lambdas/adapters/registry/create-registry';
import { configSourcesFromFlags } from '../../../lambdas/adapters/config-source/create-config-sources';
import { runClusterUpdate } from '../../../lambdas/runtime/local/run-cluster-update';
import { rehearseSnapshot } from '../../../lambdas/runtime/rehearsal/rehearse-update';
import { createSimulatedSetup } from '../../../lambdas/runtime/wiring/simulated-ports';
import { SNAPSHOT_KINDS, takeSnapshot } from '../../../lambdas/tasks/rehearsal/take-snapshot';
import { listWithStoredStatus } from '../../../lambdas/tasks/step/cluster-status';
import { eventually } from '../support/eventually';
import { FIELD_MANAGER, KWOK_NODES, KubeExampleCluster, ordered } from '../support/kube-example-cluster';

// A rehearsal from a real kube-apiserver (KWOK nodes, the example workloads as applied there): its
// snapshot is read through the real Kubernetes adapter and rehearses in a twin without error. The AWS side (the stored
// config of the version the cluster runs, its pools and stacks) is a simulated account where kube-test was provisioned.
const ROOT = resolve(__dirname, '../../..');
const TEST = 'aws:123456789012:eu-central-1:kube-test';
const cluster = new KubeExampleCluster();
const kube = cluster.kube;
let state: string | undefined;

beforeAll(async () => {
  await cluster.setUp();
  const [first, rest] = ordered(cluster.exampleObjects());
  await kube.apply(first, { fieldManager: FIELD_MANAGER });
  await eventually('example objects applied', () => kube.apply(rest, { fieldManager: FIELD_MANAGER }));
}, 180_000);
afterAll(async () => {
  if (state) rmSync(state, { recursive: true, force: true });
  await cluster.tearDown();
}, 180_000);

async function provisionedAccount() {
  const dir = mkdtempSync(join(tmpdir(), 'clm-int-rehearsal-'));
  state = dir;
  const registry = createRegistry('examples/clusters.yaml', { cwd: ROOT });
  const sources = configSourcesFromFlags({ directory: 'examples/config' }, { cwd: ROOT });
  const registered = (await registry.listClusters()).find((c) => c.id === TEST)!;
  const sim = createSimulatedSetup({ stateDir: dir, registry, sources, clusters: [registered] });
  const input = { clusterId: TEST, action: 'provision' as const, options: { applyOnly: false }, trigger: 'cli' };
  const run = await runClusterUpdate(input, {
    ports: sim.ports,
    executionId: 'int-create',
    advanceClock: (s) => sim.world.advance(s * 1000),
  });
  expect(run.status).toBe('SUCCEEDED');
  const live = (await listWithStoredStatus(sim.ports)).find((c) => c.id === TEST)!;
  return { sim, live };
}

describe('a rehearsal from kube-apiserver', () => {
  it('snapshots the real API server and rehearses the snapshot in a twin without error', async () => {
    // Arrange
    const { sim, live } = await provisionedAccount();
    const aws = sim.ports.forCluster(live);

    // Act
    const snapshot = await takeSnapshot(live, {
      clock: sim.ports.clock,
      cluster: { kube, pools: aws.pools, stacks: aws.stacks, quotas: aws.quotas },
    });
    const rehearsal = await rehearseSnapshot(live, snapshot, sim.ports, { runs: 2 });

    // Assert: the real objects were read...
    expect(snapshot.kinds).toEqual([...SNAPSHOT_KINDS]);
    expect(snapshot.nodes.map((n) => n.name)).toEqual(expect.arrayContaining(KWOK_NODES));
    expect(snapshot.workloads.map((w) => `${w.kind} ${w.metadata.namespace}/${w.metadata.name}`)).toEqual(
      expect.arrayContaining(['Deployment web/web', 'PodDisruptionBudget web/web']),
    );
    // ...and the twin ran them: nothing changes in the stored config, so no node rolls and no run fails
    expect(rehearsal.runs).toBe(2);
    expect(rehearsal.failedRuns).toBe(0);
    expect(rehearsal.errors).toEqual([]);
  }, 300_000);
});
