import { budgetNodes, disruptionBudget } from '../../../lambdas/core/karpenter/disruption-budget';
import { changeDriftsNodes, driftReason, nodeClassName } from '../../../lambdas/core/karpenter/karpenter-objects';
import type { KubeObject } from '../../../lambdas/ports/kube-cluster';

const object = (kind: string, annotations: Record<string, string> = {}, rest: Record<string, unknown> = {}) =>
  ({ apiVersion: 'karpenter.sh/v1', kind, metadata: { name: 'burst', annotations }, ...rest }) as KubeObject;

/** A Thursday. */
const NOW = Date.parse('2026-01-01T12:00:00Z');

const POOL = object('NodePool', { 'karpenter.sh/nodepool-hash': 'p1', 'karpenter.sh/nodepool-hash-version': 'v3' });
const CLASS = object('EC2NodeClass', {
  'karpenter.k8s.aws/ec2nodeclass-hash': 'c1',
  'karpenter.k8s.aws/ec2nodeclass-hash-version': 'v4',
});
const claim = (annotations: Record<string, string>, conditions: { type: string; status: string }[] = []) =>
  object('NodeClaim', annotations, { status: { conditions } });
const CURRENT = {
  'karpenter.sh/nodepool-hash': 'p1',
  'karpenter.sh/nodepool-hash-version': 'v3',
  'karpenter.k8s.aws/ec2nodeclass-hash': 'c1',
  'karpenter.k8s.aws/ec2nodeclass-hash-version': 'v4',
};

describe('driftReason (CLM §7.1: a Karpenter node is outdated)', () => {
  it('is current when its NodeClaim carries the NodePool and EC2NodeClass hashes of now', () => {
    expect(driftReason(claim(CURRENT), POOL, CLASS)).toBeUndefined();
  });

  it('is outdated when Karpenter marked the NodeClaim Drifted=True, whatever the hashes say', () => {
    expect(driftReason(claim(CURRENT, [{ type: 'Drifted', status: 'True' }]), POOL, CLASS)).toBe('Drifted');
    expect(driftReason(claim(CURRENT, [{ type: 'Drifted', status: 'False' }]), POOL, CLASS)).toBeUndefined();
  });

  it.each([
    ['karpenter.sh/nodepool-hash', 'p0', 'NodePool changed'],
    ['karpenter.sh/nodepool-hash-version', 'v2', 'NodePool changed'],
    ['karpenter.k8s.aws/ec2nodeclass-hash', 'c0', 'EC2NodeClass changed'],
    ['karpenter.k8s.aws/ec2nodeclass-hash-version', 'v3', 'EC2NodeClass changed'],
  ])('is outdated when %s differs (%s)', (key, value, reason) => {
    expect(driftReason(claim({ ...CURRENT, [key]: value }), POOL, CLASS)).toBe(reason);
  });

  it('ignores a hash missing on either side (and a NodePool or EC2NodeClass that is gone)', () => {
    const { 'karpenter.sh/nodepool-hash': _gone, ...withoutPoolHash } = CURRENT;
    expect(driftReason(claim(withoutPoolHash), POOL, CLASS)).toBeUndefined();
    expect(driftReason(claim({ ...CURRENT, 'karpenter.sh/nodepool-hash': 'old' }), object('NodePool'), CLASS)).toBe(
      undefined,
    );
    expect(driftReason(claim({ ...CURRENT, 'karpenter.sh/nodepool-hash': 'old' }), undefined, undefined)).toBe(
      undefined,
    );
  });

  it('finds the EC2NodeClass by the NodePool nodeClassRef, else by the pool name', () => {
    const ref = object('NodePool', {}, { spec: { template: { spec: { nodeClassRef: { name: 'shared' } } } } });
    expect(nodeClassName(ref, 'burst')).toBe('shared');
    expect(nodeClassName(object('NodePool'), 'burst')).toBe('burst');
    expect(nodeClassName(undefined, 'burst')).toBe('burst');
  });
});

