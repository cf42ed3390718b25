import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Cluster } from '../../core/model/cluster';
import type { ConfigSource } from '../../ports/config-source';
import type { Ports } from '../../ports/ports';
import type { Registry } from '../../ports/registry';
import type { MemoryProgressStore } from '../../adapters/progress/memory-progress-store';
import { openFileProgressStore } from '../../adapters/progress/file-progress-store';
import { openFileFleetStore } from '../../adapters/fleet/file-fleet-store';
import { DEFAULT_FLEET_SETTINGS, launchLimitsOf, type FleetSettings } from '../../core/dispatch/fleet-settings';
import { FileLaunchBudget } from '../../adapters/progress/file-launch-budget';
import type { FleetStore } from '../../ports/fleet-store';
import { lazyRehearsals } from '../rehearsal/lazy-rehearsals';
import { fleetStandIns, type FleetServices } from './fleet-services';
import { EVENTS_FILE, FileEventSink } from '../../adapters/events/file-event-sink';
import { SimulatedWorld, loadScenarioFile, parseScenario } from '../../sim';
import { ValidationError } from '../../shared/errors';
import { HandlebarsTemplateEngine } from '../../adapters/templating/handlebars-template-engine';

/** The simulated world and the progress kept with it under `--state DIR`. */
export interface SimulatedSetup {
  readonly world: SimulatedWorld;
  readonly progress: MemoryProgressStore;
  /** The fleet state (fleet.json under the same directory, unless the caller gave one). */
  readonly fleet: FleetStore;
  readonly ports: Ports;
  /** Persist world and progress atomically (called after every task, so SIGKILL loses nothing finished). */
  save(): void;
  /** This cluster is being torn down on purpose: pods it loses are not PDB violations. */
  decommissioning(clusterId: string): void;
}

export interface SimulatedSetupOptions {
  readonly stateDir: string;
  readonly registry: Registry;
  readonly sources: readonly ConfigSource[];
  /**
   * Scenario file for a new world. When the state directory already holds a world, only the scenario that world was
   * created from is accepted (another one is refused: it could not take effect).
   */
  readonly scenarioFile?: string;
  /** Every cluster id of the registry: scenario faults naming another cluster are refused. @default clusters' ids */
  readonly knownClusterIds?: readonly string[];
  /** Clusters whose account provides the AMI/instance-type lookups of the templates. */
  readonly clusters: readonly Cluster[];
  /** How the dispatcher paces the fleet (`clm dispatch`, `clm serve`). @default DEFAULT_FLEET_SETTINGS */
  readonly fleetSettings?: FleetSettings;
  /** The execution service, event sink and webhook verifier of `clm serve`/`dispatch`. @default stand-ins */
  readonly services?: Partial<FleetServices>;
  /** A fleet store the caller keeps (and saves). @default `<stateDir>/fleet.json`, saved with the world */
  readonly fleet?: FleetStore;
}

/** `--scenario` for a directory whose world was created from another scenario: refused, saying how to go on. */
function scenarioMismatch(stateDir: string, scenarioFile: string, world: SimulatedWorld): ValidationError {
  const origin = world.scenarioFile
    ? `from the scenario ${world.scenarioFile}`
    : JSON.stringify(world.scenario) === JSON.stringify(parseScenario({}))
      ? 'without a scenario'
      : 'from another scenario';
  return new ValidationError(
    `--scenario ${scenarioFile}: the simulated world in ${stateDir} was created earlier ${origin}, and a scenario only ` +
      `shapes a new world. To start fresh with ${scenarioFile}, remove ${stateDir} or give another --state; to go on ` +
      `with the world as it is, leave out --scenario`,
  );
}

export function createSimulatedSetup(options: SimulatedSetupOptions): SimulatedSetup {
  const check = { knownClusters: options.knownClusterIds ?? options.clusters.map((c) => c.id) };
  const scenario = options.scenarioFile ? loadScenarioFile(options.scenarioFile, check) : undefined;
  const existing = existsSync(join(options.stateDir, 'world.json'));
  const world = existing
    ? SimulatedWorld.load(options.stateDir)
    : SimulatedWorld.create(scenario ?? {}, options.scenarioFile, options.scenarioFile !== undefined);
  if (existing && scenario && JSON.stringify(scenario) !== JSON.stringify(world.scenario))
    throw scenarioMismatch(options.stateDir, options.scenarioFile!, world);
  const { store: progress, save: saveProgress } = openFileProgressStore(options.stateDir);
  const own = options.fleet ? undefined : openFileFleetStore(options.stateDir, options.fleetSettings);
  const fleet = options.fleet ?? own!.store;
  const tearingDown = new Set<string>();
  const first = options.clusters[0];
  const lookups = first ? world.forCluster(first).lookups : undefined;
  const ports: Ports = {
    registry: options.registry,
    sources: options.sources,
    artifacts: world.artifacts,
    progress,
    clock: world.clock,
    templates: new HandlebarsTemplateEngine(lookups ? { lookups } : {}),
    // The simulated KMS: `aws:kms:` values are base64 of the plaintext.
    secrets: { decrypt: async (ciphertext) => Buffer.from(ciphertext, 'base64').toString('utf8') },
    fleet,
    launches: new FileLaunchBudget(options.stateDir, launchLimitsOf(options.fleetSettings ?? DEFAULT_FLEET_SETTINGS)),
    rehearsals: lazyRehearsals,
    ...fleetStandIns({
      // The tasks' own events (UpdateStarted, PoolRolled…) of a simulated run: `<state>/events.jsonl`, unless given.
      events: new FileEventSink(join(options.stateDir, EVENTS_FILE), () => world.clock.now()),
      ...options.services,
    }),
    forCluster: (cluster) => {
      const ports = world.forCluster(cluster);
      if (tearingDown.has(cluster.id)) world.markDecommissioning(cluster.id);
      return ports;
    },
  };
  return {
    world,
    progress,
    fleet,
    ports,
    decommissioning(clusterId) {
      tearingDown.add(clusterId);
    },
    save() {
      world.save(options.stateDir);
      saveProgress();
      own?.save();
    },
  };
}
