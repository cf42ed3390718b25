import type { NodeInfo, PodInfo } from '../../ports/kube-cluster';
import { isUnhealthy } from './unhealthy-nodes';

/**
 * A lost node: NotReady for at least `node_repair_after` (whether or not the pool repairs nodes), so its kubelet is
 * taken for dead or cut off. A drain cannot finish there the usual way — nothing on the node ends a pod and says so —
 * so the roll (a repair, or any roll that meets such a node) drains it as Kubernetes' node lifecycle does:
 *  - a pod that is not Ready is deleted (with its own grace period) rather than evicted: no PDB counts it healthy, so
 *    this disrupts nothing; a Ready pod is evicted as anywhere else (PDBs and the smart force hold);
 *  - a pod Terminating past its grace period no longer holds the drain: its kubelet will never report it gone;
 *  - its VolumeAttachments are not waited for (the attach-detach controller cannot confirm an unmount there).
 * The instance is then terminated; the Node goes with it (the cloud node controller), and the pod objects with the
 * Node (the pod garbage collector). A StatefulSet pod keeps its identity until then, so its replacement never runs
 * beside it. Pure.
 */
export function isLostNode(node: Pick<NodeInfo, 'ready' | 'notReadySince'>, afterMs: number, now: number): boolean {
  return isUnhealthy(node, afterMs, now);
}

/** A pod being deleted whose grace is over: on a lost node it is as good as gone. */
export function lostPodGone(pod: Pick<PodInfo, 'deleting' | 'deletesBy'>, now: number): boolean {
  if (!pod.deleting || pod.deletesBy === undefined) return false;
  return Date.parse(pod.deletesBy) <= now;
}
