/**
 * The fleet page the dispatcher publishes after every pass (lambdas/tasks/fleet/fleet-page.ts publishFleetPage): at
 * 1,000 and 10,000 clusters, what one publication costs — the progress-store requests it makes (as DynamoDB would
 * count them: a GetItem per single read, a BatchGetItem per 100 keys of a batched one), the CPU of reading, building
 * and rendering the page, and the size of the HTML object.
 *
 * The fleet is a steady one: three environments (waves), every cluster with the finished run of its version (4 pools
 * of 10 nodes replaced); every 100th cluster rolls (a newer version, an unfinished run, the lease held), every 250th
 * failed mid-roll (an unfinished run, no lease, a problem), every 500th is paused.
 */
import { MemoryFleetStore } from '../lambdas/adapters/fleet/memory-fleet-store';
import { MemoryProgressStore } from '../lambdas/adapters/progress/memory-progress-store';
import type { Cluster } from '../lambdas/core/model/cluster';
import type { NodeProgress, PoolProgress, RunRecord } from '../lambdas/core/model/run';
import type { ArtifactStore } from '../lambdas/ports/artifact-store';
import type { ProgressStore } from '../lambdas/ports/progress-store';
import { fleetPageOf, fleetPageReports, publishFleetPage } from '../lambdas/tasks/fleet/fleet-page';
import { renderFleetPage } from '../lambdas/core/fleet-page/render-fleet-page';
import { gzipSync } from 'node:zlib';
import type { BenchResult } from './bench-result';
import { median } from './bench-result';
import { readyCluster } from './ready-cluster';

export const name = 'fleet-page';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const ENVIRONMENTS = ['test', 'staging', 'production'] as const;
const NEXT_VERSION = `${'b'.repeat(40)}#next`;
const POOLS = 4;
const NODES_PER_POOL = 10;
/** Keys a BatchGetItem call takes. */
const BATCH = 100;

export async function run(): Promise<BenchResult[]> {
  return [...(await measure(1_000, 5)), ...(await measure(10_000, 3))];
}

async function measure(size: number, runs: number): Promise<BenchResult[]> {
  const fleet = await fleetOf(size);
  const cpu: number[] = [];
  const page: number[] = [];
  let last: Awaited<ReturnType<typeof publish>> | undefined;
  for (let i = 0; i < runs; i++) {
    last = await publish(fleet);
    cpu.push(last.cpuMs);
    page.push(await pageCpu(fleet));
  }
  const { requests, calls, bytes, gzipped } = last!;
  const label = size.toLocaleString('en');
  const byMethod = [...calls].map(([method, n]) => `${method} ×${n.toLocaleString('en')}`).join(', ');
  return [
    {
      name: `fleet page, ${label} clusters`,
      value: median(cpu),
      unit: 'ms',
      note: `CPU median of ${runs}: store reads (in memory), page model and HTML of publishFleetPage`,
    },
    {
      name: '  of which page model and HTML',
      value: median(page),
      unit: 'ms',
      note: 'fleetPageOf + renderFleetPage on the reports read (the part no store change touches)',
    },
    {
      name: '  progress-store requests',
      value: requests,
      unit: 'calls',
      note: `as DynamoDB counts them (GetItem each, BatchGetItem per ${BATCH} keys): ${byMethod}`,
    },
    {
      name: '  HTML object',
      value: Math.round(bytes / 1024),
      unit: 'KB',
      note: `${(bytes / size).toFixed(0)} bytes per cluster; ${Math.round(gzipped / 1024)} KB gzipped (S3 serves it as written, uncompressed)`,
    },
  ];
}

async function publish(fleet: Awaited<ReturnType<typeof fleetOf>>) {
  const { progress, requests, calls } = counting(fleet.progress);
  let body = '';
  const artifacts = {
    put: async (_key: string, text: string) => {
      body = text;
    },
  } as unknown as ArtifactStore;
  const clock = { now: () => NOW } as Parameters<typeof publishFleetPage>[0]['clock'];
  const start = process.cpuUsage();
  await publishFleetPage({ progress, fleet: fleet.store, artifacts, clock }, fleet.clusters, fleet.targets);
  const used = process.cpuUsage(start);
  return {
    cpuMs: (used.user + used.system) / 1000,
    requests: requests(),
    calls,
    bytes: Buffer.byteLength(body),
    gzipped: gzipSync(body).length,
  };
}

