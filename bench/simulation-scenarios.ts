/**
 * The runs the simulation benchmark measures (bench/simulation.bench.ts), each in its own simulated session: the life
 * of one cluster (create, no-op, config change, roll) under two timing profiles, rolls of N = 10 … 200 nodes with a
 * spread workload, a drain a PDB blocks for 14 hours, and kube-test of the examples.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PoolProgress } from '../lambdas/core/model/run';
import type { ScenarioInput } from '../lambdas/sim';

import type { RunFigures } from './simulated-session';
import { ROOT, SimulatedSession } from './simulated-session';

const WORKER_STACK = 'cluster/node-pools/worker-default/stack.yaml';
const AMI_LINE = 'ImageId: {{NodePool.ConfigItems.ami_id}}';
const NAMESPACES = 'cluster/manifests/01-namespaces/namespaces.yaml';

/** Virtual timings of one profile (lambdas/sim/scenario.ts Timings). */
export interface Timings {
  readonly stackCreateSeconds: number;
  readonly stackUpdateSeconds: number;
  readonly stackDeleteSeconds: number;
  readonly instanceBootSeconds: number;
  readonly nodeReadySeconds: number;
  readonly instanceTerminateSeconds: number;
  readonly podStartSeconds: number;
  readonly podTerminationSeconds: number;
}

/**
 * Two timing profiles: the simulator's defaults (stacks 60 s create, 45 s update, boot 90 s, a Node Ready as it
 * joins) and AWS-like timings (stacks 600 s create, 300 s update, boot 180 s, issue 14; a Node Ready 20 s after it
 * joins, the kubelet's and the CNI's start). Pods start in 10 s and take 30 s to terminate in both.
 */
export const PROFILES = {
  simulator: {
    stackCreateSeconds: 60,
    stackUpdateSeconds: 45,
    stackDeleteSeconds: 30,
    instanceBootSeconds: 90,
    nodeReadySeconds: 0,
    instanceTerminateSeconds: 30,
    podStartSeconds: 10,
    podTerminationSeconds: 30,
  },
  'aws-like': {
    stackCreateSeconds: 600,
    stackUpdateSeconds: 300,
    stackDeleteSeconds: 300,
    instanceBootSeconds: 180,
    nodeReadySeconds: 0,
    instanceTerminateSeconds: 30,
    podStartSeconds: 10,
    podTerminationSeconds: 30,
  },
} as const satisfies Record<string, Timings>;
export type Profile = keyof typeof PROFILES;

export const SURGE = 3;

function registryYaml(id: string, workers: number, items: Record<string, string>): string {
  const localId = id.split(':').pop()!;
  return `clusters:
  - id: ${id}
    alias: ${localId}
    local_id: ${localId}
    api_server_url: https://${localId}.test.example.org
    channel: main
    environment: test
    criticality_level: 1
    infrastructure_account: aws:123456789012
    lifecycle_status: ready
    provider: zalando-aws
    region: eu-central-1
    config_items: ${JSON.stringify({ team: 'platform', update_max_surge: String(SURGE), ...items })}
    node_pools:
      - { name: master-default, profile: master-default, instance_types: [m6i.large], discount_strategy: none, min_size: 1, max_size: 1 }
      - { name: workers, profile: worker-default, instance_types: [m6i.large], discount_strategy: none, min_size: ${workers}, max_size: ${workers + SURGE} }
    status: {}
`;
}

/** Only the namespaces of the examples' manifests, so the workload of the scenario is all there is to drain. */
function bareConfig(dir: string): void {
  for (const component of ['05-backup-policies', '10-coredns', '20-web', '30-database'])
    rmSync(join(dir, 'cluster/manifests', component), { recursive: true });
  writeFileSync(join(dir, 'cluster/manifests/deletions.yaml'), 'pre_apply: []\npost_apply: []\n');
}

const changeAmi = (text: string): string => text.replace(AMI_LINE, 'ImageId: ami-0feedface0001');

/** One more Namespace manifest: an update that changes no node. */
const addNamespace = (text: string): string =>
  `${text.trimEnd()}\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: bench-extra\n`;

const WORKLOAD = 'cluster/manifests/50-bench/workload.yaml';

/**
 * The spread workload of an N-node pool, applied by the config change (so every worker is Ready and the scheduler,
 * which spreads by pod count, puts one web pod on each node): a Deployment of N replicas under a PDB allowing 3
 * unavailable (the surge: a batch drains at once), and a 3-replica StatefulSet with volumes (its nodes need a new
 * node in their zone) under a PDB allowing 1. Every node has a pod to drain; termination grace 30 s.
 */
function spreadWorkload(nodes: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default }
spec:
  replicas: ${nodes}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      terminationGracePeriodSeconds: 30
      containers: [{ name: web, image: nginx }]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: { name: web, namespace: default }
spec:
  maxUnavailable: ${SURGE}
  selector: { matchLabels: { app: web } }
---
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db, namespace: default }
spec:
  serviceName: db
  replicas: 3
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec:
      terminationGracePeriodSeconds: 30
      containers: [{ name: db, image: postgres }]
  volumeClaimTemplates:
    - metadata: { name: data }
      spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: { name: db, namespace: default }
spec:
  maxUnavailable: 1
  selector: { matchLabels: { app: db } }
