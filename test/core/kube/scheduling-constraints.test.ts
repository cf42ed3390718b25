// kube-scheduler's hard constraints as the simulator and the rehearsal apply them. Each expectation follows a rule
// of the Kubernetes scheduling docs, quoted or named beside it:
// https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/ ("Node affinity", "Inter-pod affinity and
// anti-affinity") and https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/.
import {
  constrains,
  constraintRefusal,
  nodeAffinityFits,
  type ConstrainedPod,
  type PlacedPod,
  type TopologyNode,
} from '../../../lambdas/core/kube/scheduling-constraints';

const node = (name: string, zone: string, extra: Record<string, string> = {}): TopologyNode => ({
  name,
  labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zone, ...extra },
});
const NODES = [node('a', 'z1'), node('b', 'z1'), node('c', 'z2')];
const at = (placed: PlacedPod[], nodes = NODES) => ({ nodes: new Map(nodes.map((n) => [n.name, n])), placed });
const pod = (app: string, extra: Partial<ConstrainedPod> = {}): ConstrainedPod => ({
  namespace: 'default',
  labels: { app },
  ...extra,
});
const on = (nodeName: string, p: ConstrainedPod, terminating = false): PlacedPod => ({ ...p, nodeName, terminating });
const term = (app: string, topologyKey: string) => ({ labelSelector: { matchLabels: { app } }, topologyKey });
const anti = (app: string, key: string) => ({
  affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(app, key)] } },
});

describe('required node affinity', () => {
  const required = (...nodeSelectorTerms: unknown[]) => ({
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } },
  });

  it('ORs the terms and ANDs the expressions of a term', () => {
    // "If you specify multiple terms in nodeSelectorTerms ... the Pod can be scheduled onto a node if one of the
    // specified terms can be satisfied"; "multiple expressions in a single matchExpressions ... all [must be] satisfied"
    const affinity = required(
      { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z2'] }] },
      {
        matchExpressions: [
          { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z1'] },
          { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['a'] },
        ],
      },
    );
    expect(NODES.filter((n) => nodeAffinityFits(affinity, n)).map((n) => n.name)).toEqual(['b', 'c']);
  });

  it('compares Gt and Lt as integers, reads matchFields by node name, and lets an empty term match nothing', () => {
    const big = node('d', 'z1', { cores: '16' });
    expect(
      nodeAffinityFits(required({ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['8'] }] }), big),
    ).toBe(true);
    expect(
      nodeAffinityFits(required({ matchExpressions: [{ key: 'cores', operator: 'Lt', values: ['8'] }] }), big),
    ).toBe(false);
    const byName = required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['d'] }] });
    expect([nodeAffinityFits(byName, big), nodeAffinityFits(byName, NODES[0]!)]).toEqual([true, false]);
    // "A null or empty node selector term matches no objects" (NodeSelectorTerm, API reference)
    expect(nodeAffinityFits(required({}), big)).toBe(false);
    expect(constraintRefusal(pod('x', { affinity: required({}) }), big, at([]))).toBe('node affinity');
  });
});

describe('required pod anti-affinity and affinity', () => {
  it('refuses every node of the domain that already runs a matching pod, Terminating ones included', () => {
    const web = pod('web', anti('web', 'topology.kubernetes.io/zone'));
    const placement = at([on('a', pod('web'), true)]);
    // topologyKey zone: a and b share z1 with the running (terminating) web pod; c in z2 is free
    expect(NODES.map((n) => constraintRefusal(web, n, placement))).toEqual([
      'pod anti-affinity',
      'pod anti-affinity',
      undefined,
    ]);
  });

  it('is symmetric: a pod is kept off a node whose running pod must keep apart from it', () => {
    // InterPodAffinity checks the existing pods' required anti-affinity too: a plain pod matching an existing pod's
    // term may not join that pod's domain
    const placement = at([on('a', pod('db', anti('cache', 'kubernetes.io/hostname')))]);
    expect(NODES.map((n) => constraintRefusal(pod('cache'), n, placement))).toEqual([
      'pod anti-affinity',
      undefined,
      undefined,
    ]);
    expect(constrains(pod('cache'))).toBe(false);
  });

  it('looks at the pod namespace unless the term names others', () => {
    const other = on('a', { namespace: 'other', labels: { app: 'web' } });
    expect(
      constraintRefusal(pod('web', anti('web', 'kubernetes.io/hostname')), NODES[0]!, at([other])),
    ).toBeUndefined();
  });

  it('requires a matching pod in the domain for affinity, except for the first of a group that matches itself', () => {
    const affinity = {
      affinity: {
        podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('web', 'topology.kubernetes.io/zone')] },
      },
    };
    const follower = pod('web', affinity);
    expect(NODES.map((n) => constraintRefusal(follower, n, at([on('c', pod('web'))])))).toEqual([
      'pod affinity',
      'pod affinity',
      undefined,
    ]);
    // No web pod anywhere, and the pod matches its own term: any node with the key will do
    expect(NODES.map((n) => constraintRefusal(follower, n, at([])))).toEqual([undefined, undefined, undefined]);
    // Not matching its own term: nowhere
    expect(constraintRefusal(pod('api', affinity), NODES[0]!, at([]))).toBe('pod affinity');
  });
});

describe('DoNotSchedule topology spread', () => {
  const spread = (maxSkew: number, extra: Record<string, unknown> = {}) => ({
    topologySpreadConstraints: [
      {
        maxSkew,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 'web' } },
        ...extra,
      },
    ],
  });

  it('refuses the node whose domain would exceed the smallest by more than maxSkew', () => {
    // z1 holds 1, z2 none: another in z1 makes a skew of 2 > maxSkew 1; in z2, 0 + 1 - 0 = 1, within it
    const placement = at([on('a', pod('web'))]);
    expect(NODES.map((n) => constraintRefusal(pod('web', spread(1)), n, placement))).toEqual([
      'topology spread',
      'topology spread',
      undefined,
    ]);
    expect(NODES.map((n) => constraintRefusal(pod('web', spread(2)), n, placement))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('leaves Terminating pods out of the count, and ScheduleAnyway refuses nothing', () => {
    // kube-scheduler's PodTopologySpread filter skips pods with a deletionTimestamp when it counts (Terminating)
    const placement = at([on('a', pod('web'), true)]);
    expect(constraintRefusal(pod('web', spread(1)), NODES[0]!, placement)).toBeUndefined();
    const soft = pod('web', spread(1, { whenUnsatisfiable: 'ScheduleAnyway' }));
    expect(constraintRefusal(soft, NODES[0]!, at([on('a', pod('web'))]))).toBeUndefined();
  });

  it('counts the smallest domain as 0 while there are fewer domains than minDomains', () => {
    // "When the number of eligible domains with matching topology keys is less than minDomains, Pod Topology Spread
    // treats global minimum as 0"
    const placement = at([on('a', pod('web')), on('c', pod('web'))]);
    expect(constraintRefusal(pod('web', spread(1)), NODES[1]!, placement)).toBeUndefined();
    expect(constraintRefusal(pod('web', spread(1, { minDomains: 3 })), NODES[1]!, placement)).toBe('topology spread');
  });

  it('refuses a node without the topology key', () => {
    const bare = { name: 'x', labels: {} };
    expect(constraintRefusal(pod('web', spread(5)), bare, at([], [...NODES, bare]))).toBe('topology spread');
  });
});
