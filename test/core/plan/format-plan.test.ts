import { formatPlan } from '../../../lambdas/core/plan/format-plan';
import type { ClusterPlan } from '../../../lambdas/core/plan/plan-document';

const EMPTY: ClusterPlan = {
  clusterId: 'kube-1',
  currentVersion: 'v1',
  targetVersion: 'v1',
  configItems: [],
  stacks: [{ name: 'kube-1', kind: 'cluster', action: 'no-changes', changes: [] }],
  objects: [{ ref: { kind: 'ConfigMap', name: 'c', namespace: 'a' }, file: 'f.yaml', action: 'unchanged', fields: [] }],
  deletions: [],
  pools: [{ pool: 'workers', nodes: 0, batches: 0, estimatedMinutes: 0 }],
  problems: [],
  notes: [],
};

describe('formatPlan', () => {
  it('says "no changes" when nothing would change', () => {
    expect(formatPlan(EMPTY)).toBe('kube-1: v1 -> v1\n  no changes\n  stack kube-1 (cluster): no changes\n');
  });

  it('lists stack changes, object fields, deletions, rolls and problems', () => {
    // Arrange
    const plan: ClusterPlan = {
      ...EMPTY,
      targetVersion: 'v2',
      configItems: [{ item: 'ami_id', before: 'ami-1', after: 'ami-2' }],
      stacks: [
        {
          name: 'pool',
          kind: 'node-pool',
          action: 'update',
          changes: [
            { action: 'Modify', logicalId: 'LT', resourceType: 'AWS::EC2::LaunchTemplate', replacement: 'True' },
          ],
        },
      ],
      objects: [
        {
          ref: { kind: 'Deployment', name: 'web', namespace: 'web' },
          file: 'main/cluster/manifests/20-web/deployment.yaml',
          action: 'update',
          fields: [{ path: 'spec.replicas', op: 'change', before: 2, after: 3 }],
        },
      ],
      deletions: [{ ref: { kind: 'DaemonSet', name: 'x', namespace: 'kube-system' }, reason: 'prune' }],
      pools: [{ pool: 'workers', nodes: 4, batches: 2, estimatedMinutes: 20 }],
      problems: ['something failed'],
    };

    // Act
    const text = formatPlan(plan);

    // Assert
    expect(text.split('\n')).toEqual([
      'kube-1: v1 -> v2',
      '  config item ami_id: ami-1 -> ami-2',
      '  stack pool (node-pool): update',
      '    Modify LT (AWS::EC2::LaunchTemplate) REPLACED',
      '  update Deployment web/web (main/cluster/manifests/20-web/deployment.yaml)',
      '    change spec.replicas: 2 -> 3',
      '  delete DaemonSet kube-system/x (prune)',
      '  roll workers: 4 node(s) in 2 batch(es), about 20 min',
      '  problem: something failed',
      '',
    ]);
  });
});
