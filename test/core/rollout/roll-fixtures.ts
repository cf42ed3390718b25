// What the planner tests share: pools of old (outdated, marked) and fresh nodes, progress records and policies.
import type { PoolProgress } from '../../../lambdas/core/model/run';
import type { PoolNode, PoolSnapshot } from '../../../lambdas/core/rollout/pool-snapshot';
import { rollPolicy, type RollPolicy } from '../../../lambdas/core/rollout/roll-policy';
import type { NodeInfo } from '../../../lambdas/ports/kube-cluster';

export const NOW = Date.parse('2024-05-01T12:00:00Z');

export interface NodeSpec {
  readonly outdated?: boolean;
  readonly ready?: boolean;
  readonly az?: string;
  readonly unschedulable?: boolean;
  readonly volumes?: boolean;
  readonly marked?: boolean;
  readonly booting?: boolean;
}

export function poolNode(id: string, spec: NodeSpec = {}): PoolNode {
  const az = spec.az ?? 'eu-central-1a';
  const node: NodeInfo = {
    name: `ip-${id}`,
    providerId: `aws:///${az}/${id}`,
    labels: {},
    annotations: {},
    taints: spec.marked ? [{ key: 'decommission-pending', value: 'rolling-upgrade', effect: 'PreferNoSchedule' }] : [],
    unschedulable: spec.unschedulable ?? false,
    ready: spec.ready ?? true,
    volumesAttached: spec.volumes ?? false,
    createdAt: '2024-01-01T00:00:00Z',
  };
  return {
    instanceId: id,
    availabilityZone: az,
    outdated: spec.outdated ?? false,
    lifecycleState: spec.booting ? 'Pending' : 'InService',
    ready: !spec.booting && (spec.ready ?? true),
    ...(spec.booting ? {} : { node }),
  };
}

export const old = (n: number, spec: NodeSpec = {}, prefix = 'i-old'): PoolNode[] =>
  Array.from({ length: n }, (_, i) => poolNode(`${prefix}${i}`, { outdated: true, marked: true, ...spec }));
export const fresh = (n: number, spec: NodeSpec = {}, prefix = 'i-new'): PoolNode[] =>
  Array.from({ length: n }, (_, i) => poolNode(`${prefix}${i}`, spec));

export function snapshot(nodes: PoolNode[], desired = nodes.length, max = 20): PoolSnapshot {
  return { desired, min: 0, max, nodes };
}

export function progress(base: number, extra: Partial<PoolProgress> = {}): PoolProgress {
  return { status: 'rolling', total: base, replaced: 0, nodes: {}, steps: 0, baseDesired: base, ...extra };
}

export function draining(...ids: string[]): PoolProgress['nodes'] {
  return Object.fromEntries(
    ids.map((id) => [id, { instanceId: id, state: 'draining' as const, drainStartedAt: NOW - 1000 }]),
  );
}

export function policy(items: Record<string, string> = {}, spot = false, maxSize = 20): RollPolicy {
  return rollPolicy(
    { name: 'workers', maxSize, discountStrategy: spot ? 'spot' : 'none' },
    { update_canary: 'false', ...items },
    'aws:123:eu-central-1:kube-1',
  );
}

export const ids = (nodes: readonly PoolNode[]): string[] => nodes.map((n) => n.instanceId);
