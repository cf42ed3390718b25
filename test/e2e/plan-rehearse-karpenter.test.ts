// A rehearsal of a cluster with a Karpenter pool (examples/karpenter-clusters.yaml): a new node image rolls the
// Karpenter pool too, and the prediction gives that pool's batches (the nodes the roll takes together, within the
// NodePool's disruption budget) and its surge (the nodes Karpenter launches for the evicted pods), as the real run has.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSourcesFromFlags } from '../../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../../lambdas/adapters/registry/create-registry';
import { runClusterUpdate } from '../../lambdas/runtime/local/run-cluster-update';
import { rehearseUpdate } from '../../lambdas/runtime/rehearsal/rehearse-update';
import { RunObserver } from '../../lambdas/runtime/rehearsal/run-observer';
import { createSimulatedSetup } from '../../lambdas/runtime/wiring/simulated-ports';
import { ClusterUpdateOutput } from '../../lambdas/contracts/cluster-update';
import { listWithStoredStatus } from '../../lambdas/tasks/step/cluster-status';
import { ROOT, clm, tempDir } from './support/clm-session';

const BURST = 'aws:123456789012:eu-central-1:kube-burst';
const REGISTRY = 'examples/karpenter-clusters.yaml';

let state: string;
let config: string;

beforeAll(async () => {
  state = tempDir('rehearse-karpenter-state');
  config = tempDir('rehearse-karpenter-config');
  cpSync(join(ROOT, 'examples/config'), config, { recursive: true });
  const created = await clm([
    'provision',
    '--simulate',
    '--registry',
    REGISTRY,
    '--directory',
    config,
    '--state',
    state,
  ]);
  if (created.code !== 0) throw new Error(`creating kube-burst failed: ${created.out}${created.err}`);
  // A new image for every pool, the Karpenter pool's EC2NodeClass included.
  const defaults = join(config, 'cluster/config-defaults.yaml');
  writeFileSync(defaults, readFileSync(defaults, 'utf8').replace('ami-0a1b2c3d4e5f60718', 'ami-0feedface0009'));
});

afterAll(() => {
  for (const dir of [state, config]) rmSync(dir, { recursive: true, force: true });
});

async function liveSetup() {
  const registry = createRegistry(REGISTRY, { cwd: ROOT });
  const sources = configSourcesFromFlags({ directory: config }, { cwd: ROOT });
  const registered = (await registry.listClusters()).find((c) => c.id === BURST)!;
  const sim = createSimulatedSetup({ stateDir: state, registry, sources, clusters: [registered] });
  const cluster = (await listWithStoredStatus(sim.ports)).find((c) => c.id === BURST)!;
  return { sim, cluster };
}

describe('rehearsing a cluster with a Karpenter pool', () => {
  it('predicts the Karpenter pool roll: its nodes, batches and surge, as the real run then has them', async () => {
    // Arrange
    const live = await liveSetup();

    // Act: the prediction, then the update for real on the same world, watched the same way
    const predicted = await rehearseUpdate(live.cluster, live.sim.ports, { runs: 1 });
    const observer = new RunObserver(live.sim.world, live.cluster);
    await observer.start();
    const startedAt = live.sim.world.now;
    const result = await runClusterUpdate(
      { clusterId: BURST, action: 'provision', options: { applyOnly: false }, trigger: 'cli' },
      {
        ports: observer.wrap(live.sim.ports),
        executionId: 'actual',
        advanceClock: (s) => observer.advance(s * 1000),
      },
    );
    const run = ClusterUpdateOutput.parse(result.output).run;
    const record = await live.sim.progress.getRun(BURST, run!.targetVersion!);
    const actual = await observer.finish(
      { seed: 1, status: result.status, transitions: result.stats.stateTransitions },
      startedAt,
      record!.pools,
    );

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    const burst = predicted.pools.find((p) => p.pool === 'burst')!;
    const actualBurst = actual.pools.find((p) => p.pool === 'burst')!;
    expect(burst.nodes).toBe(actualBurst.nodes);
    expect(burst.nodes).toBeGreaterThan(0);
    expect(burst.batches).toBeGreaterThan(0);
    expect(burst.batches).toBe(actualBurst.batches);
    const surge = predicted.surge.pools.find((p) => p.pool === 'burst');
    expect(surge?.instances).toBeGreaterThan(0);
    expect(surge?.vcpu).toBeGreaterThan(0);
    expect(actual.surge.find((p) => p.pool === 'burst')?.instances).toBe(surge?.instances);
    expect(predicted.notes.join('\n')).not.toMatch(/not rehearsed/);
  });
});
