import type { Taint } from '../../ports/kube-cluster';
import type { SimContext } from '../sim-context';
import type { KubeState, SimNode, SimPod, TolerationSpec } from '../world-state';
import { bindPod } from './pods';
import { hasRoomFor, requestedByNode } from './node-capacity';
import { NO_RESOURCES, addResources } from '../../core/kube/pod-resources';
import {
  constrains,
  constraintRefusal,
  type PlacedPod,
  type Placement,
  type TopologyNode,
} from '../../core/kube/scheduling-constraints';

/**
 * A small scheduler: a pending pod goes to a Ready, schedulable node whose NoSchedule/NoExecute taints it
 * tolerates, whose labels match its nodeSelector and whose zone holds its bound volumes; among those, nodes
 * without untolerated PreferNoSchedule taints first, then the node with the fewest pods. A node holds at most its
 * kubelet's maxPods (110 unless its pool says otherwise), DaemonSet pods included, and the CPU and memory its pods
 * request within its allocatable (kube/node-capacity.ts). Required node affinity, required pod affinity and
 * anti-affinity, and DoNotSchedule topology spread refuse nodes as kube-scheduler's filters do
 * (core/kube/scheduling-constraints.ts): a pod they leave nowhere to go stays Pending.
 */

export const MAX_PODS_PER_NODE = 110;

export function tolerates(tolerations: readonly TolerationSpec[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === 'Exists') return !t.key || t.key === taint.key;
    return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
  });
}

export function toleratesHard(tolerations: readonly TolerationSpec[] | undefined, node: SimNode): boolean {
  return node.taints.every((taint) => taint.effect === 'PreferNoSchedule' || tolerates(tolerations, taint));
}

export function selectorFits(nodeSelector: Readonly<Record<string, string>> | undefined, node: SimNode): boolean {
  return Object.entries(nodeSelector ?? {}).every(([key, value]) => node.labels[key] === value);
}

function fits(kube: KubeState, pod: SimPod, node: SimNode): boolean {
  if (!node.ready || node.unschedulable) return false;
  if (!toleratesHard(pod.tolerations, node) || !selectorFits(pod.nodeSelector, node)) return false;
  return (pod.volumes ?? []).every((volume) => !kube.volumes[volume] || kube.volumes[volume] === node.zone);
}

function preferAvoid(pod: SimPod, node: SimNode): number {
  return node.taints.some((taint) => taint.effect === 'PreferNoSchedule' && !tolerates(pod.tolerations, taint)) ? 1 : 0;
}

function placedPod(pod: SimPod): PlacedPod {
  return {
    namespace: pod.namespace,
    labels: pod.labels,
    nodeName: pod.nodeName!,
    terminating: pod.deletingAt !== undefined,
    ...(pod.nodeSelector ? { nodeSelector: pod.nodeSelector } : {}),
    ...(pod.affinity ? { affinity: pod.affinity } : {}),
    ...(pod.topologySpreadConstraints ? { topologySpreadConstraints: pod.topologySpreadConstraints } : {}),
  };
}

/** Where pods are, for the constraints: kept up to date as the pass binds pods. */
function placementOf(kube: KubeState, nodes: readonly SimNode[]): Placement & { placed: PlacedPod[] } {
  const topology = new Map<string, TopologyNode>(nodes.map((n) => [n.name, { name: n.name, labels: n.labels }]));
  const placed = Object.values(kube.pods)
    .filter((p) => p.nodeName)
    .map(placedPod);
  return { nodes: topology, placed };
}

/** Bind every pending pod that fits somewhere, oldest first. */
export function schedulePending(ctx: SimContext, kube: KubeState): void {
  const pending = Object.values(kube.pods)
    .filter((pod) => !pod.nodeName && pod.deletingAt === undefined)
    .sort((a, b) => a.seq - b.seq);
  if (pending.length === 0) return;
  const nodes = Object.values(kube.nodes).sort((a, b) => (a.name < b.name ? -1 : 1));
  const load = new Map(nodes.map((node) => [node.name, 0]));
  const used = requestedByNode(kube);
  for (const pod of Object.values(kube.pods))
    if (pod.nodeName) load.set(pod.nodeName, (load.get(pod.nodeName) ?? 0) + 1);
  const placement = placementOf(kube, nodes);
  let constrained = placement.placed.some(constrains);
  for (const pod of pending) {
    const candidate = placedPod({ ...pod, nodeName: '' });
    const checked = constrained || constrains(candidate);
    let best: SimNode | undefined;
    for (const node of nodes) {
      if ((load.get(node.name) ?? 0) >= (node.maxPods ?? MAX_PODS_PER_NODE) || !fits(kube, pod, node)) continue;
      if (!hasRoomFor(pod, node, used)) continue;
      if (checked && constraintRefusal(candidate, node, placement)) continue;
      if (
        !best ||
        preferAvoid(pod, node) < preferAvoid(pod, best) ||
        (preferAvoid(pod, node) === preferAvoid(pod, best) && load.get(node.name)! < load.get(best.name)!)
      )
        best = node;
    }
    if (!best) continue;
    bindPod(ctx, kube, pod, best.name);
    placement.placed.push(placedPod(pod));
    constrained ||= checked;
    load.set(best.name, load.get(best.name)! + 1);
    if (pod.requests) used.set(best.name, addResources(used.get(best.name) ?? NO_RESOURCES, pod.requests));
  }
}
