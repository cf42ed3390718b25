import {
  approvalSetting,
  decisionFor,
  planDigest,
  planSummary,
  type ApprovalRecord,
} from '../../../lambdas/core/approval/approval';
import type { ClusterPlan } from '../../../lambdas/core/plan/plan-document';

const CLUSTER = 'aws:123456789012:eu-central-1:kube-1';

const plan = (over: Partial<ClusterPlan> = {}): ClusterPlan => ({
  clusterId: CLUSTER,
  targetVersion: 'abc#def',
  configItems: [],
  stacks: [{ name: 'kube-1', kind: 'cluster', action: 'no-changes', changes: [] }],
  objects: [],
  deletions: [],
  pools: [{ pool: 'default-worker', nodes: 3, batches: 2, estimatedMinutes: 20 }],
  problems: [],
  notes: [],
  ...over,
});

const record = (over: Partial<ApprovalRecord> = {}): ApprovalRecord => ({
  status: 'APPROVED',
  targetVersion: 'abc#def',
  planDigest: planDigest(plan()),
  planKey: 'runs/x/plan.json',
  summary: 's',
  requestedAt: 0,
  ...over,
});

describe('approvalSetting', () => {
  it('is off by default, on with "true", with a 24h timeout unless update_approval_timeout says otherwise', () => {
    expect(approvalSetting({}, CLUSTER)).toEqual({ required: false, timeoutSeconds: 86_400 });
    expect(approvalSetting({ update_requires_approval: 'true' }, CLUSTER).required).toBe(true);
    expect(
      approvalSetting({ update_requires_approval: 'true', update_approval_timeout: '1h30m' }, CLUSTER).timeoutSeconds,
    ).toBe(5400);
  });

  it.each([
    [{ update_requires_approval: 'yes' }, /update_requires_approval: must be "true" or "false", not "yes"/],
    [{ update_approval_timeout: 'tomorrow' }, /update_approval_timeout: must be a Go duration/],
    [{ update_approval_timeout: '30s' }, /between 1m and 336h/],
    [{ update_approval_timeout: '400h' }, /between 1m and 336h/],
  ])('refuses %j, naming the cluster and the item', (items, message) => {
    expect(() => approvalSetting(items, CLUSTER)).toThrow(message);
    expect(() => approvalSetting(items, CLUSTER)).toThrow(`cluster ${CLUSTER}`);
  });
});

describe('planDigest', () => {
  it('is the same for the same plan whatever the key order, and differs when anything changes', () => {
    const reordered = Object.fromEntries(Object.entries(plan()).reverse()) as unknown as ClusterPlan;
    expect(planDigest(reordered)).toBe(planDigest(plan()));
    expect(planDigest(plan({ targetVersion: 'abc#xyz' }))).not.toBe(planDigest(plan()));
    expect(planDigest(plan({ pools: [] }))).not.toBe(planDigest(plan()));
  });
});

describe('decisionFor', () => {
  it('gives the decision only for the very plan it was made on; another version or plan is a new request', () => {
    const digest = planDigest(plan());
    expect(decisionFor(record(), 'abc#def', digest)).toBe('APPROVED');
    expect(decisionFor(record({ status: 'REJECTED' }), 'abc#def', digest)).toBe('REJECTED');
    expect(decisionFor(record({ status: 'PENDING' }), 'abc#def', digest)).toBe('PENDING');
    expect(decisionFor(record(), 'abc#new', digest)).toBe('NEW');
    expect(decisionFor(record(), 'abc#def', 'another')).toBe('NEW');
    expect(decisionFor(undefined, 'abc#def', digest)).toBe('NEW');
  });
});

describe('planSummary', () => {
  it('counts what changes', () => {
    expect(planSummary(plan())).toBe('abc#def: 3 node replacements');
    expect(planSummary(plan({ pools: [] }))).toBe('abc#def: no changes');
  });
});
