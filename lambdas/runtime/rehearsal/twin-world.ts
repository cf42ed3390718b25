import { MemoryEventSink } from '../../adapters/events/memory-event-sink';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryFleetStore } from '../../adapters/fleet/memory-fleet-store';
import { MemoryProgressStore } from '../../adapters/progress/memory-progress-store';
import { MemoryLaunchBudget } from '../../adapters/progress/sharded-launch-budget';
import { HandlebarsTemplateEngine } from '../../adapters/templating/handlebars-template-engine';
import { MainArtifact } from '../../contracts/artifacts';
import { DEFAULT_FLEET_SETTINGS, launchLimitsOf } from '../../core/dispatch/fleet-settings';
import { clusterRef } from '../../core/model/cluster-ref';
import { awsAccountId, type Cluster } from '../../core/model/cluster';
import type { ClusterSnapshot } from '../../core/rehearsal/cluster-snapshot';
import type { ConfigSource } from '../../ports/config-source';
import type { Ports } from '../../ports/ports';
import type { Registry } from '../../ports/registry';
import { ValidationError } from '../../shared/errors';
import { SimulatedWorld } from '../../sim';
import { twinScenario } from '../../sim/snapshot-loader';
import { loadConfigFiles } from '../../tasks/render/config-files';
import { getArtifact, runArtifactKey } from '../../tasks/step/artifacts';
import { fleetStandIns } from '../wiring/fleet-services';
import { unwiredPort } from '../wiring/unwired-port';
import { runClusterUpdate } from '../local/run-cluster-update';

/** What the twin reads of the live installation: its stored artefacts and its secrets' decryption. Reads only. */
export type LiveReads = Pick<Ports, 'artifacts' | 'secrets'>;

/** A twin of the live cluster at its current version, saved once and loaded for every rehearsal run. */
export interface TwinBase {
  readonly dir: string;
  readonly progress: MemoryProgressStore['data'];
  dispose(): void;
}

/** A registry of the one cluster, keeping status in the twin's progress store (it writes nowhere else). */
export function twinRegistry(cluster: Cluster): Registry {
  const registered: Cluster = {
    ...cluster,
    status: { currentVersion: '', lastVersion: '', nextVersion: '', problems: [] },
  };
  return {
    description: `the rehearsal twin of ${cluster.id}`,
    persistsStatus: false,
    listClusters: async () => [structuredClone(registered)],
    updateStatus: async () => undefined,
    updateConfigItems: async () => undefined,
  };
}

/** The ports of a run in the twin: the twin world, its own progress, the given config sources. */
export function twinPorts(
  world: SimulatedWorld,
  progress: MemoryProgressStore,
  cluster: Cluster,
  sources: readonly ConfigSource[],
  live: LiveReads,
): Ports {
  const lookups = world.forCluster(cluster).lookups;
  return {
    registry: twinRegistry(cluster),
    sources,
    artifacts: world.artifacts,
    progress,
    clock: world.clock,
    templates: new HandlebarsTemplateEngine({ lookups }),
    secrets: live.secrets,
    fleet: new MemoryFleetStore(),
    launches: new MemoryLaunchBudget(launchLimitsOf(DEFAULT_FLEET_SETTINGS)),
    rehearsals: unwiredPort('rehearsals', 'a twin does not rehearse inside itself'),
    // The twin's own events (UpdateStarted, PoolRolled…) stay in the twin: a rehearsal announces nothing.
    ...fleetStandIns({ events: new MemoryEventSink() }),
    forCluster: (c) => world.forCluster(c),
  };
}

/**
 * The cluster as it was when its current version was deployed: its config items as that run rendered them, and each
 * pool's instance types as its live instances run (a registry change since then is part of the update rehearsed).
 */
function asDeployed(cluster: Cluster, main: MainArtifact, snapshot: ClusterSnapshot): Cluster {
  const nodePools = cluster.nodePools.map((pool) => {
    const live = snapshot.pools.find((p) => p.name === pool.name);
    const types = [...new Set((live?.instances ?? []).flatMap((i) => (i.instanceType ? [i.instanceType] : [])))];
    return types.length && !types.every((t) => pool.instanceTypes.includes(t))
      ? { ...pool, instanceTypes: types }
      : pool;
  });
  return { ...cluster, configItems: main.configItems, nodePools };
}

/** The config the cluster runs now, as its last run stored it: the twin's first provision renders that. */
async function currentConfig(
  cluster: Cluster,
  live: LiveReads,
): Promise<{ sources: ConfigSource[]; main: MainArtifact }> {
  const current = cluster.status.currentVersion;
  if (!current)
    throw new ValidationError(
      `${cluster.id} was never provisioned by CLM: there is no current version to rehearse from`,
    );
  const main = await getArtifact(live.artifacts, runArtifactKey(cluster.id, current, 'main'), MainArtifact);
  const snapshots = await loadConfigFiles(live.artifacts, main.configFilesKey);
  const sources = snapshots.map((snapshot) => ({
    name: snapshot.sourceName,
    kind: 'dir' as const,
    location: `the config ${cluster.id} runs (${current})`,
    resolveVersion: async () => snapshot.version,
    checkout: async () => snapshot,
  }));
  return { sources, main };
}

/**
 * Build the twin: a simulated world running the snapshot's workloads, provisioned by the real state machine at the
 * version the cluster runs (its stored config), its pools scaled to their live sizes. Saved in a temporary directory.
 */
export async function buildTwin(cluster: Cluster, snapshot: ClusterSnapshot, live: LiveReads): Promise<TwinBase> {
  const { sources, main } = await currentConfig(cluster, live);
  const id = awsAccountId(cluster.infrastructureAccount);
  const account = /^\d{12}$/.test(id) ? { account: { id, region: cluster.region } } : {};
  const world = SimulatedWorld.create(twinScenario(snapshot, { seed: 1, ...account }), 'rehearsal twin');
  const progress = new MemoryProgressStore();
  const ports = twinPorts(world, progress, asDeployed(cluster, main, snapshot), sources, live);
  const setup = await runClusterUpdate(
    { clusterId: cluster.id, action: 'provision', options: { applyOnly: false }, trigger: 'rehearsal' },
    { ports, executionId: 'rehearsal-setup', advanceClock: (s) => world.advance(s * 1000) },
  );
  if (setup.status !== 'SUCCEEDED')
    throw new ValidationError(
      `the rehearsal twin of ${cluster.id} could not be provisioned at its current version: ${setup.error?.Error}: ${setup.error?.Cause}`,
    );
  const pools = world.forCluster(cluster).pools;
  for (const pool of snapshot.pools) {
    const twin = await pools.getPool(clusterRef(cluster), pool.name);
    if (twin && twin.desired !== pool.desired && pool.desired <= twin.max)
      await pools.scale(clusterRef(cluster), pool.name, pool.desired);
  }
  world.runUntilIdle(6 * 3600 * 1000);
  const dir = mkdtempSync(join(tmpdir(), 'clm-rehearsal-'));
  world.save(dir);
  return {
    dir,
    progress: structuredClone(progress.data),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
