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
const EXAMPLE = readFileSync(join(ROOT, 'examples/karpenter-clusters.yaml'), 'utf8');
const dirs: string[] = [];

/** kube-burst created from `registry` in a world of its own; then a new image for every pool, Karpenter's too. */
async function created(registry: string) {
  const state = tempDir('rehearse-karpenter-state');
  const config = tempDir('rehearse-karpenter-config');
  dirs.push(state, config);
  cpSync(join(ROOT, 'examples/config'), config, { recursive: true });
  writeFileSync(join(state, 'clusters.yaml'), registry);
  const args = ['--simulate', '--registry', join(state, 'clusters.yaml'), '--directory', config, '--state', state];
  const create = await clm(['provision', ...args]);
  if (create.code !== 0) throw new Error(`creating kube-burst failed: ${create.out}${create.err}`);
  const defaults = join(config, 'cluster/config-defaults.yaml');
  writeFileSync(defaults, readFileSync(defaults, 'utf8').replace('ami-0a1b2c3d4e5f60718', 'ami-0feedface0009'));
  const sources = configSourcesFromFlags({ directory: config }, { cwd: ROOT });
  const reg = createRegistry(join(state, 'clusters.yaml'), { cwd: ROOT });
  const registered = (await reg.listClusters()).find((c) => c.id === BURST)!;
  const sim = createSimulatedSetup({ stateDir: state, registry: reg, sources, clusters: [registered] });
  const cluster = (await listWithStoredStatus(sim.ports)).find((c) => c.id === BURST)!;
  return { sim, cluster };
}

/** The update run for real on the live world, watched as the rehearsal watches its twin. */
async function realRun(live: Awaited<ReturnType<typeof created>>) {
  const observer = new RunObserver(live.sim.world, live.cluster);
  await observer.start();
  const startedAt = live.sim.world.now;
  const result = await runClusterUpdate(
    { clusterId: BURST, action: 'provision', options: { applyOnly: false }, trigger: 'cli' },
    { ports: observer.wrap(live.sim.ports), executionId: 'actual', advanceClock: (s) => observer.advance(s * 1000) },
  );
  const run = ClusterUpdateOutput.parse(result.output).run;
  const record = await live.sim.progress.getRun(BURST, run!.targetVersion!);
  const actual = await observer.finish(
    { seed: 1, status: result.status, transitions: result.stats.stateTransitions },
    startedAt,
    record!.pools,
  );
  return { result, actual };
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('rehearsing a cluster with a Karpenter pool', () => {
  it('predicts the Karpenter pool roll: its nodes, batches and surge, as the real run then has them', async () => {
    // Arrange
    const live = await created(EXAMPLE);

    // Act: the prediction, then the update for real on the same world, watched the same way
    const predicted = await rehearseUpdate(live.cluster, live.sim.ports, { runs: 1 });
    const { result, actual } = await realRun(live);

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

  it('predicts the pods left Pending while the NodePool is at its cpu limit, naming the limit', async () => {
    // Arrange: the burst NodePool may hold 6 vCPU, what its three nodes have: a replacement waits for a node to go
    const limited = EXAMPLE.replace(
      'karpenter_max_pods: "3"',
      'karpenter_max_pods: "3"\n          karpenter_cpu_limit: "6"',
    );
    const live = await created(limited);

    // Act
    const predicted = await rehearseUpdate(live.cluster, live.sim.ports, { runs: 1 });
    const { result, actual } = await realRun(live);

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    const pending = predicted.pending.find((p) => p.pod.startsWith('default/burst-'));
    expect(pending?.reason).toBe('karpenter: NodePool burst is at its limits (cpu 6 of 6): no node is launched for it');
    expect(actual.pending.some((p) => p.pod.startsWith('default/burst-') && p.reason.startsWith('karpenter:'))).toBe(
      true,
    );
    expect(predicted.surge.pools.find((p) => p.pool === 'burst')).toBeUndefined();
  });
});
