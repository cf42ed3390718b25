/**
 * How well a rehearsal predicts an update: each case's cluster is created in a simulated world, its worker image
 * changed, the update rehearsed (`clm plan --rehearse`: a snapshot, its twin, 3 runs), and then run for real on that
 * world with other seeds and timings the rehearsal does not know: boot ±30 %, pod termination ±50 %, and in some cases
 * a PDB that refuses evictions for a while or an operator relaxing a PDB. Figures: predicted (p50) vs actual
 * duration, PDB blocks over 5 minutes seen and predicted, Pending pods seen and predicted. Virtual time, not wall time.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSourcesFromFlags } from '../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../lambdas/adapters/registry/create-registry';
import { ClusterUpdateOutput } from '../lambdas/contracts/cluster-update';
import type { Rehearsal, RunObservation } from '../lambdas/core/rehearsal/rehearsal-report';
import { runClusterUpdate } from '../lambdas/runtime/local/run-cluster-update';
import { rehearseUpdate } from '../lambdas/runtime/rehearsal/rehearse-update';
import { RunObserver, standIn } from '../lambdas/runtime/rehearsal/run-observer';
import { runOutcome } from '../lambdas/runtime/rehearsal/run-outcome';
import { createSimulatedSetup } from '../lambdas/runtime/wiring/simulated-ports';
import { Prng, seedState } from '../lambdas/sim/prng';
import { listWithStoredStatus } from '../lambdas/tasks/step/cluster-status';
import { median, type BenchResult } from './bench-result';
import { rehearsalCases, type OperatorAction, type RehearsalCase } from './rehearsal-scenarios';
import { ROOT } from './simulated-session';

export const name = 'rehearsal';

const WORKER_STACK = 'cluster/node-pools/worker-default/stack.yaml';
const LONG_BLOCK_SECONDS = 300;

interface CaseResult {
  readonly name: string;
  readonly predicted: Rehearsal;
  readonly actual: RunObservation;
  readonly error: number;
  readonly boot: number;
  readonly drain: number;
  /** An operator acted during the real run (unknowable to the rehearsal). */
  readonly operator: boolean;
}

const results: CaseResult[] = [];

/** A pod's workload: a Deployment's pods lose their ReplicaSet hash and suffix (names differ from run to run). */
const workloadOf = standIn;

async function setup(dir: string, c: RehearsalCase) {
  const registry = createRegistry(join(dir, 'clusters.yaml'), { cwd: dir });
  const sources = configSourcesFromFlags({ directory: join(dir, 'config') }, { cwd: dir });
  const registered = (await registry.listClusters()).find((x) => x.id === c.clusterId)!;
  const sim = createSimulatedSetup({
    stateDir: join(dir, 'state'),
    registry,
    sources,
    clusters: [registered],
    scenarioFile: join(dir, 'scenario.json'),
  });
  const cluster = (await listWithStoredStatus(sim.ports)).find((x) => x.id === c.clusterId)!;
  return { sim, cluster };
}

