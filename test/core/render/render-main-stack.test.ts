import { renderMainStack } from '../../../lambdas/core/render/render-main-stack';
import { renderDeletions } from '../../../lambdas/core/render/render-deletions';
import { cluster, engine, mainSourceFiles, snapshot } from './fixtures';

describe('renderMainStack', () => {
  it('renders cluster.yaml as the stack local_id with the main-stack tags', async () => {
    const rendered = await renderMainStack({
      cluster: cluster(),
      snapshots: [snapshot('main', mainSourceFiles())],
      values: {},
      engine: engine(),
    });
    expect(rendered.errors).toEqual([]);
    expect(rendered.stack).toEqual({
      name: 'kube-1',
      kind: 'cluster',
      template: 'Metadata:\n  Tags: {team: platform}\nResources:\n  Topic: {Type: AWS::SNS::Topic}\n',
      tags: {
        team: 'platform',
        'kubernetes.io/cluster/aws:123456789012:eu-central-1:kube-1': 'owned',
        'cluster-lifecycle-controller.zalando.org/main-stack': 'true',
      },
    });
  });

  it('validates the deletions of every source early, with Cluster and Values', async () => {
    // Arrange
    const main = snapshot(
      'main',
      mainSourceFiles({
        'cluster/manifests/deletions.yaml':
          'pre_apply:\n{{#if (eq Values.mode "cleanup")}}  - {kind: Pod, name: old}\n{{/if}}',
      }),
    );
    const extra = snapshot('extra', {
      'cluster/manifests/deletions.yaml':
        'post_apply:\n  - {kind: Job, namespace: "{{Cluster.Alias}}", selector: "a=b"}\n',
      'cluster/cf-manifests/cf-deletions.yaml': 'pre_apply:\n  - stackName: {{Cluster.LocalID}}-old\n',
    });

    // Act
    const rendered = await renderMainStack({
      cluster: cluster(),
      snapshots: [main, extra],
      values: { mode: 'cleanup' },
      engine: engine(),
    });

    // Assert
    expect(rendered.errors).toEqual([]);
    expect(rendered.deletions).toEqual({
      preApply: [{ kind: 'Pod', name: 'old' }],
      postApply: [{ kind: 'Job', namespace: 'kube-1', selector: 'a=b' }],
    });
    expect(rendered.cfDeletions).toEqual({ preApply: [{ stackName: 'kube-1-old' }], postApply: [] });
  });

  it('reports a missing cluster.yaml and broken deletions together', async () => {
    const broken = snapshot('main', { 'cluster/manifests/deletions.yaml': 'pre_apply:\n  - {kind: Pod}\n' });
    const rendered = await renderMainStack({ cluster: cluster(), snapshots: [broken], values: {}, engine: engine() });
    expect(rendered.stack).toBeUndefined();
    expect(rendered.errors.map((e) => e.error)).toEqual(['ConfigError', 'ValidationError']);
    expect(rendered.errors[0].message).toBe('main/cluster/cluster.yaml: the main cluster stack template is missing');
    expect(rendered.errors[1].message).toContain(
      'main/cluster/manifests/deletions.yaml: pre_apply[0]: exactly one of name, selector or labels',
    );
  });

  it('fails on an empty main stack render', async () => {
    const rendered = await renderMainStack({
      cluster: cluster(),
      snapshots: [snapshot('main', { 'cluster/cluster.yaml': '# nothing\n' })],
      values: {},
      engine: engine(),
    });
    expect(rendered.errors.map((e) => e.message)).toEqual([
      'main/cluster/cluster.yaml: the stack template rendered empty',
    ]);
  });
});

describe('renderDeletions', () => {
  it('keeps good files when one source has a broken one', async () => {
    const good = snapshot('main', { 'cluster/manifests/deletions.yaml': 'pre_apply: [{kind: Pod, name: a}]\n' });
    const bad = snapshot('extra', {
      'cluster/manifests/deletions.yaml': 'pre_apply: [{kind: Pod, name: {{Values.missing}}}]\n',
    });
    const rendered = await renderDeletions(cluster(), [good, bad], {}, engine());
    expect(rendered.deletions.preApply).toEqual([{ kind: 'Pod', name: 'a' }]);
    expect(rendered.errors).toEqual([
      expect.objectContaining({ error: 'TemplateRenderError', file: 'extra/cluster/manifests/deletions.yaml' }),
    ]);
  });

  it('fails a main stack template without Resources before anything is deployed, naming file and field', async () => {
    // Arrange
    const files = mainSourceFiles({ 'cluster/cluster.yaml': 'Metadata:\n  Tags: {team: platform}\nOutputs: {}\n' });

    // Act
    const rendered = await renderMainStack({
      cluster: cluster(),
      snapshots: [snapshot('main', files)],
      values: {},
      engine: engine(),
    });

    // Assert
    expect(rendered.stack).toBeUndefined();
    expect(rendered.errors).toHaveLength(1);
    expect(rendered.errors[0].message).toContain('cluster/cluster.yaml');
    expect(rendered.errors[0].message).toContain('field Resources');
    expect(rendered.errors[0].message).toContain('has no Resources');
  });
});
