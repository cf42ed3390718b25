import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Cluster } from '../core/model/cluster';
import type { RunRecord } from '../core/model/run';
import type { ConfigSource } from '../ports/config-source';
import type { Ports } from '../ports/ports';
import type { Registry } from '../ports/registry';
import type { FleetSettings } from '../core/dispatch/fleet-settings';
import type { FleetServices } from '../runtime/wiring/fleet-services';
import type { FleetStore } from '../ports/fleet-store';
import type { Invariants } from '../sim';
import { UsageError, type CliIo } from './io';
import { openStateStores, stateTable } from './state-stores';
import { mountedArtifactStore } from '../adapters/artifacts/mounted-artifact-store';
import { RELEASES_PREFIX } from '../tasks/cluster-stacks/stack-releases';
import { openReleaseStore } from './release-store';
import { directoryFlag } from './directory-flag';
import { parseAgeDuration } from '../core/node-renewal/age-duration';
import { localEventSink } from './local-events';

/** The flags that choose and reach the world a command acts on. */
export interface WorldFlags {
  readonly simulate?: boolean;
  readonly scenario?: string;
  readonly state: string;
  readonly kubeconfig?: string;
  readonly token?: string;
  readonly bucket?: string;
  readonly region?: string;
  /** Cross-account mode: the role assumed in each cluster's account (`--assumed-role`, CLM_ASSUMED_ROLE). */
  readonly assumedRole?: string;
  /** What that role's trust policy requires (`--external-id`, CLM_EXTERNAL_ID). */
  readonly externalId?: string;
  /**
   * Where released cluster stacks are read (`--stack-releases DIR|s3://bucket/prefix`). @default the artefact
   * bucket's `stack-releases/` (with --simulate, the simulated bucket's), as the deployed tasks read them
   */
  readonly stackReleases?: string;
  /** `--sim-advance DURATION`: with --simulate, the simulated clock moves this far before the run. */
  readonly simAdvance?: string;
}

/**
 * Where `clm provision`/`decommission` act: the simulated account and clusters, or real AWS accounts and API
 * servers. The only place the CLI tells the two apart; everything else talks to this.
 */
export interface CliWorld {
  readonly ports: Ports;
  readonly simulated: boolean;
  /** A Wait state's seconds: the simulated clock moves on; against AWS the CLI sleeps (scaled by CLM_LOCAL_WAIT_SCALE). */
  advanceClock(seconds: number): Promise<void> | void;
  /** Persist progress (and the simulated world) after every task, so a kill loses nothing finished. */
  save(): void;
  /** This cluster is being torn down on purpose (simulated: the pods it loses are not PDB violations). */
  decommissioning(clusterId: string): void;
  /** PDB violations and double terminations seen so far (simulated only). */
  invariants(): Invariants | undefined;
  /** The cluster's stacks and their statuses after a run. */
  stacks(clusterId: string, record: RunRecord | undefined): { name: string; status: string }[];
}

export interface WorldInputs {
  readonly registry: Registry;
  readonly sources: readonly ConfigSource[];
  readonly clusters: readonly Cluster[];
  /** Every cluster id of the registry (a scenario may name any of them). @default the ids of `clusters` */
  readonly knownClusterIds?: readonly string[];
  readonly io: CliIo;
  /** `clm dispatch`/`serve`: how the dispatcher paces the fleet. */
  readonly fleetSettings?: FleetSettings;
  /** `clm dispatch`/`serve`: the execution service, event sink and webhook verifier. @default stand-ins */
  readonly services?: Partial<FleetServices>;
  /** `clm dispatch`/`serve`: the fleet store they keep. @default `<state>/fleet.json`, saved with the world */
  readonly fleet?: FleetStore;
}

export async function openCliWorld(flags: WorldFlags, inputs: WorldInputs): Promise<CliWorld> {
  if (flags.scenario && !flags.simulate) throw new UsageError('--scenario needs --simulate');
  const advanceMs = simAdvance(flags);
  if (flags.simulate && stateTable(flags.state))
    throw new UsageError(`--state ${flags.state}: the simulated world lives in a directory; give --state DIR`);
  if (!stateTable(flags.state)) directoryFlag('--state', flags.state, inputs.io.cwd);
  if (flags.scenario && !existsSync(resolve(inputs.io.cwd, flags.scenario)))
    throw new UsageError(`--scenario ${flags.scenario}: no such file (examples/scenarios/ has some)`);
  const world = flags.simulate
    ? await simulatedWorld(flags, inputs, resolve(inputs.io.cwd, flags.state), advanceMs)
    : await awsWorld(flags, inputs);
  return flags.stackReleases ? withStackReleases(world, flags.stackReleases, flags, inputs.io) : world;
}

/** `--stack-releases`: the tasks' `stack-releases/…` reads go to that directory or S3 location. */
async function withStackReleases(world: CliWorld, location: string, flags: WorldFlags, io: CliIo): Promise<CliWorld> {
  const { store } = await openReleaseStore(location, {
    cwd: io.cwd,
    flag: '--stack-releases',
    ...(flags.region ? { region: flags.region } : {}),
  });
  const ports = world.ports;
  const artifacts = mountedArtifactStore(ports.artifacts, RELEASES_PREFIX, store);
  return {
    ...world,
    ports: {
      ...ports,
      artifacts,
      forCluster: (cluster) => ports.forCluster(cluster),
    },
  };
}

