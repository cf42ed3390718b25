import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSourcesFromFlags } from '../../../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../../../lambdas/adapters/registry/create-registry';
import { fleetSettings } from '../../../lambdas/core/dispatch/fleet-settings';
import type { ExecutionResult } from '../../../lambdas/runtime/local/run-cluster-update';
import { runClusterUpdate } from '../../../lambdas/runtime/local/run-cluster-update';
import { createSimulatedSetup, type SimulatedSetup } from '../../../lambdas/runtime/wiring/simulated-ports';
import type { ScenarioInput } from '../../../lambdas/sim';
import { VirtualTime } from '../../support/virtual-time';
import { ROOT } from './clm-session';

/**
 * A few clusters of one account and region (a master and a pool `workers` of WORKERS nodes each, surge 3, no canary),
 * the examples' config without its workloads, in a simulated world under a temporary directory; their updates run as
 * whole cluster-update executions at once, overlapping in virtual time (test/support/virtual-time.ts).
 */
export const ACCOUNT = '123456789012';
export const REGION = 'eu-central-1';
export const WORKERS = 6;
const WORKER_STACK = 'cluster/node-pools/worker-default/stack.yaml';
const AMI_LINE = 'ImageId: {{NodePool.ConfigItems.ami_id}}';

export const clusterIds = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `aws:${ACCOUNT}:${REGION}:kube-${i + 1}`);

function registryYaml(ids: readonly string[]): string {
  const entry = (id: string) => {
    const local = id.split(':').pop()!;
    return `  - id: ${id}
    alias: ${local}
    local_id: ${local}
    api_server_url: https://${local}.test.example.org
    channel: main
    environment: test
    criticality_level: 1
    infrastructure_account: aws:${ACCOUNT}
    lifecycle_status: ready
    provider: zalando-aws
    region: ${REGION}
    config_items: { team: platform, update_max_surge: "3", update_canary: "false" }
    node_pools:
      - { name: master-default, profile: master-default, instance_types: [m6i.large], discount_strategy: none, min_size: 1, max_size: 1 }
      - { name: workers, profile: worker-default, instance_types: [m6i.large], discount_strategy: none, min_size: ${WORKERS}, max_size: ${WORKERS + 3} }
    status: {}
`;
  };
  return `clusters:\n${ids.map(entry).join('')}`;
}

export interface OneAccountFleet {
  readonly ids: readonly string[];
  readonly sim: SimulatedSetup;
  /** Every cluster's update at once; `label` prefixes the execution ids. */
  updateAll(label: string): Promise<ExecutionResult[]>;
  /** A new worker image: the next updates roll every worker. */
  newWorkerImage(): void;
  dispose(): void;
}

export async function oneAccountFleet(options: {
  readonly clusters: number;
  readonly scenario: ScenarioInput;
  /** Fleet settings (the launch budget's among them), as the CLI flags give them. */
  readonly settings?: Record<string, unknown>;
}): Promise<OneAccountFleet> {
  const ids = clusterIds(options.clusters);
  const dir = mkdtempSync(join(tmpdir(), 'clm-one-account-'));
  const config = join(dir, 'config');
  cpSync(join(ROOT, 'examples/config'), config, { recursive: true });
  for (const component of ['05-backup-policies', '10-coredns', '20-web', '30-database'])
    rmSync(join(config, 'cluster/manifests', component), { recursive: true });
  writeFileSync(join(config, 'cluster/manifests/deletions.yaml'), 'pre_apply: []\npost_apply: []\n');
  writeFileSync(join(dir, 'clusters.yaml'), registryYaml(ids));
  writeFileSync(join(dir, 'scenario.json'), JSON.stringify(options.scenario));
  const registry = createRegistry(join(dir, 'clusters.yaml'), { cwd: dir });
  const sim = createSimulatedSetup({
    stateDir: join(dir, 'state'),
    registry,
    sources: configSourcesFromFlags({ directory: config }, { cwd: dir }),
    clusters: await registry.listClusters(),
    scenarioFile: join(dir, 'scenario.json'),
    fleetSettings: fleetSettings(options.settings ?? {}),
  });
  return {
    ids,
    sim,
    updateAll(label) {
      const time = new VirtualTime(sim.world);
      const ports = { ...sim.ports, clock: time.clock };
      return time.all(
        ids.map(
          (clusterId) => () =>
            runClusterUpdate(
              { clusterId, action: 'provision', options: { applyOnly: false }, trigger: 'cli' },
              { ports, executionId: `${label}:${clusterId}`, advanceClock: (seconds) => time.wait(seconds * 1000) },
            ),
        ),
      );
    },
    newWorkerImage() {
      const file = join(config, WORKER_STACK);
      writeFileSync(file, readFileSync(file, 'utf8').replace(AMI_LINE, 'ImageId: ami-0feedface0001'));
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The target version an execution reached (its output's run). */
export function targetOf(result: ExecutionResult): string {
  return (result.output as { run: { targetVersion: string } }).run.targetVersion;
}
