import { renewNodes, type RenewalInputs } from '../../../lambdas/core/node-renewal/renew-nodes';
import { nodesDue } from '../../../lambdas/core/node-renewal/nodes-due';
import { renewalSettings } from '../../../lambdas/core/node-renewal/renewal-settings';
import type { PoolSnapshot } from '../../../lambdas/core/rollout/pool-snapshot';
import type { NodeInfo } from '../../../lambdas/ports/kube-cluster';

const T0 = Date.parse('2026-03-01T00:00:00Z');
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

function node(i: number, created: number, notReadySince?: number): NodeInfo {
  return {
    name: `n${i}`,
    providerId: `aws:///eu-central-1a/i-${i}`,
    labels: { 'node.kubernetes.io/node-pool': 'workers' },
    annotations: {},
    taints: [],
    unschedulable: false,
    ready: notReadySince === undefined,
    ...(notReadySince !== undefined ? { notReadySince: new Date(notReadySince).toISOString() } : {}),
    volumesAttached: false,
    createdAt: new Date(created).toISOString(),
  };
}

function snapshot(nodes: NodeInfo[], outdated: number[] = []): PoolSnapshot {
  return {
    desired: nodes.length,
    min: 0,
    max: 10,
    nodes: nodes.map((n, i) => ({
      instanceId: `i-${i}`,
      availabilityZone: 'eu-central-1a',
      outdated: outdated.includes(i),
      lifecycleState: 'InService',
      ready: n.ready,
      node: n,
    })),
  };
}

const pool = { name: 'workers', profile: 'worker-default' };
function inputs(items: Record<string, string>, nodes: NodeInfo[], extra: Partial<RenewalInputs> = {}): RenewalInputs {
  return {
    pool: 'workers',
    settings: renewalSettings(pool, items, 'c1'),
    clusterCap: { percent: 40 },
    clusterNodes: nodes,
    ...extra,
  };
}

const marked = (s: PoolSnapshot) => s.nodes.filter((n) => n.outdated).map((n) => [n.instanceId, n.renewal ?? null]);

describe('renewNodes', () => {
  const now = T0 + 40 * DAY;

  it('marks nodes older than node_max_age, and only those', () => {
    const nodes = [node(0, T0), node(1, now - DAY), node(2, T0 + 9 * DAY)];
    const { snapshot: renewed } = renewNodes(snapshot(nodes), inputs({ node_max_age: '30d' }, nodes), now);
    expect(marked(renewed)).toEqual([
      ['i-0', 'age'],
      ['i-2', 'age'],
    ]);
  });

  it('a forced roll takes the nodes registered before it was asked for, never the ones it brought up', () => {
    const asked = now - 10 * MIN;
    const nodes = [node(0, T0), node(1, asked + MIN), node(2, asked - 1)];
    const { snapshot: renewed } = renewNodes(snapshot(nodes), inputs({}, nodes, { forcedBefore: asked }), now);
    expect(marked(renewed)).toEqual([
      ['i-0', 'forced'],
      ['i-2', 'forced'],
    ]);
  });

  it('repairs a node NotReady for node_repair_after within the caps; a node already outdated stays as it is', () => {
    const nodes = [node(0, T0, now - 11 * MIN), node(1, T0, now - 5 * MIN), node(2, T0), node(3, T0), node(4, T0)];
    const items = { node_repair: 'true' };
    const { snapshot: renewed, notes } = renewNodes(snapshot(nodes, [3]), inputs(items, nodes), now);
    expect(marked(renewed)).toEqual([
      ['i-0', 'repair'],
      ['i-3', null],
    ]);
    expect(notes).toEqual([]);
  });

  it('repairs nothing above the cap, and says why', () => {
    const nodes = [node(0, T0, now - 20 * MIN), node(1, T0, now - 20 * MIN), node(2, T0), node(3, T0)];
    const { snapshot: renewed, notes } = renewNodes(snapshot(nodes), inputs({ node_repair: 'true' }, nodes), now);
    expect(marked(renewed)).toEqual([]);
    expect(notes).toEqual([expect.stringContaining('2 of 4 nodes of the pool workers are unhealthy')]);
  });

  it('holds by the cluster-wide cap too', () => {
    const pools = [node(0, T0, now - 20 * MIN), node(1, T0), node(2, T0), node(3, T0)];
    const others = [node(5, T0, now - 20 * MIN), node(6, T0, now - 20 * MIN), node(7, T0)];
    const all = [...pools, ...others];
    const { notes } = renewNodes(
      snapshot(pools),
      inputs({ node_repair: 'true' }, all, { clusterCap: { count: 2 } }),
      now,
    );
    expect(notes).toEqual([expect.stringContaining('3 of 7 nodes of the cluster are unhealthy')]);
  });

  it('keeps a node the roll already took in outdated, although it turned Ready again', () => {
    const nodes = [node(0, T0), node(1, T0)];
    const { snapshot: renewed } = renewNodes(snapshot(nodes), inputs({}, nodes, { inRoll: (id) => id === 'i-1' }), now);
    expect(marked(renewed)).toEqual([['i-1', null]]);
  });

  it('leaves repair to Karpenter when its NodeRepair gate is on, and says so', () => {
    const nodes = [node(0, T0, now - 20 * MIN), node(1, T0)];
    const items = { node_repair: 'true', karpenter_feature_gates: 'NodeRepair=true' };
    const settings = renewalSettings({ name: 'workers', profile: 'worker-karpenter' }, items, 'c1');
    const { snapshot: renewed, notes } = renewNodes(snapshot(nodes), { ...inputs({}, nodes), settings }, now);
    expect(marked(renewed)).toEqual([]);
    expect(notes).toEqual([expect.stringContaining('left to Karpenter')]);
  });
});

describe('nodesDue (the cheap look before a run)', () => {
  const now = T0 + 40 * DAY;
  const cluster = (items: Record<string, string>) => ({
    id: 'c1',
    configItems: {},
    nodePools: [
      {
        name: 'workers',
        profile: 'worker-default',
        instanceTypes: [],
        discountStrategy: 'none',
        minSize: 1,
        maxSize: 4,
        configItems: items,
      },
    ],
  });

  it('finds what the roll would replace, from the nodes alone', () => {
    const nodes = [node(0, now - DAY, now - 15 * MIN), node(1, now - DAY), node(2, now - DAY)];
    expect(nodesDue(cluster({ node_repair: 'true' }), nodes, now)).toEqual({
      due: [{ pool: 'workers', node: 'n0', reason: 'repair' }],
      notes: [],
    });
    expect(nodesDue(cluster({}), nodes, now).due).toEqual([]);
  });

  it('finds nothing above the cap, with the reason', () => {
    const nodes = [node(0, T0, now - 15 * MIN), node(1, T0, now - 15 * MIN), node(2, T0), node(3, T0)];
    const found = nodesDue(cluster({ node_repair: 'true' }), nodes, now);
    expect(found.due).toEqual([]);
    expect(found.notes).toEqual([expect.stringMatching(/^node repair of pool workers: 2 of 4 nodes/)]);
  });
});
