/**
 * One dispatcher pass over a fleet, registry parse included (issue: ≤ 10 s of CPU at 10,000 clusters;
 * DESIGN.md §8: 1,000 clusters in ≤ 5 s). A pass is what the scheduled Dispatch task does for a YAML
 * registry: parse clusters.yaml, diff each cluster's hash against the last seen, resolve every target
 * version (one lookup per channel), judge every cluster and plan the starts under the cap.
 *
 * The fleet is generated like a real one: 4 node pools of 2 instance types, 20 config items per cluster
 * and 5 per pool, three environments, three channels, 90 % up to date, a few updates running.
 */
import { DEFAULT_FLEET_SETTINGS } from '../lambdas/core/dispatch/fleet-settings';
import type { ClusterFleetState } from '../lambdas/core/dispatch/fleet-state';
import { resolveFleetTargets } from '../lambdas/core/dispatch/fleet-targets';
import { planDispatch } from '../lambdas/core/dispatch/plan-dispatch';
import { diffRegistry, withStates } from '../lambdas/core/dispatch/registry-changes';
import { parseClustersYaml } from '../lambdas/core/model/parse-clusters';
import { clusterHash } from '../lambdas/core/version/cluster-hash';
import type { BenchResult } from './bench-result';
import { median, withBudget } from './bench-result';
import { CENTS, cents, fleetDayCost } from './cost-model';
import { API_CALL_SECONDS } from './simulated-session';

export const name = 'dispatch';

const CHANNELS = ['main', 'beta', 'stable'] as const;
const ENVIRONMENTS = ['test', 'staging', 'production'] as const;
const COMMITS: Record<string, string> = { main: 'a'.repeat(40), beta: 'b'.repeat(40), stable: 'c'.repeat(40) };
const OLD_COMMIT = 'd'.repeat(40);

export async function run(): Promise<BenchResult[]> {
  return [...(await measure(1_000, 5, 5_000)), ...(await measure(10_000, 3, 10_000))];
}

async function measure(size: number, runs: number, budget: number): Promise<BenchResult[]> {
  const yaml = fleetYaml(size);
  const cpu: number[] = [];
  const parse: number[] = [];
  let starts = 0;
  let behind = 0;
  for (let i = 0; i < runs; i++) {
    const result = await pass(yaml, size);
    cpu.push(result.cpuMs);
    parse.push(result.parseCpuMs);
    starts = result.starts;
    behind = result.behind;
  }
  const note = `${(yaml.length / 1e6).toFixed(1)} MB clusters.yaml, ${behind} behind, ${starts} started, CPU median of ${runs}`;
  return [
    withBudget({
      name: `one pass, ${size.toLocaleString('en')} clusters`,
      value: median(cpu),
      unit: 'ms',
      budget,
      note,
    }),
    { name: `  of which registry parse`, value: median(parse), unit: 'ms', note: 'parseClustersYaml: YAML + zod' },
    ...(size === 1_000 ? [fleetDayFigure(size, median(cpu))] : []),
  ];
}

/** Issue 14: the dollars of a day of passes every 10 minutes over the fleet, from the measured CPU of one pass. */
function fleetDayFigure(size: number, passCpuMs: number): BenchResult {
  const cost = fleetDayCost(size, 10, passCpuMs, API_CALL_SECONDS);
  return {
    name: `cost of a day of passes every 10 min, ${size.toLocaleString('en')} clusters`,
    value: cents(cost.usd),
    unit: CENTS,
    note: `${cost.note}; ${API_CALL_SECONDS} s per API call (bench/cost-model.ts FLEET_PASS)`,
  };
}

