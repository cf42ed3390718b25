import type { PoolProgress } from '../../../lambdas/core/model/run';
import { planKarpenterStep } from '../../../lambdas/core/rollout/plan-karpenter-step';
import type { PoolNode, PoolSnapshot } from '../../../lambdas/core/rollout/pool-snapshot';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const POLICY = { canary: false, canarySoakMs: 0 };

function node(id: string, outdated: boolean, extra: { ready?: boolean; cordoned?: boolean; volumes?: boolean } = {}) {
  const ready = extra.ready ?? true;
  return {
    instanceId: id,
    availabilityZone: 'eu-central-1a',
    outdated,
    lifecycleState: ready ? 'InService' : 'Pending',
    ready,
    node: {
      name: `node-${id}`,
      providerId: `aws:///eu-central-1a/${id}`,
      labels: {},
      annotations: {},
      taints: [],
      unschedulable: extra.cordoned ?? false,
      ready,
      volumesAttached: extra.volumes ?? false,
      createdAt: new Date(NOW).toISOString(),
    },
  } satisfies PoolNode;
}

const snapshot = (nodes: PoolNode[]): PoolSnapshot => ({ desired: nodes.length, min: 0, max: nodes.length, nodes });
const progress = (nodes: PoolProgress['nodes'] = {}, replaced = 0): PoolProgress => ({
  status: 'rolling',
  total: 0,
  replaced,
  nodes,
  steps: 0,
});
const ids = (list: readonly PoolNode[]) => list.map((n) => n.instanceId);

describe('planKarpenterStep', () => {
  it('takes at most the disruption budget at once, nodes without volumes first', () => {
    const plan = planKarpenterStep(
      snapshot([node('i-1', true, { volumes: true }), node('i-2', true), node('i-3', true), node('i-4', false)]),
      progress(),
      POLICY,
      { nodes: 2, from: '2' },
      NOW,
    );
    expect(ids(plan.mark)).toEqual(['i-1', 'i-2', 'i-3']);
    expect(ids(plan.cordon)).toEqual(['i-2', 'i-3']);
    expect(plan.done).toBe(false);
  });

  it('counts nodes draining and replacements not Ready yet against the budget: the next batch waits for them', () => {
    const draining = progress({ 'i-1': { instanceId: 'i-1', state: 'draining' } });
    const busy = planKarpenterStep(
      snapshot([node('i-1', true), node('i-2', true), node('i-9', false, { ready: false })]),
      draining,
      POLICY,
      { nodes: 2, from: '2' },
      NOW,
    );
    expect(ids(busy.drain)).toEqual(['i-1']);
    expect(ids(busy.cordon)).toEqual([]);
    const booting = planKarpenterStep(
      snapshot([node('i-2', true), node('i-9', false, { ready: false })]),
      progress({ 'i-1': { instanceId: 'i-1', state: 'terminated' } }, 1),
      POLICY,
      { nodes: 1, from: '10% (default)' },
      NOW,
    );
    expect(booting.cordon).toEqual([]);
    expect(booting.waitingFor).toBe(
      '1 replacement node(s) to become Ready (disruption budget 10% (default): 1 node(s) at once)',
    );
    const ready = planKarpenterStep(
      snapshot([node('i-2', true), node('i-9', false)]),
      progress({ 'i-1': { instanceId: 'i-1', state: 'terminated' } }, 1),
      POLICY,
      { nodes: 1, from: '10% (default)' },
      NOW,
    );
    expect(ids(ready.cordon)).toEqual(['i-2']);
  });

  it('takes no node while a scheduled budget of 0 is active, and wakes when its window ends', () => {
    const until = NOW + 3 * 3_600_000;
    const budget = { nodes: 0, from: '0 (schedule "0 21 * * *" for 6h)', until };
    const plan = planKarpenterStep(snapshot([node('i-1', true), node('i-2', true)]), progress(), POLICY, budget, NOW);
    expect(ids(plan.cordon)).toEqual([]);
    expect(ids(plan.mark)).toEqual(['i-1', 'i-2']);
    expect(plan.wakeAt).toBe(until);
    expect(plan.waitingFor).toBe(
      'the disruption budget 0 (schedule "0 21 * * *" for 6h) to end at 2026-01-01T03:00:00.000Z',
    );
    // a node already draining goes on draining
    const draining = progress({ 'i-1': { instanceId: 'i-1', state: 'draining' } });
    const busy = planKarpenterStep(snapshot([node('i-1', true), node('i-2', true)]), draining, POLICY, budget, NOW);
    expect(ids(busy.drain)).toEqual(['i-1']);
    expect(ids(busy.cordon)).toEqual([]);
  });

  it('takes cordoned (adopted) nodes first and never takes a node it already terminated', () => {
    const plan = planKarpenterStep(
      snapshot([node('i-1', true), node('i-2', true, { cordoned: true }), node('i-3', true)]),
      progress({ 'i-1': { instanceId: 'i-1', state: 'terminated' } }, 1),
      POLICY,
      { nodes: 1, from: '1' },
      NOW,
    );
    expect(ids(plan.cordon)).toEqual(['i-2']);
  });

  it('sends a canary alone first when the pool asks for one', () => {
    const plan = planKarpenterStep(
      snapshot([node('i-1', true), node('i-2', true), node('i-3', true)]),
      progress(),
      { canary: true, canarySoakMs: 0 },
      { nodes: 3, from: '100%' },
      NOW,
    );
    expect(ids(plan.cordon)).toEqual(['i-1']);
  });

  it('is done when no node is outdated and every node is Ready; waits while replacements boot', () => {
    expect(
      planKarpenterStep(snapshot([node('i-9', false)]), progress(), POLICY, { nodes: 1, from: '1' }, NOW).done,
    ).toBe(true);
    const booting = planKarpenterStep(
      snapshot([node('i-9', false, { ready: false })]),
      progress(),
      POLICY,
      { nodes: 1, from: '1' },
      NOW,
    );
    expect(booting).toMatchObject({ done: false, waitingFor: '1 new node(s) to become Ready' });
  });
});