describe('disruptionBudget (how many nodes a Karpenter roll takes at once)', () => {
  const withBudgets = (budgets: unknown[]) => object('NodePool', {}, { spec: { disruption: { budgets } } });

  it.each([
    ['3', 10, 3],
    ['0', 10, 0],
    ['20%', 7, 2], // 1.4 rounds up, as Karpenter does
    ['10%', 3, 1],
    ['100%', 4, 4],
    ['150%', 4, undefined],
    ['five', 4, undefined],
  ])('budgetNodes(%j, %d nodes) = %j', (value, nodes, expected) => {
    expect(budgetNodes(value, nodes)).toBe(expected);
  });

  it('defaults to 10% as Karpenter, at least one node', () => {
    expect(disruptionBudget(object('NodePool'), 3, NOW)).toEqual({ nodes: 1, from: '10% (default)' });
    expect(disruptionBudget(undefined, 25, NOW)).toEqual({ nodes: 3, from: '10% (default)' });
  });

  it('takes the tightest budget that applies to drift', () => {
    expect(disruptionBudget(withBudgets([{ nodes: '50%' }, { nodes: '3' }]), 10, NOW)).toEqual({ nodes: 3, from: '3' });
    expect(disruptionBudget(withBudgets([{ nodes: '20%' }, { nodes: '5' }]), 10, NOW)).toEqual({
      nodes: 2,
      from: '20%',
    });
    // a budget for other reasons does not hold a drift roll back
    expect(
      disruptionBudget(withBudgets([{ nodes: '1', reasons: ['Underutilized', 'Empty'] }, { nodes: '4' }]), 10, NOW),
    ).toEqual({ nodes: 4, from: '4' });
    expect(disruptionBudget(withBudgets([{ nodes: '1', reasons: ['Drifted'] }, { nodes: '4' }]), 10, NOW)).toEqual({
      nodes: 1,
      from: '1',
    });
  });

  it('applies a scheduled budget only inside its window (UTC), and says until when', () => {
    // 2026-01-05 is a Monday
    const monday = (time: string) => Date.parse(`2026-01-05T${time}Z`);
    const budgets = withBudgets([{ nodes: '0', schedule: '0 9 * * mon-fri', duration: '8h' }, { nodes: '20%' }]);
    expect(disruptionBudget(budgets, 10, monday('12:30:00'))).toEqual({
      nodes: 0,
      from: '0 (schedule "0 9 * * mon-fri" for 8h)',
      until: monday('17:00:00'),
    });
    expect(disruptionBudget(budgets, 10, monday('17:00:00'))).toEqual({ nodes: 2, from: '20%' });
    expect(disruptionBudget(budgets, 10, monday('08:59:59'))).toEqual({ nodes: 2, from: '20%' });
    // Saturday: the schedule does not fire
    expect(disruptionBudget(budgets, 10, Date.parse('2026-01-10T12:00:00Z'))).toEqual({ nodes: 2, from: '20%' });
  });

  it('limits nothing when budgets exist but none is active (as Karpenter); a schedule it cannot read is always active', () => {
    const night = withBudgets([{ nodes: '1', schedule: '@daily', duration: '2h' }]);
    expect(disruptionBudget(night, 10, Date.parse('2026-01-05T01:00:00Z'))).toEqual({
      nodes: 1,
      from: '1 (schedule "@daily" for 2h)',
      until: Date.parse('2026-01-05T02:00:00Z'),
    });
    expect(disruptionBudget(night, 10, Date.parse('2026-01-05T03:00:00Z'))).toEqual({
      nodes: 10,
      from: 'no budget active now',
    });
    expect(disruptionBudget(withBudgets([{ nodes: '2', schedule: 'every monday', duration: '8h' }]), 10, NOW)).toEqual({
      nodes: 2,
      from: '2 (schedule "every monday" for 8h), not understood: taken as always active',
    });
  });

  it('never stops a roll CLM was asked to do: a budget of 0 still lets one node go', () => {
    expect(disruptionBudget(withBudgets([{ nodes: '0' }]), 10, NOW)).toEqual({ nodes: 1, from: '0' });
  });
});

describe('changeDriftsNodes (what `clm plan` counts as rolling a Karpenter pool)', () => {
  it.each([
    ['EC2NodeClass', 'spec.amiSelectorTerms[0].id', true],
    ['EC2NodeClass', 'spec.userData', true],
    ['EC2NodeClass', 'metadata.labels.team', false],
    ['NodePool', 'spec.template.spec.requirements[0].values[1]', true],
    ['NodePool', 'spec.template.metadata.labels.pool', true],
    ['NodePool', 'spec.disruption.budgets[0].nodes', false],
    ['NodePool', 'spec.limits.cpu', false],
    ['NodePool', 'spec.weight', false],
    ['NodePool', 'spec.templates', false],
    ['Deployment', 'spec.template.spec.containers[0].image', false],
  ])('%s %s: %j', (kind, path, expected) => {
    expect(changeDriftsNodes(kind, path)).toBe(expected);
  });
});