/** One pass from the YAML text on; CPU time (user + system) of this process. */
async function pass(yaml: string, size: number) {
  const start = process.cpuUsage();
  const { clusters } = parseClustersYaml(yaml, 'clusters.yaml');
  const parseCpuMs = cpuMs(start);
  const targets = await resolveFleetTargets(clusters, [
    { name: 'main', resolveVersion: async (channel) => COMMITS[channel] },
  ]);
  // The hashes the targets already computed serve the diff too.
  const diff = diffRegistry(clusters, new Map(), (c) => targets.get(c.id)?.clusterHash ?? clusterHash(c));
  const running = runningStates(clusters.slice(0, 5).map((c) => c.id));
  const plan = planDispatch({
    clusters,
    targets,
    fleet: { clusters: withStates(running, diff.states), halts: [], overrides: [] },
    outcomes: new Map(
      [...running.values()].map((s) => [s.execution!.name, { name: s.execution!.name, status: 'RUNNING' as const }]),
    ),
    running: 5,
    settings: { ...DEFAULT_FLEET_SETTINGS, maxConcurrent: 50 },
    now: Date.now(),
    trigger: 'schedule',
  });
  const cpu = cpuMs(start);
  if (clusters.length !== size) throw new Error(`parsed ${clusters.length} clusters, expected ${size}`);
  const behind = [...targets.values()].filter((t, i) => t.ok && clusters[i].status.currentVersion !== t.targetVersion);
  return { cpuMs: cpu, parseCpuMs, starts: plan.starts.length, behind: behind.length };
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

function runningStates(ids: readonly string[]): Map<string, ClusterFleetState> {
  return new Map(
    ids.map((clusterId, i) => [
      clusterId,
      {
        clusterId,
        revision: 3,
        execution: {
          action: 'update',
          targetVersion: `${OLD_COMMIT}#x`,
          previousVersion: '',
          name: `update-bench-${i}`,
          attempt: 1,
          startedAt: 0,
          state: 'running',
          failures: 0,
        },
      },
    ]),
  );
}

/** A realistic clusters.yaml; 90 % of the clusters are at their target version. */
function fleetYaml(size: number): string {
  const withoutStatus = Array.from({ length: size }, (_, i) => clusterYaml(i, ''));
  const { clusters } = parseClustersYaml(`clusters:\n${withoutStatus.join('')}`, 'fleet.yaml');
  const entries = clusters.map((cluster, i) => {
    const commit = i % 10 === 0 ? OLD_COMMIT : COMMITS[cluster.channel];
    return clusterYaml(i, `${commit}#${clusterHash(cluster)}`);
  });
  return `# generated for the dispatch benchmark\nclusters:\n${entries.join('')}`;
}

function clusterYaml(i: number, currentVersion: string): string {
  const account = `aws:${String(100000000000 + (i % 200)).padStart(12, '0')}`;
  const local = `kube-${i}`;
  const region = i % 2 ? 'eu-central-1' : 'eu-west-1';
  const items = Array.from({ length: 20 }, (_, k) => `      item_${k}: "value-${k}-${i % 7}"\n`).join('');
  const pools = ['master-default', 'default-worker', 'stateful', 'spot']
    .map(
      (pool, p) =>
        `      - name: ${pool}\n        profile: ${p === 0 ? 'master-default' : 'worker-default'}\n` +
        `        instance_types: [m6i.large, m5.large]\n        discount_strategy: ${p === 3 ? 'spot' : 'none'}\n` +
        `        min_size: ${p === 0 ? 1 : 2}\n        max_size: ${p === 0 ? 1 : 20}\n        config_items:\n` +
        Array.from({ length: 5 }, (_, k) => `          pool_item_${k}: "${pool}-${k}"\n`).join(''),
    )
    .join('');
  return (
    `  - id: ${account}:${region}:${local}\n    alias: ${local}\n    local_id: ${local}\n` +
    `    api_server_url: https://${local}.example.org\n    channel: ${CHANNELS[i % 3]}\n` +
    `    environment: ${ENVIRONMENTS[i % 3]}\n    criticality_level: ${1 + (i % 3)}\n` +
    `    infrastructure_account: ${account}\n    lifecycle_status: ready\n    provider: zalando-aws\n` +
    `    region: ${region}\n    owner: team-${i % 40}\n    config_items:\n${items}    node_pools:\n${pools}` +
    `    status:\n      current_version: "${currentVersion}"\n      last_version: ""\n      next_version: ""\n      problems: []\n`
  );
}
