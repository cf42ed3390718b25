import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Cluster } from '../../core/model/cluster';
import type { ConfigSource } from '../../ports/config-source';
import type { Ports } from '../../ports/ports';
import type { Registry } from '../../ports/registry';
import type { MemoryProgressStore } from '../../adapters/progress/memory-progress-store';
import { openFileProgressStore } from '../../adapters/progress/file-progress-store';
import { SimulatedWorld } from '../../sim';
import { HandlebarsTemplateEngine } from '../../adapters/templating/handlebars-template-engine';

/** The simulated world and the progress kept with it under `--state DIR`. */
export interface SimulatedSetup {
  readonly world: SimulatedWorld;
  readonly progress: MemoryProgressStore;
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
  /** Scenario file for a new world (ignored when the state directory already holds one). */
  readonly scenarioFile?: string;
  /** Clusters whose account provides the AMI/instance-type lookups of the templates. */
  readonly clusters: readonly Cluster[];
}

export function createSimulatedSetup(options: SimulatedSetupOptions): SimulatedSetup {
  mkdirSync(options.stateDir, { recursive: true });
  const world =
    existsSync(join(options.stateDir, 'world.json')) || !options.scenarioFile
      ? SimulatedWorld.loadOrCreate(options.stateDir, {})
      : SimulatedWorld.fromScenarioFile(options.scenarioFile);
  const { store: progress, save: saveProgress } = openFileProgressStore(options.stateDir);
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
    forCluster: (cluster) => {
      const ports = world.forCluster(cluster);
      if (tearingDown.has(cluster.id)) world.markDecommissioning(cluster.id);
      return ports;
    },
  };
  return {
    world,
    progress,
    ports,
    decommissioning(clusterId) {
      tearingDown.add(clusterId);
    },
    save() {
      world.save(options.stateDir);
      saveProgress();
    },
  };
}