/** The simulated world, loaded only here: the commands that never simulate (render, migrate…) do not pay for it. */
async function simulatedWorld(
  flags: WorldFlags,
  inputs: WorldInputs,
  stateDir: string,
  advanceMs = 0,
): Promise<CliWorld> {
  const { createSimulatedSetup } = await import('../runtime/wiring/simulated-ports');
  const sim = createSimulatedSetup({
    stateDir,
    registry: inputs.registry,
    sources: inputs.sources,
    clusters: inputs.clusters,
    ...(inputs.knownClusterIds ? { knownClusterIds: inputs.knownClusterIds } : {}),
    ...(flags.scenario ? { scenarioFile: resolve(inputs.io.cwd, flags.scenario) } : {}),
    ...(inputs.fleetSettings ? { fleetSettings: inputs.fleetSettings } : {}),
    ...(inputs.services ? { services: inputs.services } : {}),
    ...(inputs.fleet ? { fleet: inputs.fleet } : {}),
  });
  if (advanceMs > 0) {
    // Before the run: nodes age, due node incidents happen (sim/kube/node-incidents.ts); saved with the run's first task.
    sim.world.advance(advanceMs);
  }
  const pace = process.env.CLM_LOCAL_WAIT_SCALE ? waitScale(process.env.CLM_LOCAL_WAIT_SCALE) : 0;
  return {
    ports: sim.ports,
    simulated: true,
    // The virtual clock moves on; with CLM_LOCAL_WAIT_SCALE set the process also sleeps that share of each wait
    // (e.g. 0.01: a 3-minute boot takes 1.8 s), to watch a simulated run at a human pace.
    advanceClock: async (seconds) => {
      if (pace > 0) await new Promise((done) => setTimeout(done, seconds * 1000 * pace));
      sim.world.advance(seconds * 1000);
    },
    save: () => sim.save(),
    decommissioning: (clusterId) => sim.decommissioning(clusterId),
    invariants: () => sim.world.invariants(),
    stacks: (clusterId) => sim.world.describe(clusterId).stacks.map((s) => ({ name: s.name, status: s.status })),
  };
}

async function awsWorld(flags: WorldFlags, inputs: WorldInputs): Promise<CliWorld> {
  if (!flags.bucket)
    throw new UsageError('--bucket is required without --simulate (rendered configs are stored there)');
  const region = flags.region ?? 'eu-central-1';
  // Loaded only here: the SDK clients and client-node take seconds to import, which every --simulate
  // run (and every resume after a kill) would otherwise pay.
  const [{ createAwsPorts }, { S3ArtifactStore }, { createAwsClients }] = await Promise.all([
    import('../runtime/wiring/aws-ports'),
    import('../adapters/aws/s3-artifact-store'),
    import('../adapters/aws/aws-clients'),
  ]);
  // Progress under --state (a directory, or the deployed table), so a re-run after a crash continues where it stopped.
  const state = await openStateStores(flags.state, {
    cwd: inputs.io.cwd,
    region,
    ...(inputs.fleetSettings ? { fleetSettings: inputs.fleetSettings } : {}),
    fleet: !inputs.fleet,
  });
  const events = await localEventSink(flags.state, inputs.io.cwd, region);
  const ports = createAwsPorts({
    fleet: inputs.fleet ?? state.fleet!,
    services: { events, ...inputs.services },
    registry: inputs.registry,
    sources: inputs.sources,
    region,
    progress: state.progress,
    launches: state.launches,
    artifacts: new S3ArtifactStore(createAwsClients({ region }).s3, { bucket: flags.bucket, region }),
    ...(flags.token ? { token: flags.token } : {}),
    ...(flags.kubeconfig ? { kubeconfig: resolve(inputs.io.cwd, flags.kubeconfig) } : {}),
    ...(flags.assumedRole ? { assumedRole: flags.assumedRole } : {}),
    ...(flags.externalId ? { externalId: flags.externalId } : {}),
  });
  const scale = waitScale(process.env.CLM_LOCAL_WAIT_SCALE);
  return {
    ports,
    simulated: false,
    advanceClock: (seconds) => new Promise((done) => setTimeout(done, seconds * 1000 * scale)),
    save: () => state.save(),
    decommissioning: () => undefined,
    invariants: () => undefined,
    stacks: (_clusterId, record) =>
      Object.entries(record?.stacks ?? {}).map(([name, s]) => ({ name, status: s.status })),
  };
}

/**
 * `CLM_LOCAL_WAIT_SCALE`: how much of each Wait state the CLI sleeps against AWS (1, all; emulators use 0), and with
 * `--simulate` (unset: none, the virtual clock only).
 */
function waitScale(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  const scale = Number(value);
  if (!Number.isFinite(scale) || scale < 0) {
    throw new UsageError(`CLM_LOCAL_WAIT_SCALE must be a number >= 0, got "${value}"`);
  }
  return scale;
}

/** `--sim-advance`: milliseconds (0 without it); refused without --simulate or when not a duration. */
function simAdvance(flags: WorldFlags): number {
  if (flags.simAdvance === undefined) return 0;
  if (!flags.simulate) throw new UsageError('--sim-advance moves the simulated clock: it needs --simulate');
  const ms = parseAgeDuration(flags.simAdvance);
  if (ms === undefined)
    throw new UsageError(`--sim-advance ${flags.simAdvance}: expected a duration such as 90s, 10m, 6h or 30d`);
  return ms;
}
