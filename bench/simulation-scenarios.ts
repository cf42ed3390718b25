/**
 * The runs the simulation benchmark measures (bench/simulation.bench.ts): the whole life of an isolated cluster, a
 * drain a PDB blocks for hours, and kube-test of the examples. Each runs in its own simulated session.
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
export const TIMINGS = {
  instanceBootSeconds: 90,
  podTerminationSeconds: 30,
  instanceTerminateSeconds: 30,
  podStartSeconds: 10,
};
export const POOL_SIZE = 9;
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
    config_items: ${JSON.stringify({ team: 'platform', ...items })}
    node_pools:
      - { name: master-default, profile: master-default, instance_types: [m6i.large], discount_strategy: none, min_size: 1, max_size: 1 }
      - { name: workers, profile: worker-default, instance_types: [m6i.large], discount_strategy: none, min_size: ${workers}, max_size: ${workers + SURGE} }
    status: {}
`;
}

/** Only stateless manifests, so nothing but the roll itself is measured (no AZ pairing, no PDB waits). */
function statelessConfig(dir: string): void {
  for (const component of ['05-backup-policies', '10-coredns', '20-web', '30-database'])
    rmSync(join(dir, 'cluster/manifests', component), { recursive: true });
  writeFileSync(join(dir, 'cluster/manifests/deletions.yaml'), 'pre_apply: []\npost_apply: []\n');
}

const changeAmi = (text: string): string => text.replace(AMI_LINE, 'ImageId: ami-0feedface0001');

/** One more Namespace manifest: an update that changes no node. */
const addNamespace = (text: string): string =>
  `${text.trimEnd()}\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: bench-extra\n`;

/** The four runs of an isolated cluster's life. */
export interface IsolatedRoll {
  readonly noop: RunFigures;
  readonly noNodeChanges: RunFigures;
  readonly roll: RunFigures;
  readonly create: RunFigures;
}

/** Create, no-op, a manifest-only update, then a new worker image: the whole life of one cluster. */
export async function isolatedRoll(canary: boolean): Promise<IsolatedRoll> {
  const id = `aws:123456789012:eu-central-1:kube-bench${canary ? '-canary' : ''}`;
  const scenario: ScenarioInput = {
    seed: 3,
    timings: TIMINGS,
    clusters: {
      [id]: {
        workloads: [
          {
            kind: 'Deployment',
            name: 'app',
            replicas: POOL_SIZE,
            terminationGracePeriodSeconds: TIMINGS.podTerminationSeconds,
          },
        ],
      },
    },
  };
  const session = new SimulatedSession(
    registryYaml(id, POOL_SIZE, canary ? {} : { update_canary: 'false' }),
    scenario,
    statelessConfig,
  );
  try {
    const create = await session.run(id);
    const noop = await session.run(id);
    session.edit(NAMESPACES, addNamespace);
    const noNodeChanges = await session.run(id);
    session.edit(WORKER_STACK, changeAmi);
    const roll = await session.run(id);
    return { create, noop, noNodeChanges, roll };
  } finally {
    session.dispose();
  }
}

/** A drain a PDB blocks for 14 virtual hours (drain grace 24 h: never forced): the rollout hands over to new executions. */
export async function longDrain(): Promise<RunFigures> {
  const id = 'aws:123456789012:eu-central-1:kube-longdrain';
  const scenario: ScenarioInput = {
    seed: 5,
    timings: TIMINGS,
    clusters: {
      [id]: {
        workloads: [{ kind: 'Deployment', name: 'app', replicas: 2 }],
        pdbs: [{ name: 'app', selector: { app: 'app' }, maxUnavailable: 1, blockEvictionsUntilSeconds: 14 * 3600 }],
      },
    },
  };
  const session = new SimulatedSession(
    registryYaml(id, 2, { update_canary: 'false', drain_grace_period: '24h' }),
    scenario,
    statelessConfig,
  );
  try {
    await session.run(id);
    session.edit(WORKER_STACK, changeAmi);
    return await session.run(id);
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
