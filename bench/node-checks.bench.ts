/**
 * The scheduled pass's look at nodes (README "Node repair, forced rolls and node age"): at 1,000 clusters that all
 * ask for node repair, what one pass costs — the API calls (one listing of the nodes per cluster), the CPU of judging
 * them (core/node-renewal, core/dispatch/renewal-starts.ts, tasks/fleet/node-checks.ts), the executions it starts
 * (only where nodes are due), and the Lambda time the calls add at 16 listings at once. The fleet asks for repair and
 * an age through config-defaults.yaml: the pass reads what each cluster's last render recorded (its stored status,
 * BatchGetItem with 100 keys a call).
 */
import { renewalCandidates } from '../lambdas/core/dispatch/renewal-starts';
import type { FleetTarget } from '../lambdas/core/dispatch/fleet-targets';
import type { Cluster } from '../lambdas/core/model/cluster';
import type { KubeCluster, NodeInfo } from '../lambdas/ports/kube-cluster';
import { checkNodes, NODE_CHECKS_AT_ONCE } from '../lambdas/tasks/fleet/node-checks';
import { MemoryProgressStore } from '../lambdas/adapters/progress/memory-progress-store';
import { nodeCheckItems } from '../lambdas/core/node-renewal/node-check-items';
import { withRecordedNodeChecks } from '../lambdas/tasks/step/cluster-status';
import type { BenchResult } from './bench-result';
import { readyCluster } from './ready-cluster';
import { median } from './bench-result';
import { API_CALL_SECONDS } from './simulated-session';

export const name = 'node-checks';

const CLUSTERS = 1_000;
const POOLS = 4;
const NODES_PER_POOL = 10;
/** A Node object as the API server lists it (its image list, conditions, labels): 10–20 KB. */
const NODE_KB = 15;
const NOW = Date.parse('2026-06-01T12:00:00Z');

export async function run(): Promise<BenchResult[]> {
  const fleet = await fleetOf(CLUSTERS);
  const cpu: number[] = [];
  let outcome: Awaited<ReturnType<typeof onePass>> | undefined;
  for (let i = 0; i < 5; i++) {
    const start = process.cpuUsage();
    outcome = await onePass(fleet);
    const used = process.cpuUsage(start);
    cpu.push((used.user + used.system) / 1000);
  }
  const { calls, starts, problems, statusReads } = outcome!;
  const nodes = CLUSTERS * POOLS * NODES_PER_POOL;
  const waitSeconds = Math.ceil(calls / NODE_CHECKS_AT_ONCE) * API_CALL_SECONDS;
  return [
    {
      name: `node check in one pass, ${CLUSTERS.toLocaleString('en')} clusters`,
      value: median(cpu),
      unit: 'ms',
      note: `CPU median of 5: ${nodes.toLocaleString('en')} nodes judged (repair, age, caps)`,
    },
    {
      name: '  API calls (GET /api/v1/nodes)',
      value: calls,
      unit: 'calls',
      note: `one per cluster asking for repair or a maximum age; ≈ ${Math.round((nodes * NODE_KB) / 1024)} MB listed; ${waitSeconds.toFixed(1)} s of Lambda at ${NODE_CHECKS_AT_ONCE} at once, ${API_CALL_SECONDS} s each`,
    },
    {
      name: '  stored status reads (BatchGetItem)',
      value: statusReads,
      unit: 'calls',
      note: `the node-check items each cluster's last render recorded (config-defaults.yaml's), 100 clusters a call`,
    },
    {
      name: '  executions started',
      value: starts,
      unit: 'starts',
      note: `only the ${starts} clusters with a node due (every 100th has one lost node); ${problems} held back by a cap (a problem each); healthy clusters: none`,
    },
  ];
}

async function onePass(fleet: Awaited<ReturnType<typeof fleetOf>>) {
  let calls = 0;
  let statusReads = 0;
  const progress = fleet.progress;
  const counting = {
    getStatuses: (ids: readonly string[]) => {
      statusReads += Math.ceil(ids.length / 100);
      return progress.getStatuses(ids);
    },
  } as unknown as MemoryProgressStore;
  const ports = {
    forCluster: (cluster: Cluster) => ({
      kube: {
        listNodes: async () => {
          calls++;
          return fleet.nodes.get(cluster.id)!;
        },
      } as unknown as KubeCluster,
    }),
  };
  const candidates = renewalCandidates({
    clusters: await withRecordedNodeChecks({ progress: counting }, fleet.clusters),
    targets: fleet.targets,
    states: new Map(),
    controls: new Map(),
    starting: new Set(),
  });
  const checks = await checkNodes(ports, candidates, 'schedule', NOW);
  return { calls, starts: checks.starts.length, problems: checks.problems.length, statusReads };
}

/** 1,000 ready clusters at their target; every 100th has one node lost for 20 minutes, every 500th half a pool. */
async function fleetOf(size: number) {
  const clusters: Cluster[] = [];
  const progress = new MemoryProgressStore();
  const targets = new Map<string, FleetTarget>();
  const nodes = new Map<string, NodeInfo[]>();
  for (let i = 0; i < size; i++) {
    const pools = Array.from({ length: POOLS }, (_, p) => ({
      name: `pool-${p}`,
      profile: 'worker-default',
      instanceTypes: ['m6i.large'],
      discountStrategy: 'none',
      minSize: NODES_PER_POOL,
      maxSize: NODES_PER_POOL * 2,
      configItems: {},
    }));
    const cluster = readyCluster(i, {}, pools);
    const { id } = cluster;
    const version = cluster.status.currentVersion;
    const recorded = nodeCheckItems(version, { node_repair: 'true', node_max_age: '30d' });
    await progress.putStatus(id, { ...cluster.status, nodeChecks: recorded, updatedAt: NOW });
    clusters.push(cluster);
    targets.set(id, { ok: true, clusterHash: `h${i}`, configVersion: 'a'.repeat(40), targetVersion: version });
    const lost = i % 500 === 0 ? NODES_PER_POOL / 2 : i % 100 === 0 ? 1 : 0;
    nodes.set(
      id,
      Array.from({ length: POOLS * NODES_PER_POOL }, (_, n) => nodeOf(i, n, n < lost)),
    );
  }
  return { clusters, targets, nodes, progress };
}

function nodeOf(cluster: number, n: number, lost: boolean): NodeInfo {
  return {
    name: `ip-10-${cluster % 250}-${n}.eu-central-1.compute.internal`,
    providerId: `aws:///eu-central-1a/i-${cluster}x${n}`,
    labels: { 'node.kubernetes.io/node-pool': `pool-${Math.floor(n / NODES_PER_POOL)}` },
    annotations: {},
    taints: [],
    unschedulable: false,
    ready: !lost,
    ...(lost ? { notReadySince: new Date(NOW - 20 * 60_000).toISOString() } : {}),
    volumesAttached: false,
    createdAt: new Date(NOW - 5 * 86_400_000).toISOString(),
  };
}
