import { fitsInto, type Resources } from '../kube/pod-resources';
import type { Taint } from '../../ports/kube-cluster';
import {
  constraintRefusal,
  nodeAffinityFits,
  type ConstrainedPod,
  type ConstraintRefusal,
  type PlacedPod,
} from '../kube/scheduling-constraints';

/** A pod the scheduler has not placed, with what constrains where it may go. */
export interface PendingPod extends ConstrainedPod {
  readonly key: string;
  readonly requests: Resources;
  readonly nodeSelector: Readonly<Record<string, string>>;
  readonly tolerations: readonly Readonly<Partial<Record<'key' | 'operator' | 'value' | 'effect', string>>>[];
  /** Zones its bound volumes live in. */
  readonly volumeZones: readonly string[];
}

export interface NodeFacts {
  readonly name: string;
  readonly zone?: string;
  readonly ready: boolean;
  readonly unschedulable: boolean;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly allocatable?: Resources;
  /** What the pods bound to it request. */
  readonly requested: Resources;
}

export interface PendingFacts {
  readonly pending: readonly PendingPod[];
  readonly nodes: readonly NodeFacts[];
  /** The pods bound to nodes (affinity, anti-affinity and spread count them). */
  readonly placed: readonly PlacedPod[];
  /** Karpenter NodePools that can launch no node of the size they run (karpenter-limits.ts). */
  readonly nodePoolsAtLimit?: readonly NodePoolAtLimit[];
}

export interface NodePoolAtLimit {
  readonly name: string;
  /** The labels its nodes get (its template's). */
  readonly labels: Readonly<Record<string, string>>;
  /** The limit reached, e.g. `cpu 8 of 8`. */
  readonly limit: string;
}

/** The NodePools at their limits that would otherwise take the pod (its node selector within their labels). */
function poolsAtLimitFor(pod: PendingPod, facts: PendingFacts): NodePoolAtLimit[] {
  return (facts.nodePoolsAtLimit ?? []).filter((p) =>
    Object.entries(pod.nodeSelector).every(([k, v]) => p.labels[k] === v || k === 'topology.kubernetes.io/zone'),
  );
}

const REFUSALS: Readonly<Record<ConstraintRefusal, string>> = {
  'node affinity': 'node affinity: no node with room matches its required node affinity',
  'pod anti-affinity':
    'pod anti-affinity: every node with room shares a topology domain with a pod it must keep apart from',
  'pod affinity': 'pod affinity: no node with room is in a topology domain with the pods it must join',
  'topology spread': 'topology spread: every node with room would exceed its maxSkew (DoNotSchedule)',
};

function tolerated(pod: PendingPod, taint: Taint): boolean {
  if (taint.effect === 'PreferNoSchedule') return true;
  return pod.tolerations.some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === 'Exists') return !t.key || t.key === taint.key;
    return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
  });
}

function allowed(pod: PendingPod, node: NodeFacts): boolean {
  return (
    node.ready &&
    !node.unschedulable &&
    node.taints.every((t) => tolerated(pod, t)) &&
    Object.entries(pod.nodeSelector ?? {}).every(([k, v]) => node.labels[k] === v) &&
    nodeAffinityFits(pod.affinity, node)
  );
}

function mib(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}

/**
 * Why the scheduler cannot place the pod now: no Ready node its selector, required node affinity and tolerations
 * allow; none in the zone its volume lives in; none with room for its requests (capacity); or every node with room
 * refused by its pod anti-affinity, pod affinity or topology spread (the first that refuses most of them).
 */
export function pendingReason(pod: PendingPod, facts: PendingFacts): string {
  const atLimit = poolsAtLimitFor(pod, facts);
  const karpenter = atLimit.length
    ? `karpenter: NodePool ${atLimit.map((p) => `${p.name} is at its limits (${p.limit})`).join(', ')}: no node is launched for it`
    : undefined;
  const allowedNodes = facts.nodes.filter((n) => allowed(pod, n));
  if (!allowedNodes.length)
    return (
      karpenter ?? 'node: no Ready, schedulable node its node selector, required node affinity and tolerations allow'
    );
  const zones = [...new Set(pod.volumeZones)];
  const inZone = zones.length
    ? allowedNodes.filter((n) => n.zone !== undefined && zones.includes(n.zone))
    : allowedNodes;
  if (!inZone.length) return `volume: its volume lives in ${zones.join(', ')}, where no node it may use is Ready`;
  const room = inZone.filter((n) => !n.allocatable || fitsInto(pod.requests, n.requested, n.allocatable));
  if (!room.length)
    return (
      karpenter ??
      `capacity: no node has room for ${pod.requests.cpuMillis}m CPU and ${mib(pod.requests.memoryBytes)} MiB`
    );
  const placement = { nodes: new Map(facts.nodes.map((n) => [n.name, n])), placed: facts.placed };
  const refusals = room.map((n) => constraintRefusal(pod, n, placement));
  if (refusals.every((r) => r !== undefined)) {
    const counts = new Map<ConstraintRefusal, number>();
    for (const r of refusals) counts.set(r, (counts.get(r) ?? 0) + 1);
    return REFUSALS[[...counts].sort((a, b) => b[1] - a[1])[0]![0]];
  }
  return 'scheduling: a node fits; the pod is about to be placed';
}
