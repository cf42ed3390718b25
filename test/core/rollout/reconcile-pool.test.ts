import type { NodeInfo } from '../../../lambdas/ports/kube-cluster';
import type { PoolNode, PoolSnapshot } from '../../../lambdas/core/rollout/pool-snapshot';
import {
  FORGET_AFTER_MS,
  KEEP_FINISHED_NODES,
  KEEP_FINISHED_NODES_PER_RUN,
  finishedNodesToKeep,
  reconcilePool,
} from '../../../lambdas/core/rollout/reconcile-pool';
import type { NodeProgress, PoolProgress } from '../../../lambdas/core/model/run';

const T0 = Date.parse('2026-11-26T12:00:00Z');

function node(
  id: string,
  opts: { outdated?: boolean; ready?: boolean; launchedAt?: number; createdAt?: number },
): PoolNode {
  const info: NodeInfo = {
    name: `ip-${id}`,
    providerId: `aws:///eu-central-1a/${id}`,
    labels: {},
    annotations: {},
    taints: [],
    unschedulable: false,
    ready: opts.ready ?? true,
    volumesAttached: false,
    createdAt: new Date(opts.createdAt ?? T0).toISOString(),
  };
  return {
    instanceId: id,
    availabilityZone: 'eu-central-1a',
    outdated: opts.outdated ?? false,
    lifecycleState: 'InService',
    ready: opts.ready ?? true,
    ...(opts.launchedAt !== undefined ? { launchedAt: opts.launchedAt } : {}),
    ...(opts.ready === false ? {} : { node: info }),
  };
}

const snapshot = (nodes: PoolNode[]): PoolSnapshot => ({ desired: nodes.length, min: 0, max: 10, nodes });

describe('reconcilePool boot times', () => {
  it("seeds the boot estimate from the pool's nodes: the median of EC2 launch to Node creation", () => {
    const nodes = [80, 90, 200].map((boot, i) =>
      node(`i-${i}`, { outdated: true, launchedAt: T0 - 10_000_000, createdAt: T0 - 10_000_000 + boot * 1000 }),
    );
    expect(reconcilePool(undefined, snapshot(nodes), T0).bootEstimateMs).toBe(90_000);
  });

  it('measures a new node from the launch the previous step caused to its creation, not to the step that saw it', () => {
    const stored = { ...reconcilePool(undefined, snapshot([]), T0), launchedAt: T0 };
    // first seen booting 200 s after the scale-out, Ready (created) 95 s after it, seen Ready at 300 s
    const booting = reconcilePool(stored, snapshot([node('i-new', { ready: false })]), T0 + 200_000);
    expect(booting.launches).toEqual({ 'i-new': T0 });
    expect(booting.launchedAt).toBeUndefined();
    const ready = reconcilePool(booting, snapshot([node('i-new', { createdAt: T0 + 95_000 })]), T0 + 300_000);
    expect(ready.bootEstimateMs).toBe(95_000);
  });

  it('measures a node already Ready when first seen from its EC2 launch time', () => {
    const stored = { ...reconcilePool(undefined, snapshot([]), T0), bootEstimateMs: 60_000 };
    const seen = node('i-new', { launchedAt: T0 + 1000, createdAt: T0 + 121_000 });
    expect(reconcilePool(stored, snapshot([seen]), T0 + 200_000).bootEstimateMs).toBe(120_000);
  });
});

describe('reconcilePool: finished nodes', () => {
  const MIN = 60_000;
  const finished = (count: number, from: number, owners = ['ReplicaSet default/web-1']) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => {
        const id = `i-${String(i).padStart(4, '0')}`;
        return [id, { instanceId: id, state: 'terminated' as const, terminatedAt: from + i * 1000, owners }];
      }),
    );
  const stored = (nodes: Record<string, NodeProgress>, extra: Partial<PoolProgress> = {}): PoolProgress => ({
    status: 'rolling',
    total: 300,
    replaced: Object.keys(nodes).length,
    nodes,
    steps: 10,
    ...extra,
  });

  it('keeps the newest KEEP_FINISHED_NODES of those nothing needs any more; `replaced` still counts them all', () => {
    const nodes = finished(250, T0);
    const now = T0 + 60 * MIN;
    const next = reconcilePool(stored(nodes, { gatedAt: T0 + 30 * MIN }), snapshot([]), now);
    expect(Object.keys(next.nodes)).toHaveLength(KEEP_FINISHED_NODES);
    expect(Object.keys(next.nodes).sort()[0]).toBe('i-0150'); // the 150 oldest went
    expect(next.replaced).toBe(250);
  });

  it('never forgets a node still listed, not checked by a passed health gate, or gone less than FORGET_AFTER_MS', () => {
    const nodes = finished(250, T0); // i-0000 … i-0249, one second apart
    const now = T0 + 60 * MIN;
    // no health gate passed yet: all kept
    expect(Object.keys(reconcilePool(stored(nodes), snapshot([]), now).nodes)).toHaveLength(250);
    // i-0000 still listed: kept, and 149 others went instead of 150
    const listed = reconcilePool(stored(nodes, { gatedAt: now }), snapshot([node('i-0000', {})]), now);
    expect(Object.keys(listed.nodes)).toHaveLength(101);
    expect(listed.nodes['i-0000']).toBeDefined();
    // a gate passed after the first 200 went: only those may go (100 of them); the last 50 wait for the next gate
    const gated = reconcilePool(stored(nodes, { gatedAt: T0 + 200_000 }), snapshot([]), now);
    expect(Object.keys(gated.nodes)).toHaveLength(150);
    expect(gated.nodes['i-0249']).toBeDefined();
    // FORGET_AFTER_MS after the 201st went: only the first 201 may go (101 of them)
    const soon = reconcilePool(stored(nodes, { gatedAt: now }), snapshot([]), T0 + FORGET_AFTER_MS + 200_000);
    expect(Object.keys(soon.nodes)).toHaveLength(149);
  });

  it('keeps fewer per pool in a cluster of many pools, so the whole run record stays bounded', () => {
    expect(finishedNodesToKeep(1)).toBe(KEEP_FINISHED_NODES);
    expect(finishedNodesToKeep(12)).toBe(50);
    expect(finishedNodesToKeep(64) * 64).toBeLessThanOrEqual(KEEP_FINISHED_NODES_PER_RUN);
    expect(finishedNodesToKeep(1000)).toBe(5);
    const now = T0 + 60 * MIN;
    const next = reconcilePool(stored(finished(40, T0), { gatedAt: now }), snapshot([]), now, undefined, 9);
    expect(Object.keys(next.nodes)).toHaveLength(9);
    expect(next.replaced).toBe(40);
  });

  it('keeps every node of a small roll', () => {
    const next = reconcilePool(stored(finished(40, T0), { gatedAt: T0 + 30 * MIN }), snapshot([]), T0 + 60 * MIN);
    expect(Object.keys(next.nodes)).toHaveLength(40);
  });
});
