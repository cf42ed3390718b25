// A rehearsal learns from the cluster's own earlier roll how long a PDB that allows no disruption held the drain:
// the roll records each PDB's block in its run record, the snapshot reads the last runs' records (a read), and the
// twin lets one pod go after as long. Without that history it predicts the drain forced at drain_grace_period.
import { rmSync } from 'node:fs';
import { configSourcesFromFlags } from '../../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../../lambdas/adapters/registry/create-registry';
import { ClusterUpdateOutput } from '../../lambdas/contracts/cluster-update';
import type { KubeObject } from '../../lambdas/ports/kube-cluster';
import { runClusterUpdate } from '../../lambdas/runtime/local/run-cluster-update';
import { rehearseUpdate } from '../../lambdas/runtime/rehearsal/rehearse-update';
import { RunObserver } from '../../lambdas/runtime/rehearsal/run-observer';
import { createSimulatedSetup } from '../../lambdas/runtime/wiring/simulated-ports';
import { takeSnapshot } from '../../lambdas/tasks/rehearsal/take-snapshot';
import { listWithStoredStatus } from '../../lambdas/tasks/step/cluster-status';
import { ROOT, TEST, configWithNewImage, createKubeTest, tempDir } from './support/clm-session';

/** The operator relaxes the PDB this long after it first refused an eviction (drain_grace_period is 10m here). */
const OPERATOR_AFTER_SECONDS = 240;

const pay = (maxUnavailable: number): KubeObject[] => [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'pay', namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'pay' } },
      template: {
        metadata: { labels: { app: 'pay' } },
        spec: { containers: [{ name: 'pay', image: 'pay', resources: { requests: { cpu: '100m' } } }] },
      },
    },
  },
  {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'pay', namespace: 'default' },
    spec: { maxUnavailable, selector: { matchLabels: { app: 'pay' } } },
  },
];

let state: string;
const configs: string[] = [];

async function live(config: string) {
  const registry = createRegistry('examples/clusters.yaml', { cwd: ROOT });
  const sources = configSourcesFromFlags({ directory: config }, { cwd: ROOT });
  const registered = (await registry.listClusters()).find((c) => c.id === TEST)!;
  const sim = createSimulatedSetup({ stateDir: state, registry, sources, clusters: [registered] });
  const cluster = (await listWithStoredStatus(sim.ports)).find((c) => c.id === TEST)!;
  return { sim, cluster, kube: sim.ports.forCluster(cluster).kube };
}

beforeAll(async () => {
  state = tempDir('rehearse-history');
  await createKubeTest(state);
  configs.push(configWithNewImage(['worker-default'], 'ami-0feedface0000'));
  configs.push(configWithNewImage(['worker-default'], 'ami-0feedface0001'));
  const { sim, kube } = await live(configs[0]!);
  await kube.apply(pay(0), { fieldManager: 'team-pay' });
  sim.world.runUntilIdle(3600_000);
  sim.save();
});

afterAll(() => {
  for (const dir of [state, ...configs]) rmSync(dir, { recursive: true, force: true });
});

describe('a rehearsal that learns from the earlier roll of the cluster', () => {
  it('records the PDB block in the run, and predicts the next roll with the block as long as it lasted then', async () => {
    // Arrange: an earlier update, in which the pay team relaxed its PDB four minutes into the block, then restored it
    const earlier = await live(configs[0]!);
    let relaxed = false;
    const observer: RunObserver = new RunObserver(earlier.sim.world, earlier.cluster, async (now) => {
      const since = observer.blockedSince('default/pay');
      if (relaxed || since === undefined || now - since < OPERATOR_AFTER_SECONDS * 1000) return;
      relaxed = true;
      await earlier.kube.apply([pay(1)[1]!], { fieldManager: 'team-pay' });
    });
    await observer.start();
    const result = await runClusterUpdate(
      { clusterId: TEST, action: 'provision', options: { applyOnly: false }, trigger: 'cli' },
      {
        ports: observer.wrap(earlier.sim.ports),
        executionId: 'earlier',
        advanceClock: (s) => observer.advance(s * 1000),
      },
    );
    expect(result.status).toBe('SUCCEEDED');
    expect(relaxed).toBe(true);
    const version = ClusterUpdateOutput.parse(result.output).run!.targetVersion!;
    const record = await earlier.sim.progress.getRun(TEST, version);
    await earlier.kube.apply([pay(0)[1]!], { fieldManager: 'team-pay' });
    earlier.sim.world.runUntilIdle(3600_000);
    earlier.sim.save();

    // Act
    const next = await live(configs[1]!);
    const snapshot = await takeSnapshot(next.cluster, {
      clock: next.sim.ports.clock,
      cluster: next.sim.ports.forCluster(next.cluster),
      progress: next.sim.ports.progress,
    });
    const learned = await rehearseUpdate(next.cluster, next.sim.ports, { runs: 1 });
    const { progress: _history, ...withoutHistory } = next.sim.ports;
    const unknown = await rehearseUpdate(next.cluster, withoutHistory, { runs: 1 });

    // Assert: the roll kept the block, ended without a forced drain
    const spells = Object.values(record!.pools).flatMap((p) => p.pdbBlocks ?? []);
    const spell = spells.find((s) => s.pdb === 'default/pay')!;
    expect(spell.forced).toBeUndefined();
    const seconds = (spell.endedAt! - spell.since) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(OPERATOR_AFTER_SECONDS);
    expect(seconds).toBeLessThan(600);
    // ...the snapshot learned it from the run record, and the twin's block lasts as long
    expect(snapshot.pdbReleases).toEqual([
      { pdb: 'default/pay', seconds: Math.round(seconds), released: 1, forced: 0 },
    ]);
    const block = (r: typeof learned) => r.pdbBlocks.find((b) => b.name === 'pay' && b.namespace === 'default');
    expect(Math.abs(block(learned)!.seconds.p50 - seconds)).toBeLessThanOrEqual(90);
    expect(learned.notes.join('\n')).toMatch(
      /PDB default\/pay allows no disruption; in the last runs its block ended after/,
    );
    // ...while without the history the drains wait for drain_grace_period (10m) and are forced
    expect(unknown.forcedDrains.some((f) => f.pod.startsWith('default/pay-'))).toBe(true);
    expect(block(unknown)!.seconds.p50).toBeGreaterThan(block(learned)!.seconds.p50);
    expect(unknown.durationSeconds.p50).toBeGreaterThan(learned.durationSeconds.p50);
    expect(unknown.notes.join('\n')).toMatch(/default\/pay allows no disruption and no earlier run saw its block end/);
  });
});
