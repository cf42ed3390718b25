import yaml from 'js-yaml';
import { renderCluster } from '../../../lambdas/core/render/render-cluster';
import { renderJsonDocument, renderSummary } from '../../../lambdas/core/render/render-report';
import { clusterDirName, renderTree } from '../../../lambdas/core/render/render-tree';
import { FakeDecrypter, VALUES, cluster, engine, mainSourceFiles, snapshot } from './fixtures';

async function sample() {
  const main = snapshot(
    'main',
    mainSourceFiles({
      'cluster/manifests/deletions.yaml':
        'pre_apply:\n  - {kind: ConfigMap, labels: {a: b}, has_owner: false, propagation_policy: Orphan}\n',
      'cluster/cf-manifests/cf-deletions.yaml': 'post_apply: [{stackName: old}]\n',
    }),
  );
  return renderCluster({
    cluster: cluster(),
    snapshots: [main],
    values: VALUES,
    engine: engine(),
    decrypter: new FakeDecrypter(),
    version: 'v#h',
  });
}

describe('renderTree', () => {
  it('lays out a readable tree per cluster', async () => {
    const tree = renderTree(await sample());
    expect([...tree.keys()].sort()).toEqual([
      'aws_123456789012_eu-central-1_kube-1/cf-deletions.yaml',
      'aws_123456789012_eu-central-1_kube-1/config-items.yaml',
      'aws_123456789012_eu-central-1_kube-1/deletions.yaml',
      'aws_123456789012_eu-central-1_kube-1/manifests/main/01-base/namespace.yaml',
      'aws_123456789012_eu-central-1_kube-1/node-pools/default-worker/config-items.yaml',
      'aws_123456789012_eu-central-1_kube-1/node-pools/default-worker/files.yaml',
      'aws_123456789012_eu-central-1_kube-1/node-pools/default-worker/userdata.yaml',
      'aws_123456789012_eu-central-1_kube-1/node-pools/master/config-items.yaml',
      'aws_123456789012_eu-central-1_kube-1/node-pools/master/files.yaml',
      'aws_123456789012_eu-central-1_kube-1/node-pools/master/userdata.yaml',
      'aws_123456789012_eu-central-1_kube-1/stacks/kube-1.yaml',
      'aws_123456789012_eu-central-1_kube-1/stacks/nodepool-default-worker-aws-123456789012-eu-central-1-kube-1.yaml',
      'aws_123456789012_eu-central-1_kube-1/stacks/nodepool-master-aws-123456789012-eu-central-1-kube-1.yaml',
      'aws_123456789012_eu-central-1_kube-1/values.yaml',
    ]);
    // deletions are written back with CLM's keys
    expect(yaml.load(tree.get('aws_123456789012_eu-central-1_kube-1/deletions.yaml')!)).toEqual({
      pre_apply: [{ kind: 'ConfigMap', labels: { a: 'b' }, has_owner: false, propagation_policy: 'Orphan' }],
      post_apply: [],
    });
    expect(tree.get('aws_123456789012_eu-central-1_kube-1/manifests/main/01-base/namespace.yaml')).toBe(
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: base-test\n',
    );
  });

  it('makes cluster ids safe directory names', () => {
    expect(clusterDirName('aws:1:eu-west-1:a/b')).toBe('aws_1_eu-west-1_a_b');
  });
});

describe('render reports', () => {
  it('prints a short summary with counts and errors', async () => {
    const summary = renderSummary({
      ...(await sample()),
      errors: [{ error: 'ConfigError', message: 'main/x.yaml:3: broken' }],
    });
    expect(summary).toContain('aws:123456789012:eu-central-1:kube-1  FAILED');
    expect(summary).toContain('  version    v#h');
    expect(summary).toContain('  stacks     3: kube-1, nodepool-master');
    expect(summary).toContain('  manifests  1 files, 1 objects in 1 components');
    expect(summary).toContain('  deletions  pre_apply 1, post_apply 0; cf-deletions pre_apply 0, post_apply 1');
    expect(summary).toContain('    - main/x.yaml:3: broken');
  });

  it('gives stack templates as parsed objects in JSON', async () => {
    const doc = renderJsonDocument([await sample()]);
    const stack = (doc.clusters[0].stacks as any[])[2];
    expect(stack.template.Resources.AutoScalingGroup.Properties.LaunchTemplate.LaunchTemplateId).toEqual({
      Ref: 'LaunchTemplate',
    });
    expect(Object.keys(doc.clusters[0])).toEqual([
      'id',
      'version',
      'configItems',
      'nodePools',
      'stacks',
      'manifests',
      'filesBundles',
      'deletions',
      'cfDeletions',
      'errors',
    ]);
  });
});
