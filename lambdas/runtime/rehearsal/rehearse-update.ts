import { MemoryProgressStore } from '../../adapters/progress/memory-progress-store';
import { ClusterUpdateOutput } from '../../contracts/cluster-update';
import type { Cluster } from '../../core/model/cluster';
import type { ClusterSnapshot } from '../../core/rehearsal/cluster-snapshot';
import { summarise, type Rehearsal, type RunObservation } from '../../core/rehearsal/rehearsal-report';
import type { RehearsalOptions, RehearsalReads, Rehearsals } from '../../ports/rehearsals';
import { SimulatedWorld } from '../../sim';
import { Prng, seedState } from '../../sim/prng';
import { takeSnapshot } from '../../tasks/rehearsal/take-snapshot';
import { runClusterUpdate } from '../local/run-cluster-update';
import { RunObserver } from './run-observer';
import { pdbReleaser } from './release-pdbs';
import { releaseNotes } from '../../core/rehearsal/pdb-releases';
import { runOutcome } from './run-outcome';
import { buildTwin, twinPorts, type LiveReads, type TwinBase } from './twin-world';

export const DEFAULT_RUNS = 5;

/** The live ports a rehearsal reads: the snapshot's, the config sources, the stored artefacts. Never a write. */
export type RehearsalPorts = RehearsalReads;

/** A multiplier in [1 - jitter, 1 + jitter] from the run's PRNG. */
function varied(seed: number, jitter: number): () => number {
  const prng = new Prng({ rng: seedState(`rehearsal-${seed}`) });
  return () => 1 - jitter + 2 * jitter * prng.next();
}

/** One run of the update in a fresh copy of the twin, timings varied by the seed. */
async function rehearseOnce(
  base: TwinBase,
  cluster: Cluster,
  snapshot: ClusterSnapshot,
  live: RehearsalPorts,
  seed: number,
  jitter: number,
): Promise<RunObservation> {
  const world = SimulatedWorld.load(base.dir);
  const factor = varied(seed, jitter);
  const t = snapshot.timings;
  world.retime(
    {
      stackUpdateSeconds: Math.round(t.stackUpdateSeconds * factor()),
      instanceBootSeconds: Math.round(t.instanceBootSeconds * factor()),
      nodeReadySeconds: Math.round(t.nodeReadySeconds * factor()),
      podTerminationSeconds: Math.round(t.podTerminationSeconds * factor()),
    },
    seed,
  );
  const progress = new MemoryProgressStore({ data: structuredClone(base.progress) });
  const release = pdbReleaser(snapshot.pdbReleases, world.forCluster(cluster).kube, (pdb) =>
    observer.blockedSince(pdb),
  );
  const observer: RunObserver = new RunObserver(world, cluster, release);
  const ports = observer.wrap(twinPorts(world, progress, cluster, live.sources, live));
  await observer.start();
  const startedAt = world.now;
  const update = (executionId: string) =>
    runClusterUpdate(
      { clusterId: cluster.id, action: 'provision', options: { applyOnly: false }, trigger: 'rehearsal' },
      { ports, executionId, advanceClock: (s) => observer.advance(s * 1000) },
    );
  let result = await update(`rehearsal-${seed}`);
  let transitions = result.stats.stateTransitions;
  // `update_requires_approval`: the rehearsal predicts the update once approved. The twin's update asks, is approved
  // (in the twin's own progress), and is run again, as an operator's `clm approve` and the next run would.
  const controls = await progress.getControls(cluster.id);
  if (controls?.approval?.status === 'PENDING') {
    const approval = { ...controls.approval, status: 'APPROVED' as const, by: 'the rehearsal', at: world.now };
    await progress.putControls(cluster.id, { ...controls, approval });
    result = await update(`rehearsal-${seed}-approved`);
    transitions += result.stats.stateTransitions;
  }
  const output = result.status === 'SUCCEEDED' ? ClusterUpdateOutput.parse(result.output) : undefined;
  const run = output?.run;
  const record = run?.targetVersion ? await progress.getRun(cluster.id, run.targetVersion) : undefined;
  return observer.finish(
    {
      seed,
      ...runOutcome(result, output, record?.pools ?? {}),
      transitions,
    },
    startedAt,
    record?.pools ?? {},
  );
}

/** What the twin leaves out for this cluster: constraints its scheduler approximates, timings it could not learn. */
function notesOf(snapshot: ClusterSnapshot): string[] {
  const constrained = snapshot.pods.filter((p) => p.constraints.length);
  const kinds = [...new Set(constrained.flatMap((p) => p.constraints))];
  const defaulted = Object.entries(snapshot.timings.sources).filter(([, s]) => s === 'default');
  return [
    ...(kinds.length
      ? [`${constrained.length} pod(s) have constraints the twin's scheduler approximates: ${kinds.join(', ')}`]
      : []),
    ...(defaulted.length ? [`no history for ${defaulted.map(([k]) => k).join(', ')}: defaults used`] : []),
    ...releaseNotes(snapshot.pdbReleases),
    ...(snapshot.karpenterNodePools.length
      ? [
          "Karpenter pools: the twin's Karpenter launches the first instance type its NodePool allows and does not consolidate",
        ]
      : []),
  ];
}

/**
 * Rehearse the update of `cluster` to what its config resolves to now: snapshot the live cluster (reads only),
 * build its twin at the version it runs, then run the real state machine there `runs` times with varied timings.
 */
export async function rehearseUpdate(
  cluster: Cluster,
  live: RehearsalPorts,
  options: RehearsalOptions = {},
): Promise<Rehearsal> {
  const snapshot = await takeSnapshot(cluster, {
    clock: live.clock,
    cluster: live.forCluster(cluster),
    ...(live.progress ? { progress: live.progress } : {}),
  });
  return rehearseSnapshot(cluster, snapshot, live, options);
}

export async function rehearseSnapshot(
  cluster: Cluster,
  snapshot: ClusterSnapshot,
  live: RehearsalPorts & LiveReads,
  options: RehearsalOptions = {},
): Promise<Rehearsal> {
  const base = await buildTwin(cluster, snapshot, live);
  try {
    const observations: RunObservation[] = [];
    const first = options.seed ?? 1;
    for (let i = 0; i < (options.runs ?? DEFAULT_RUNS); i += 1)
      observations.push(await rehearseOnce(base, cluster, snapshot, live, first + i, options.jitter ?? 0.15));
    return summarise(observations, {
      timings: snapshot.timings,
      notes: notesOf(snapshot),
      ...(snapshot.quotas ? { quotas: snapshot.quotas } : {}),
    });
  } finally {
    base.dispose();
  }
}

/** The rehearsals port, in process: the twin is the simulator, so this runs wherever the caller runs. */
export const TWIN_REHEARSALS: Rehearsals = { rehearse: rehearseUpdate };
