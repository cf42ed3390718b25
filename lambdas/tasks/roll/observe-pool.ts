import type { NodePool } from '../../core/model/cluster';
import type { clusterRef } from '../../core/model/cluster-ref';
import { isKarpenterPool } from '../../core/model/cluster';
import { disruptionBudget, type Budget } from '../../core/karpenter/disruption-budget';
import type { PoolSnapshot } from '../../core/rollout/pool-snapshot';
import type { KubeCluster, NodeInfo } from '../../ports/kube-cluster';
import type { NodePoolBackend, PoolState } from '../../ports/node-pool-backend';
import { KarpenterPoolBackend } from '../karpenter/karpenter-pool-backend';
import { launchFailures } from './launch-failures';

/** The ports a roll step observes a pool through. */
interface PoolPorts {
  readonly kube: KubeCluster;
  readonly pools: NodePoolBackend;
}

/**
 * The pool as it is now. A Karpenter pool (or a removed pool without an Auto Scaling group: a Karpenter pool that left
 * the registry) is seen through its NodeClaims and nodes (KarpenterPoolBackend, which then stands in for `pools`; every
 * other member stays the task's own, lazily built port) and rolled within its NodePool's disruption budget.
 */
export async function observePool<P extends PoolPorts>(
  base: P,
  target: ReturnType<typeof clusterRef>,
  pool: NodePool,
  configured: NodePool | undefined,
  removal: boolean,
): Promise<
  | { readonly missing: string }
  | {
      readonly cp: P;
      readonly nodes: NodeInfo[];
      readonly poolState: PoolState;
      readonly view?: Awaited<ReturnType<KarpenterPoolBackend['view']>>;
      readonly karpenter: boolean;
      /** Groups whose launches fail (the account's vCPU quota): problems to record, what the roll waits for. */
      readonly launchFailed: ReturnType<typeof launchFailures>;
    }
> {
  const nodes = await base.kube.listNodes();
  const asgState = configured && isKarpenterPool(configured) ? undefined : await base.pools.getPool(target, pool.name);
  const karpenter =
    !asgState && (removal || isKarpenterPool(pool)) ? new KarpenterPoolBackend(base.kube, base.pools) : undefined;
  const view = karpenter ? await karpenter.view(pool.name, nodes, target) : undefined;
  const poolState = asgState ?? view?.state;
  if (!poolState || (karpenter && !view?.nodePool && poolState.instances.length === 0))
    return {
      missing: karpenter
        ? `Karpenter pool ${pool.name} has no NodePool and no nodes`
        : `Pool ${pool.name} has no Auto Scaling group`,
    };
  const cp: P = karpenter ? Object.create(base, { pools: { value: karpenter } }) : base;
  const launchFailed = launchFailures(poolState, pool);
  return { cp, nodes, poolState, ...(view ? { view } : {}), karpenter: karpenter !== undefined, launchFailed };
}

/** How many nodes of a Karpenter pool go at once: its NodePool's disruption budget; a removal goes one by one. */
export function karpenterBudget(
  nodePool: Parameters<typeof disruptionBudget>[0],
  snapshot: PoolSnapshot,
  removal: boolean,
  now: number,
): Budget {
  return removal ? { nodes: 1, from: 'pool removal' } : disruptionBudget(nodePool, snapshot.nodes.length, now);
}
