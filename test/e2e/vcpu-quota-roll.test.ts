// A roll whose surge the account's On-Demand vCPU quota refuses: the simulated Auto Scaling group's launches fail
// (VcpuLimitExceeded), and the roll must neither hang silently nor drain a node without its replacement: it records a
// problem naming the pool, the quota code and the limit (`clm status` shows it) and waits.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSourcesFromFlags } from '../../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../../lambdas/adapters/registry/create-registry';
import { vcpusByQuota } from '../../lambdas/core/capacity/vcpu-quotas';
import { runClusterUpdate } from '../../lambdas/runtime/local/run-cluster-update';
import { createSimulatedSetup } from '../../lambdas/runtime/wiring/simulated-ports';
import type { ClusterPlan } from '../../lambdas/core/plan/plan-document';
import { listWithStoredStatus } from '../../lambdas/tasks/step/cluster-status';
import {
  EXAMPLES,
  ROOT,
  TEST,
  clm,
  configWithNewImage,
  copyState,
  createKubeTest,
  kubeTestArgs,
  loadWorld,
  tempDir,
} from './support/clm-session';

const STANDARD = 'L-1216C47A';
/** How long the update is let run in virtual time before the test stops it. */
const HORIZON_MS = 3 * 3600 * 1000;

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** vCPUs of the standard quota kube-test's running instances hold once created (measured in a world without quotas). */
async function kubeTestVcpus(): Promise<number> {
  const scratch = tempDir('quota-measure');
  temps.push(scratch);
  await createKubeTest(scratch);
  const instances = Object.values(loadWorld(scratch).snapshot().accounts).flatMap((a) =>
    Object.values(a.instances).filter((i) => i.state !== 'Terminated'),
  );
  return vcpusByQuota(instances)[STANDARD] ?? 0;
}

let limit: number;
let base: string;
let config: string;

beforeAll(async () => {
  // kube-test in an account whose standard quota is exactly what the cluster runs now: no room for a surge.
  limit = await kubeTestVcpus();
  base = tempDir('quota-base');
  const scenario = join(base, '..', `quota-${process.pid}.yaml`);
  temps.push(base, scenario);
  writeFileSync(scenario, `quotas:\n  onDemandVcpus:\n    ${STANDARD}: ${limit}\n`);
  const created = await clm([...kubeTestArgs('provision', 'examples/config', base), '--scenario', scenario]);
  if (created.code !== 0) throw new Error(`creating kube-test failed: ${created.out}${created.err}`);
  config = configWithNewImage(['worker-default']);
  temps.push(config);
});

describe('clm plan --rehearse where the surge exceeds the headroom', () => {
  it('predicts it: the limit line says EXCEEDS, and the twin refuses the launch as AWS would', async () => {
    // Act
    const args = ['plan', '--simulate', ...EXAMPLES, '--directory', config, '--state', base, '--cluster', TEST];
    const json = await clm([...args, '--rehearse', '--runs', '1', '--output', 'json']);
    const text = await clm([...args, '--rehearse', '--runs', '1']);

    // Assert: surge needed vs the headroom (none: the account runs exactly its limit)
    expect(json.code).toBe(0);
    const rehearsal = (JSON.parse(json.out) as { clusters: ClusterPlan[] }).clusters[0]!.rehearsal!;
    expect(rehearsal.surge.limits).toEqual([
      expect.objectContaining({ code: STANDARD, limit, inUse: limit, headroom: 0, fits: false }),
    ]);
    expect(rehearsal.surge.limits![0]!.needed).toBeGreaterThan(0);
    // ...and the twin ran into the quota as the live roll would: the roll did not progress
    expect(rehearsal.failedRuns).toBe(1);
    expect(rehearsal.errors.join('\n')).toContain(
      `launches the account's vCPU quota ${STANDARD} refuses (limit ${limit} vCPU)`,
    );
    expect(text.out).toMatch(
      new RegExp(
        `vCPU quota ${STANDARD} \\(Running On-Demand Standard .*\\): surge needs \\d+ vCPU; headroom 0 of limit ${limit} \\(${limit} in use\\): EXCEEDS`,
      ),
    );
    expect(text.out).toContain('the update did not finish in any run');
  });
});

describe('a roll whose surge the vCPU quota refuses', () => {
  it('records a problem naming the pool, quota and limit, shows it in clm status, and drains no node', async () => {
    // Arrange
    const state = copyState(base, 'quota-state');
    temps.push(state);
    const registry = createRegistry('examples/clusters.yaml', { cwd: ROOT });
    const registered = (await registry.listClusters()).find((c) => c.id === TEST)!;
    const sources = configSourcesFromFlags({ directory: config }, { cwd: ROOT });
    const sim = createSimulatedSetup({ stateDir: state, registry, sources, clusters: [registered] });
    const cluster = (await listWithStoredStatus(sim.ports)).find((c) => c.id === TEST)!;
    const workersBefore = sim.world.describe(TEST).pools.find((p) => p.name === 'default-worker')!;
    const start = sim.world.now;

    // Act: the update (bounded: the test stops it after three virtual hours)
    const run = await runClusterUpdate(
      { clusterId: cluster.id, action: 'provision', options: { applyOnly: false }, trigger: 'test' },
      {
        ports: sim.ports,
        executionId: 'quota-roll',
        advanceClock: (s) => {
          if (sim.world.now - start > HORIZON_MS) throw new Error('stopped by the test');
          sim.world.advance(s * 1000);
        },
      },
    );
    sim.save();

    // Assert: the roll waited, then handed over to the next run (one execution's bound on one execution), saying why
    expect(run.output).toMatchObject({ held: { status: 'HANDED_OVER' } });
    const waiting = (
      await sim.ports.progress.getRun(TEST, (run.output as { run: { targetVersion: string } }).run.targetVersion)
    )?.pools['default-worker']?.message;
    expect(waiting).toContain(`launches the account's vCPU quota ${STANDARD} refuses (limit ${limit} vCPU)`);
    // ...the problem, with the pool, the quota's code and the limit
    const status = await sim.ports.progress.getStatus(TEST);
    const problem = status?.problems.find((p) => p.title.includes('cannot launch'));
    expect(problem?.title).toMatch(
      new RegExp(
        `^RollNodePool default-worker: Auto Scaling group \\S+ cannot launch m6i\\.large: the account's vCPU limit of ${limit} is reached, quota ${STANDARD} \\(Running On-Demand Standard`,
      ),
    );
    // ...no worker drained, cordoned or terminated without its replacement, no PDB broken
    const workers = sim.world.describe(TEST).pools.find((p) => p.name === 'default-worker')!;
    const before = workersBefore.instances.map((i) => i.id).sort();
    expect(workers.instances.filter((i) => i.state === 'InService').map((i) => i.id)).toEqual(before);
    const nodes = await sim.ports.forCluster(cluster).kube.listNodes();
    expect(nodes.filter((n) => n.unschedulable)).toEqual([]);
    expect(sim.world.invariants().pdbViolations).toBe(0);
    // ...and `clm status` says so
    const shown = await clm(['status', ...EXAMPLES, '--state', state, '--cluster', TEST]);
    expect(shown.out).toContain(`quota ${STANDARD}`);
    expect(shown.out).toContain(`vCPU limit of ${limit}`);
  });
});
