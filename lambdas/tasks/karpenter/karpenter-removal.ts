import { NODEPOOL_LABEL, nodeClaimProviderId, nodeClassName } from '../../core/karpenter/karpenter-objects';
import { instanceIdFromProviderId } from '../../core/rollout/pool-snapshot';
import type { KubeCluster } from '../../ports/kube-cluster';
import type { ClusterRef, NodePoolBackend } from '../../ports/node-pool-backend';

export interface KarpenterRemoval {
  /** Removed Karpenter pools that still have nodes (or NodeClaims): drained away by the rollout child, one by one. */
  readonly drain: readonly string[];
  /** Nodes of removed pools whose instance is shutting down: the EC2NodeClasses go once they are gone. */
  readonly shuttingDown: number;
  readonly messages: readonly string[];
}

/**
 * CLM §6.2 step 23, one pass: Karpenter NodePool objects whose pool is not in the registry are deleted — orphaning
 * their NodeClaims, so Karpenter launches nothing more for them and leaves their nodes to our drain (the rollout child
 * in removal mode: PDBs respected, one node at a time, then EC2 TerminateInstances); once no node or NodeClaim of a
 * removed pool is left, the EC2NodeClasses no current NodePool uses and no registry pool is named after are deleted.
 * Nothing happens where the API server serves no karpenter.sh/v1 NodePool.
 */
export async function karpenterRemovalPass(
  kube: KubeCluster,
  ec2: Pick<NodePoolBackend, 'karpenterInstances'>,
  cluster: ClusterRef,
  current: ReadonlySet<string>,
): Promise<KarpenterRemoval> {
  if (!(await kube.servesKind('NodePool'))) return { drain: [], shuttingDown: 0, messages: [] };
  const messages: string[] = [];
  const nodePools = await kube.list('NodePool');
  for (const pool of nodePools.filter((p) => !current.has(p.metadata.name))) {
    if (
      (await kube.delete({ kind: 'NodePool', name: pool.metadata.name }, { propagationPolicy: 'Orphan' })) === 'deleted'
    )
      messages.push(`deleted NodePool ${pool.metadata.name}`);
  }
  // A node whose instance is already shutting down is not drained again; it only delays the EC2NodeClass deletion.
  const running = new Set((await ec2.karpenterInstances(cluster)).map((i) => i.instanceId));
  const left = new Set<string>();
  let shuttingDown = 0;
  const count = (pool: string | undefined, providerId: string) => {
    if (pool === undefined || current.has(pool)) return;
    const id = instanceIdFromProviderId(providerId);
    if (id !== undefined && !running.has(id)) shuttingDown++;
    else left.add(pool);
  };
  for (const node of await kube.listNodes()) count(node.labels[NODEPOOL_LABEL], node.providerId);
  if (await kube.servesKind('NodeClaim'))
    for (const claim of await kube.list('NodeClaim'))
      count(claim.metadata.labels?.[NODEPOOL_LABEL], nodeClaimProviderId(claim));
  const drain = [...left].sort();
  if (drain.length) {
    messages.push(...drain.map((p) => `Karpenter pool ${p}: nodes to drain`));
    return { drain, shuttingDown, messages };
  }
  if (shuttingDown) {
    messages.push(`${shuttingDown} Karpenter node(s) of removed pools shutting down`);
    return { drain, shuttingDown, messages };
  }
  if (await kube.servesKind('EC2NodeClass')) {
    const kept = new Set([
      ...current,
      ...nodePools.filter((p) => current.has(p.metadata.name)).map((p) => nodeClassName(p, p.metadata.name)),
    ]);
    for (const nodeClass of await kube.list('EC2NodeClass')) {
      if (kept.has(nodeClass.metadata.name)) continue;
      const ref = { kind: 'EC2NodeClass', name: nodeClass.metadata.name };
      if ((await kube.delete(ref)) === 'deleted') messages.push(`deleted EC2NodeClass ${nodeClass.metadata.name}`);
    }
  }
  return { drain, shuttingDown, messages };
}