/** CPU of the page model and its HTML alone, from the reports as publishFleetPage reads them. */
async function pageCpu(fleet: Awaited<ReturnType<typeof fleetOf>>): Promise<number> {
  const snapshot = await fleet.store.loadFleet();
  const reports = await fleetPageReports(fleet.progress, fleet.clusters, snapshot, fleet.targets, { system: NOW });
  const start = process.cpuUsage();
  const page = fleetPageOf(fleet.clusters, reports, {
    fleet: snapshot,
    settings: fleet.store.settings,
    now: NOW,
    targets: fleet.targets,
  });
  renderFleetPage(page);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * The store with each method's calls counted, and the DynamoDB requests they stand for: a GetItem per single read, a
 * BatchGetItem per 100 keys of a batched one; `getRuns` of the unfinished runs reads each run's end first (projected),
 * then the unfinished runs whole (dynamodb-progress-store.ts).
 */
function counting(store: ProgressStore) {
  const calls = new Map<string, number>();
  let requests = 0;
  const batches = (n: number) => Math.ceil(n / BATCH);
  const progress = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const method = String(property);
        calls.set(method, (calls.get(method) ?? 0) + 1);
        requests += Array.isArray(args[0]) ? batches(args[0].length) : 1;
        const result = (await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as unknown;
        const unfinished = method === 'getRuns' && (args[1] as { unfinished?: boolean } | undefined)?.unfinished;
        if (unfinished) requests += batches((result as unknown[]).length);
        return result;
      };
    },
  });
  return { progress, calls, requests: () => requests };
}

async function fleetOf(size: number) {
  const progress = new MemoryProgressStore();
  const clusters: Cluster[] = [];
  const targets = new Map<string, string | undefined>();
  for (let i = 0; i < size; i++) {
    const ready = readyCluster(i, {});
    const rolling = i % 100 === 1;
    const failed = i % 250 === 7;
    const current = ready.status.currentVersion;
    const status = { ...ready.status, nextVersion: rolling || failed ? NEXT_VERSION : '' };
    const problems = failed ? [{ type: 'update-failed', title: 'pool pool-2 failed: node did not join' }] : [];
    const cluster = {
      ...ready,
      environment: ENVIRONMENTS[i % 3],
      status: { ...status, problems },
    } as unknown as Cluster;
    clusters.push(cluster);
    targets.set(cluster.id, rolling || failed ? NEXT_VERSION : current);
    await progress.putRun({ ...runOf(cluster.id, current, 'done'), completedAt: NOW - 86_400_000 });
    if (rolling || failed) await progress.putRun(runOf(cluster.id, NEXT_VERSION, rolling ? 'rolling' : 'failed'));
    if (rolling) await progress.acquireLease(cluster.id, `update-${i}`, 3_600_000, NOW);
    if (i % 500 === 3)
      await progress.putControls(cluster.id, { paused: true, by: 'ana@laptop', at: NOW, reason: 'incident 42' });
  }
  return { progress, clusters, targets, store: new MemoryFleetStore() };
}

function runOf(clusterId: string, targetVersion: string, rolled: 'done' | 'rolling' | 'failed'): RunRecord {
  const pools: Record<string, PoolProgress> = {};
  for (let p = 0; p < POOLS; p++) {
    const replaced = rolled === 'done' || p < 2 ? NODES_PER_POOL : p === 2 ? NODES_PER_POOL / 2 : 0;
    const nodes: Record<string, NodeProgress> = {};
    for (let n = 0; n < replaced; n++) {
      nodes[`i-${p}${n}`] = {
        instanceId: `i-${p}${n}`,
        nodeName: `ip-10-0-${p}-${n}.eu-central-1.compute.internal`,
        availabilityZone: 'eu-central-1a',
        state: 'terminated',
        cordonedAt: NOW - 3_600_000,
        drainStartedAt: NOW - 3_500_000,
        terminatedAt: NOW - 3_000_000,
      };
    }
    const status =
      replaced === NODES_PER_POOL ? 'done' : p === 2 ? (rolled === 'failed' ? 'failed' : 'rolling') : 'pending';
    pools[`pool-${p}`] = {
      status,
      total: NODES_PER_POOL,
      replaced,
      steps: 4,
      nodes,
      ...(p === 2 && rolled === 'rolling' ? { blockedBy: 'PDB kube-system/coredns allows 0 disruptions' } : {}),
      ...(p === 2 ? { startedAt: NOW - 1_800_000 } : {}),
    } as PoolProgress;
  }
  const stack = {
    status: 'done' as const,
    startedAt: NOW - 7_200_000,
    completedAt: NOW - 7_000_000,
    operation: 'update' as const,
  };
  return {
    clusterId,
    targetVersion,
    action: 'provision',
    revision: 0,
    phase: rolled === 'done' ? 'Finalize' : 'RollNodePools',
    holder: `update-${clusterId}`,
    startedAt: NOW - 7_200_000,
    updatedAt: NOW,
    previousVersion: '',
    artifacts: { rendered: `rendered/${targetVersion}.tar.gz` },
    stackOutputs: { VpcId: 'vpc-0123456789abcdef0' },
    stacks: { 'cluster-stack': stack, 'etcd-stack': stack },
    pools,
    manifestPhases: { 'pre-deletions': NOW, apply: NOW, 'post-deletions': NOW },
    counters: {},
  } as RunRecord;
}