`;
}

/** The four runs of a cluster's life. */
export interface ClusterLife {
  readonly workers: number;
  readonly create: RunFigures;
  readonly noop: RunFigures;
  /** The workload's manifests added: every stack NO_CHANGES, no node replaced. */
  readonly configChange: RunFigures;
  /** A new worker image: every worker replaced. */
  readonly roll: RunFigures;
}

/**
 * Create, no-op, a manifest-only update, then a new worker image, on a cluster of `workers` worker nodes (surge 3,
 * no canary) running the spread workload, with the timings of `profile`.
 */
export async function clusterLife(
  profile: Profile,
  workers: number,
  overrides: Partial<Timings> = {},
  faults: ScenarioInput['faults'] = {},
): Promise<ClusterLife> {
  const id = `aws:123456789012:eu-central-1:kube-bench-${workers}`;
  const scenario: ScenarioInput = { seed: 3, timings: { ...PROFILES[profile], ...overrides }, faults };
  const session = new SimulatedSession(registryYaml(id, workers, { update_canary: 'false' }), scenario, bareConfig);
  try {
    const create = await session.run(id);
    const noop = await session.run(id);
    session.write(WORKLOAD, spreadWorkload(workers));
    const configChange = await session.run(id);
    session.edit(WORKER_STACK, changeAmi);
    const roll = await session.run(id);
    return { workers, create, noop, configChange, roll };
  } finally {
    session.dispose();
  }
}

/** The blocked drain and when its block lifted. */
export interface LongDrain {
  readonly roll: RunFigures;
  /** When the PDB started allowing evictions (virtual ms since the epoch). */
  readonly liftedAt: number;
  readonly blockedSeconds: number;
}

/**
 * A drain a PDB blocks for 14 virtual hours (drain grace 24 h: never forced) of a 2-node pool: the rollout backs off
 * while the same block lasts. The block is measured from the first RollStep that reported it.
 */
export async function longDrain(): Promise<LongDrain> {
  const id = 'aws:123456789012:eu-central-1:kube-longdrain';
  const blockSeconds = 14 * 3600;
  const scenario: ScenarioInput = {
    seed: 5,
    timings: PROFILES.simulator,
    clusters: {
      [id]: {
        workloads: [{ kind: 'Deployment', name: 'app', replicas: 2 }],
        pdbs: [{ name: 'app', selector: { app: 'app' }, maxUnavailable: 1, blockEvictionsUntilSeconds: blockSeconds }],
      },
    },
  };
  const session = new SimulatedSession(
    registryYaml(id, 2, { update_canary: 'false', drain_grace_period: '24h' }),
    scenario,
    bareConfig,
  );
  try {
    const create = await session.run(id);
    session.edit(WORKER_STACK, changeAmi);
    const roll = await session.run(id);
    const liftedAt = create.startedAt + blockSeconds * 1000;
    const firstBlocked = roll.rollSteps.find((s) => s.blockedBy)?.at ?? liftedAt;
    return { roll, liftedAt, blockedSeconds: (liftedAt - firstBlocked) / 1000 };
  } finally {
    session.dispose();
  }
}

/** The two runs of kube-test measured: a manifest change, then a new worker image. */
export interface ExamplesRoll {
  readonly noNodeChanges: RunFigures;
  readonly roll: RunFigures;
}

/** kube-test of the examples (stateful pods: same-AZ pairing), default world: a manifest change, then a new worker image. */
export async function examplesRoll(): Promise<ExamplesRoll> {
  const id = 'aws:123456789012:eu-central-1:kube-test';
  const session = new SimulatedSession(readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8'), {});
  try {
    await session.run(id);
    session.edit(NAMESPACES, addNamespace);
    const noNodeChanges = await session.run(id);
    session.edit(WORKER_STACK, changeAmi);
    return { noNodeChanges, roll: await session.run(id) };
  } finally {
    session.dispose();
  }
}

export function rollSeconds(pool: PoolProgress | undefined): number {
  if (pool?.startedAt === undefined || pool.completedAt === undefined)
    throw new Error('the worker pool did not finish its roll');
  return (pool.completedAt - pool.startedAt) / 1000;
}

/**
 * The shortest roll of `nodes` nodes with a pod on each, by any controller that keeps at most `surge` extra instances
 * and drains an old node only once a replacement for it is Ready: ⌈N / surge⌉ × (boot + drain), a boot ending when
 * the new Node is Ready. Proof: instances never exceed N + surge, so the i-th launch comes after the (i − surge)-th old
 * node is gone; the i-th old node goes at least a boot (the i-th replacement Ready) plus a drain (its pod's termination
 * grace) after the i-th launch. So the i-th removal is at least boot + drain after the (i − surge)-th
 * (docs/benchmarks.md, "The lower bound").
 */
export function rollLowerBoundSeconds(nodes: number, timings: Timings): number {
  const ready = timings.instanceBootSeconds + timings.nodeReadySeconds;
  return Math.ceil(nodes / SURGE) * (ready + timings.podTerminationSeconds);
}

/** Issue 14's formula, ⌈N / surge⌉ × boot + drain: reachable only if drains overlapped boots (twice the surge). */
export function issueFormulaSeconds(nodes: number, timings: Timings): number {
  return Math.ceil(nodes / SURGE) * timings.instanceBootSeconds + timings.podTerminationSeconds;
}