async function runCase(c: RehearsalCase, index: number): Promise<CaseResult> {
  const dir = mkdtempSync(join(tmpdir(), 'clm-bench-rehearsal-'));
  try {
    cpSync(join(ROOT, 'examples/config'), join(dir, 'config'), { recursive: true });
    c.prepare?.(join(dir, 'config'));
    writeFileSync(join(dir, 'clusters.yaml'), c.registry);
    writeFileSync(join(dir, 'scenario.json'), JSON.stringify(c.scenario));
    const created = await setup(dir, c);
    const create = await runClusterUpdate(
      { clusterId: c.clusterId, action: 'provision', options: { applyOnly: false }, trigger: 'cli' },
      { ports: created.sim.ports, executionId: 'create', advanceClock: (s) => created.sim.world.advance(s * 1000) },
    );
    if (create.status !== 'SUCCEEDED') throw new Error(`${c.name}: create failed: ${create.error?.Cause}`);
    created.sim.world.runUntilIdle(3600_000);
    created.sim.save();
    if (c.history) await historyRun(c, dir);
    changeImage(c, dir, 'ami-0feedface0001');
    if (c.registryChange) writeFileSync(join(dir, 'clusters.yaml'), c.registryChange(c.registry));

    // The prediction, from the live world through reads only.
    const live = await setup(dir, c);
    const predicted = await rehearseUpdate(live.cluster, live.sim.ports, { runs: 3 });

    const { actual, boot, drain } = await realRun(c, index, live);
    const error = Math.abs(predicted.durationSeconds.p50 - actual.durationSeconds) / actual.durationSeconds;
    return { name: c.name, predicted, actual, error, boot, drain, operator: c.operator !== undefined };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function changeImage(c: RehearsalCase, dir: string, image: string): void {
  if (c.changeImage) return c.changeImage(join(dir, 'config'), image);
  const stack = join(dir, 'config', WORKER_STACK);
  writeFileSync(stack, readFileSync(stack, 'utf8').replace(/ImageId: \S+/, `ImageId: ${image}`));
}

/**
 * The update run on `live`'s world, watched by a RunObserver; the operator (when given) applies its objects once the
 * run has gone on for its `afterSeconds`.
 */
async function observedUpdate(
  c: RehearsalCase,
  live: Awaited<ReturnType<typeof setup>>,
  executionId: string,
  operator: OperatorAction | undefined,
) {
  const { world } = live.sim;
  const kube = live.sim.ports.forCluster(live.cluster).kube;
  const startedAt = world.now;
  let acted = false;
  const observer = new RunObserver(world, live.cluster, async (now) => {
    if (!operator || acted || now - startedAt < operator.afterSeconds * 1000) return;
    acted = true;
    await kube.apply(operator.apply, { fieldManager: 'operator' });
  });
  await observer.start();
  const result = await runClusterUpdate(
    { clusterId: c.clusterId, action: 'provision', options: { applyOnly: false }, trigger: 'cli' },
    { ports: observer.wrap(live.sim.ports), executionId, advanceClock: (s) => observer.advance(s * 1000) },
  );
  return { observer, result, startedAt, kube };
}

/** An earlier update (another node image) with the operator acting as the case's history says, then restoring. */
async function historyRun(c: RehearsalCase, dir: string): Promise<void> {
  changeImage(c, dir, 'ami-0feedface0000');
  const earlier = await setup(dir, c);
  const { result, kube } = await observedUpdate(c, earlier, 'history', c.history!.operator);
  if (result.status !== 'SUCCEEDED') throw new Error(`${c.name}: the earlier update failed: ${result.error?.Cause}`);
  await kube.apply(c.history!.restore, { fieldManager: 'operator' });
  earlier.sim.world.runUntilIdle(3600_000);
  earlier.sim.save();
}

/** The real run: other seeds, timings the rehearsal does not know, a PDB blocking or an operator acting. */
async function realRun(c: RehearsalCase, index: number, live: Awaited<ReturnType<typeof setup>>) {
  const prng = new Prng({ rng: seedState(`actual-${index}`) });
  const boot = 0.7 + 0.6 * prng.next();
  const drain = 0.5 + prng.next();
  const { world } = live.sim;
  const t = world.scenario.timings;
  world.retime(
    {
      instanceBootSeconds: Math.round(t.instanceBootSeconds * boot),
      nodeReadySeconds: Math.round(t.nodeReadySeconds * boot),
      podTerminationSeconds: Math.round(t.podTerminationSeconds * drain),
    },
    1000 + index,
  );
  const sinceStart = (world.now - Date.parse(world.scenario.startTime)) / 1000;
  if (c.blockFor)
    world.addFaults({
      blockedEvictions: [
        {
          cluster: c.clusterId,
          namespace: c.blockFor.namespace,
          pdb: c.blockFor.pdb,
          untilSeconds: sinceStart + c.blockFor.seconds,
        },
      ],
    });
  const { observer, result, startedAt } = await observedUpdate(c, live, 'actual', c.operator);
  const output = result.status === 'SUCCEEDED' ? ClusterUpdateOutput.parse(result.output) : undefined;
  const run = output?.run;
  const record = run?.targetVersion ? await live.sim.progress.getRun(c.clusterId, run.targetVersion) : undefined;
  const actual = await observer.finish(
    {
      seed: 1000 + index,
      ...runOutcome(result, output, record?.pools ?? {}),
      transitions: result.stats.stateTransitions,
    },
    startedAt,
    record?.pools ?? {},
  );
  // A real run may fail (a health gate stopping the roll): the rehearsal should have seen that too.
  return { actual, boot, drain };
}

export async function run(): Promise<BenchResult[]> {
  const only = process.env.REHEARSAL_CASES?.split(',');
  for (const [i, c] of rehearsalCases().entries()) {
    if (only && !only.includes(c.name)) continue;
    process.stderr.write(`  ${c.name}...\n`);
    results.push(await runCase(c, i));
  }
  // A real run that did not finish (its surge over the vCPU headroom, say) has no duration to compare: it counts in
  // "failed real runs predicted" instead.
  const finished = results.filter((r) => r.actual.status === 'SUCCEEDED');
  const errors = finished.map((r) => r.error * 100);
  const quotaStalls = results.filter((r) => /vCPU quota/.test(r.actual.error ?? ''));
  const longBlocks = results.flatMap((r) =>
    r.actual.pdbBlocks
      .filter((b) => b.seconds > LONG_BLOCK_SECONDS)
      .map((b) => r.predicted.pdbBlocks.some((p) => p.namespace === b.namespace && p.name === b.name)),
  );
  const pendingSeen = results.flatMap((r) =>
    [...new Set(r.actual.pending.map((p) => workloadOf(p.pod)))].map((w) => ({ r, w })),
  );
  const pendingPredicted = pendingSeen.filter(({ r, w }) => r.predicted.pending.some((p) => workloadOf(p.pod) === w));
  const failed = results.filter((r) => r.actual.status === 'FAILED');
  return [
    { name: 'cases', value: results.length, unit: 'scenarios' },
    {
      name: 'failed real runs predicted',
      value: failed.filter((r) => r.predicted.failedRuns > 0).length,
      unit: `of ${failed.length}`,
      ok: failed.every((r) => r.predicted.failedRuns > 0),
    },
    { name: 'median duration error', value: median(errors), unit: '%', budget: 10, ok: median(errors) <= 10 },
    { name: 'worst duration error', value: Math.max(...errors), unit: '%', budget: 25, ok: Math.max(...errors) <= 25 },
    {
      name: 'worst error, no operator acting',
      value: Math.max(...finished.filter((r) => !r.operator).map((r) => r.error * 100)),
      unit: '%',
      note: 'the cases where nothing outside CLM changes the cluster during the real run',
    },
    {
      name: 'surge over the vCPU headroom predicted',
      value: quotaStalls.filter((r) => r.predicted.surge.limits?.some((q) => q.fits === false)).length,
      unit: `of ${quotaStalls.length} real runs the quota stopped`,
      ok: quotaStalls.every((r) => r.predicted.surge.limits?.some((q) => q.fits === false)),
    },
    {
      name: 'PDB blocks > 5 min predicted',
      value: longBlocks.filter(Boolean).length,
      unit: `of ${longBlocks.length}`,
      ok: longBlocks.every(Boolean),
    },
    {
      name: 'Pending workloads predicted',
      value: pendingPredicted.length,
      unit: `of ${pendingSeen.length} seen`,
      note: `predicted in all: ${results.reduce((n, r) => n + new Set(r.predicted.pending.map((p) => workloadOf(p.pod))).size, 0)}`,
    },
  ];
}

export function epilogue(): string[] {
  const lines = ['rehearsal: predicted (p50, p90 of 3 twin runs) vs the real run (boot ×, drain × its perturbation)'];
  for (const r of results) {
    const blocks = (o: { pdbBlocks: readonly { name: string; seconds: { p50: number } | number }[] }) =>
      o.pdbBlocks
        .map((b) => `${b.name} ${Math.round(typeof b.seconds === 'number' ? b.seconds : b.seconds.p50)}s`)
        .join(' ') || '-';
    lines.push(
      `  ${r.name.padEnd(22)} predicted ${r.predicted.durationSeconds.p50}s (p90 ${r.predicted.durationSeconds.p90}s)  actual ${Math.round(r.actual.durationSeconds)}s` +
        `  error ${(r.error * 100).toFixed(1)}%  boot ×${r.boot.toFixed(2)} drain ×${r.drain.toFixed(2)}` +
        `  PDB blocks predicted [${blocks(r.predicted)}] seen [${blocks(r.actual)}]` +
        `  Pending predicted ${r.predicted.pending.length} seen ${r.actual.pending.length}` +
        `  ${r.actual.status === 'FAILED' ? `FAILED (predicted in ${r.predicted.failedRuns}/${r.predicted.runs})` : ''}`,
    );
  }
  return lines;
}
