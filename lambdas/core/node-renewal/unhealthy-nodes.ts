import type { NodeInfo } from '../../ports/kube-cluster';

/**
 * Unhealthy nodes, as node repair sees them: a node whose Ready condition is not True (False: the kubelet says it is
 * not ready; Unknown: the node lifecycle controller stopped hearing from it — the kubelet stopped, or the instance is
 * unreachable) and has not been True since `node_repair_after`. The time comes from the condition's
 * lastTransitionTime (`notReadySince`); a node that does not say since when is never taken for unhealthy. Pure.
 */

/** How long the node has been NotReady (ms), or undefined when it is Ready or does not say since when. */
export function notReadyFor(node: Pick<NodeInfo, 'ready' | 'notReadySince'>, now: number): number | undefined {
  if (node.ready || node.notReadySince === undefined) return undefined;
  const since = Date.parse(node.notReadySince);
  return Number.isNaN(since) ? undefined : Math.max(0, now - since);
}

export function isUnhealthy(node: Pick<NodeInfo, 'ready' | 'notReadySince'>, afterMs: number, now: number): boolean {
  const lasted = notReadyFor(node, now);
  return lasted !== undefined && lasted >= afterMs;
}

/** The pool a node belongs to, by its labels (an Auto Scaling pool's `node.kubernetes.io/node-pool`, a Karpenter one's). */
export function poolOfNode(node: Pick<NodeInfo, 'labels'>): string | undefined {
  return node.labels['node.kubernetes.io/node-pool'] ?? node.labels['karpenter.sh/nodepool'];
}

/** Milliseconds since the node registered (its Node object's creation): what `node_max_age` is measured against. */
export function nodeAge(node: Pick<NodeInfo, 'createdAt'>, now: number): number | undefined {
  const created = Date.parse(node.createdAt);
  return Number.isNaN(created) ? undefined : now - created;
}
