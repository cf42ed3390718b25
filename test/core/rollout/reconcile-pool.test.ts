import type { NodeInfo } from '../../../lambdas/ports/kube-cluster';
import type { PoolNode, PoolSnapshot } from '../../../lambdas/core/rollout/pool-snapshot';
import { reconcilePool } from '../../../lambdas/core/rollout/reconcile-pool';

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
