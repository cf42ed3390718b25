import type { LabelSelector } from '../../ports/kube-cluster';
import { isRecord } from '../config/plain-data';
import { matchesSelector, type Labels } from './label-selector';

/**
 * The hard scheduling constraints of a pod, as kube-scheduler's filters apply them (NodeAffinity, InterPodAffinity,
 * PodTopologySpread; https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/ and
 * https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/): a node they refuse stays
 * refused whatever room it has. Preferred terms and `ScheduleAnyway` only rank nodes: not modelled, never refuse.
 * Shared by the simulator's scheduler and the rehearsal's account of Pending pods.
 */

type Json = Record<string, unknown>;

/** A pod as the constraints see it: its labels and namespace, and its spec's affinity and spread. */
export interface ConstrainedPod {
  readonly namespace: string;
  readonly labels: Labels;
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly affinity?: unknown;
  readonly topologySpreadConstraints?: unknown;
}

/** A pod bound to a node (Terminating ones too: they hold their place until gone). */
export interface PlacedPod extends ConstrainedPod {
  readonly nodeName: string;
  readonly terminating: boolean;
}

export interface TopologyNode {
  readonly name: string;
  readonly labels: Labels;
}

export type ConstraintRefusal = 'node affinity' | 'pod anti-affinity' | 'pod affinity' | 'topology spread';

interface PodTerm {
  readonly selector: LabelSelector | undefined;
  readonly topologyKey: string;
  /** The namespaces the term looks at; undefined: all of them. */
  readonly namespaces: readonly string[] | undefined;
}

const records = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** A node selector requirement (In, NotIn, Exists, DoesNotExist, Gt, Lt) against one value (absent: undefined). */
function requirementHolds(req: Json, value: string | undefined): boolean {
  const values = strings(req.values);
  switch (req.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      const [have, bound] = [Number.parseInt(value ?? '', 10), Number.parseInt(values[0] ?? '', 10)];
      if (Number.isNaN(have) || Number.isNaN(bound)) return false;
      return req.operator === 'Gt' ? have > bound : have < bound;
    }
    default:
      return false;
  }
}

/**
 * requiredDuringSchedulingIgnoredDuringExecution of nodeAffinity: the terms are ORed, a term's expressions and
 * fields ANDed, and an empty term matches no node (the Kubernetes docs, "Node affinity").
 */
export function nodeAffinityFits(affinity: unknown, node: TopologyNode): boolean {
  const nodeAffinity = isRecord(affinity) && isRecord(affinity.nodeAffinity) ? affinity.nodeAffinity : undefined;
  const required = nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!isRecord(required)) return true;
  return records(required.nodeSelectorTerms).some((term) => {
    const expressions = records(term.matchExpressions);
    const fields = records(term.matchFields);
    if (!expressions.length && !fields.length) return false;
    return (
      expressions.every((e) => requirementHolds(e, node.labels[String(e.key)])) &&
      fields.every((f) => f.key === 'metadata.name' && requirementHolds(f, node.name))
    );
  });
}

function podTerms(affinity: unknown, kind: 'podAffinity' | 'podAntiAffinity', namespace: string): PodTerm[] {
  const part = isRecord(affinity) && isRecord(affinity[kind]) ? affinity[kind] : undefined;
  return records(part?.requiredDuringSchedulingIgnoredDuringExecution).map((term) => {
    const listed = strings(term.namespaces);
    const nsSelector = isRecord(term.namespaceSelector) ? term.namespaceSelector : undefined;
    // namespaceSelector `{}`: every namespace. A selector on namespace labels (which pods do not carry) is read as
    // every namespace too: stricter than the API server's answer at worst, never more lenient.
    const namespaces = nsSelector ? undefined : listed.length ? listed : [namespace];
    return {
      selector: isRecord(term.labelSelector) ? (term.labelSelector as LabelSelector) : undefined,
      topologyKey: String(term.topologyKey ?? ''),
      namespaces,
    };
  });
}

function termMatches(term: PodTerm, pod: ConstrainedPod): boolean {
  return (!term.namespaces || term.namespaces.includes(pod.namespace)) && matchesSelector(term.selector, pod.labels);
}

function sameDomain(a: TopologyNode | undefined, b: TopologyNode, key: string): boolean {
  return a !== undefined && a.labels[key] !== undefined && a.labels[key] === b.labels[key];
}

/** Where things are: the nodes by name, the pods bound to them, and those of them with required anti-affinity. */
export interface Placement {
  readonly nodes: ReadonlyMap<string, TopologyNode>;
  readonly placed: readonly PlacedPod[];
}

/**
 * Inter-pod affinity (the docs, "Inter-pod affinity and anti-affinity"): a node is refused when a pod in its
 * topology domain matches one of the pod's anti-affinity terms, or the pod matches an anti-affinity term of a pod in
 * that domain (symmetry), or when some affinity term has no matching pod in the domain — unless no pod matches it
 * anywhere and the pod matches its own terms (the first of a group).
 */
function interPodRefusal(pod: ConstrainedPod, node: TopologyNode, at: Placement): ConstraintRefusal | undefined {
  const anti = podTerms(pod.affinity, 'podAntiAffinity', pod.namespace);
  for (const other of at.placed) {
    const where = at.nodes.get(other.nodeName);
    if (anti.some((t) => sameDomain(where, node, t.topologyKey) && termMatches(t, other))) return 'pod anti-affinity';
    const theirs = podTerms(other.affinity, 'podAntiAffinity', other.namespace);
    if (theirs.some((t) => sameDomain(where, node, t.topologyKey) && termMatches(t, pod))) return 'pod anti-affinity';
  }
  const affinity = podTerms(pod.affinity, 'podAffinity', pod.namespace);
  if (!affinity.length) return undefined;
  const inDomain = affinity.every((t) =>
    at.placed.some((o) => sameDomain(at.nodes.get(o.nodeName), node, t.topologyKey) && termMatches(t, o)),
  );
  if (inDomain) return undefined;
  const anywhere = affinity.some((t) => at.placed.some((o) => termMatches(t, o)));
  const first = !anywhere && affinity.every((t) => termMatches(t, pod) && node.labels[t.topologyKey] !== undefined);
  return first ? undefined : 'pod affinity';
}

function spreadSelector(constraint: Json, pod: ConstrainedPod): LabelSelector | undefined {
  if (!isRecord(constraint.labelSelector)) return undefined;
  const selector = constraint.labelSelector as LabelSelector;
  const keys = strings(constraint.matchLabelKeys).filter((k) => pod.labels[k] !== undefined);
  if (!keys.length) return selector;
  const extra = Object.fromEntries(keys.map((k) => [k, pod.labels[k]!]));
  return { ...selector, matchLabels: { ...selector.matchLabels, ...extra } };
}

/**
 * topologySpreadConstraints with `whenUnsatisfiable: DoNotSchedule` (the docs, "Pod Topology Spread Constraints"):
 * domains are the values of topologyKey on the nodes that carry every constraint's key and pass the pod's node
 * selector and required node affinity (nodeAffinityPolicy Honor; taints ignored, nodeTaintsPolicy Ignore); matching
 * pods are counted per domain, Terminating ones left out; a node without the key is refused, and so is one where
 * placing the pod makes its domain exceed the smallest by more than maxSkew (the smallest is 0 while fewer domains
 * than minDomains exist).
 */
function spreadRefusal(pod: ConstrainedPod, node: TopologyNode, at: Placement): ConstraintRefusal | undefined {
  const constraints = records(pod.topologySpreadConstraints).filter((c) => c.whenUnsatisfiable !== 'ScheduleAnyway');
  if (!constraints.length) return undefined;
  const keys = constraints.map((c) => String(c.topologyKey ?? ''));
  const eligible = [...at.nodes.values()].filter(
    (n) =>
      keys.every((k) => n.labels[k] !== undefined) &&
      Object.entries(pod.nodeSelector ?? {}).every(([k, v]) => n.labels[k] === v) &&
      nodeAffinityFits(pod.affinity, n),
  );
  const eligibleNames = new Set(eligible.map((n) => n.name));
  for (const constraint of constraints) {
    const key = String(constraint.topologyKey ?? '');
    const value = node.labels[key];
    if (value === undefined) return 'topology spread';
    const selector = spreadSelector(constraint, pod);
    const counts = new Map(eligible.map((n) => [n.labels[key]!, 0]));
    for (const other of at.placed) {
      if (other.terminating || other.namespace !== pod.namespace || !eligibleNames.has(other.nodeName)) continue;
      if (!matchesSelector(selector, other.labels)) continue;
      const domain = at.nodes.get(other.nodeName)!.labels[key]!;
      counts.set(domain, (counts.get(domain) ?? 0) + 1);
    }
    const minDomains = typeof constraint.minDomains === 'number' ? constraint.minDomains : 1;
    const smallest = counts.size < minDomains ? 0 : Math.min(...counts.values(), Number.MAX_SAFE_INTEGER);
    const self = matchesSelector(selector, pod.labels) ? 1 : 0;
    const maxSkew = typeof constraint.maxSkew === 'number' ? constraint.maxSkew : 1;
    if ((counts.get(value) ?? 0) + self - (counts.size ? smallest : 0) > maxSkew) return 'topology spread';
  }
  return undefined;
}

/** Whether the pod or a placed pod has a hard constraint at all (most have none: the scheduler skips the rest). */
export function constrains(pod: ConstrainedPod): boolean {
  return (
    podTerms(pod.affinity, 'podAntiAffinity', pod.namespace).length > 0 ||
    podTerms(pod.affinity, 'podAffinity', pod.namespace).length > 0 ||
    (isRecord(pod.affinity) &&
      isRecord(pod.affinity.nodeAffinity) &&
      isRecord(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution)) ||
    records(pod.topologySpreadConstraints).some((c) => c.whenUnsatisfiable !== 'ScheduleAnyway')
  );
}

/** The first hard constraint that refuses the node for the pod, or undefined when none does. */
export function constraintRefusal(
  pod: ConstrainedPod,
  node: TopologyNode,
  at: Placement,
): ConstraintRefusal | undefined {
  if (!nodeAffinityFits(pod.affinity, node)) return 'node affinity';
  return interPodRefusal(pod, node, at) ?? spreadRefusal(pod, node, at);
}
