import { createHash } from 'node:crypto';
import { renderManifests } from '../../../lambdas/core/render/render-manifests';
import { renderCfManifests } from '../../../lambdas/core/render/render-cf-manifests';
import { cluster, engine, snapshot } from './fixtures';

const configMap =
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: web}\ndata: {env: "{{Cluster.Environment}}"}\n';

describe('renderManifests', () => {
  it('renders every component of every source in apply order and splits the objects', async () => {
    // Arrange
    const main = snapshot('main', {
      'cluster/manifests/20-web/configmap.yaml': configMap,
      'cluster/manifests/20-web/deployment.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations: {hash: "{{manifestHash "configmap.yaml"}}"}\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web}\n',
      'cluster/manifests/10-ns/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: web}\n',
    });
    const extra = snapshot('extra', {
      'cluster/manifests/00-crds/crd.yaml':
        'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: x.example.org}\n',
    });

    // Act
    const rendered = await renderManifests(cluster(), [main, extra], {}, engine());

    // Assert
    expect(rendered.errors).toEqual([]);
    expect(
      rendered.files.map((f) => `${f.source}/${f.component}/${f.file}: ${f.objects.map((o) => o.kind).join(',')}`),
    ).toEqual([
      'main/10-ns/ns.yaml: Namespace',
      'main/20-web/configmap.yaml: ConfigMap',
      'main/20-web/deployment.yaml: Deployment,PodDisruptionBudget',
      'extra/00-crds/crd.yaml: CustomResourceDefinition',
    ]);
    // manifestHash is the SHA-256 of the sibling rendered with the same context
    const renderedConfigMap = configMap.replace('{{Cluster.Environment}}', 'test');
    const hash = createHash('sha256').update(renderedConfigMap).digest('hex');
    expect((rendered.files[2].objects[0].metadata.annotations as Record<string, string>).hash).toBe(hash);
  });

  it('leaves out files that render empty', async () => {
    const main = snapshot('main', {
      'cluster/manifests/x/off.yaml':
        '{{#if (eq Cluster.Environment "production")}}apiVersion: v1\nkind: Namespace\nmetadata: {name: prod-only}\n{{/if}}',
    });
    expect((await renderManifests(cluster(), [main], {}, engine())).files).toEqual([]);
  });

  it('reports every broken file and still renders the others', async () => {
    // Arrange
    const main = snapshot('main', {
      'cluster/manifests/a/missing-key.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{Cluster.ConfigItems.nope}}\n',
      'cluster/manifests/a/no-name.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n',
      'cluster/manifests/b/ok.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: ok}\n',
    });

    // Act
    const rendered = await renderManifests(cluster(), [main], {}, engine());

    // Assert
    expect(rendered.files.map((f) => f.file)).toEqual(['ok.yaml']);
    expect(rendered.errors).toEqual([
      {
        error: 'TemplateRenderError',
        file: 'main/cluster/manifests/a/missing-key.yaml',
        line: 4,
        message: 'main/cluster/manifests/a/missing-key.yaml:4: "Cluster.ConfigItems.nope" is not defined',
      },
      expect.objectContaining({
        error: 'ValidationError',
        file: 'main/cluster/manifests/a/no-name.yaml',
        message: expect.stringContaining('document[0]: missing metadata.name'),
      }),
    ]);
  });
});

describe('renderCfManifests', () => {
  it('reports an object defined in two files, naming both', async () => {
    // Arrange
    const main = snapshot('main', {
      'cluster/manifests/10-a/cm.yaml': configMap,
      'cluster/manifests/20-b/cm.yaml': configMap,
    });

    // Act
    const rendered = await renderManifests(cluster(), [main], {}, engine());

    // Assert
    expect(rendered.errors.map((e) => e.message)).toEqual([
      'main/cluster/manifests/20-b/cm.yaml: ConfigMap web/cfg is already defined in main/cluster/manifests/10-a/cm.yaml',
    ]);
  });

  it('names stacks from Metadata.StackName, tags them as owned, skips empty renders', async () => {
    // Arrange
    const main = snapshot('main', {
      'cluster/cf-manifests/alerts.yaml':
        'Metadata:\n  StackName: "{{Cluster.LocalID}}-alerts"\n  Tags: {component: alerts}\nResources:\n  T: {Type: AWS::SNS::Topic}\n',
      'cluster/cf-manifests/off.yaml':
        '{{#if (eq Cluster.Environment "production")}}Metadata: {StackName: prod}\n{{/if}}',
      'cluster/cf-manifests/cf-deletions.yaml': 'pre_apply: []\n',
    });

    // Act
    const rendered = await renderCfManifests(cluster(), [main], {}, engine());

    // Assert
    expect(rendered.errors).toEqual([]);
    expect(rendered.stacks).toEqual([
      {
        name: 'kube-1-alerts',
        kind: 'cf-manifest',
        template:
          'Metadata:\n  StackName: "kube-1-alerts"\n  Tags: {component: alerts}\nResources:\n  T: {Type: AWS::SNS::Topic}\n',
        tags: { component: 'alerts', 'kubernetes.io/cluster/aws:123456789012:eu-central-1:kube-1': 'owned' },
      },
    ]);
  });

  it('reports a missing StackName, a name used twice and a template without Resources, naming the files', async () => {
    const main = snapshot('main', {
      'cluster/cf-manifests/a.yaml': 'Metadata: {StackName: same}\nResources: {T: {Type: AWS::SNS::Topic}}\n',
      'cluster/cf-manifests/b.yaml': 'Metadata: {StackName: same}\nResources: {T: {Type: AWS::SNS::Topic}}\n',
      'cluster/cf-manifests/d.yaml': 'Metadata: {StackName: no-resources}\nResources: {}\n',
      'cluster/cf-manifests/c.yaml': 'Resources: {}\n',
    });
    const rendered = await renderCfManifests(cluster(), [main], {}, engine());
    expect(rendered.stacks.map((s) => s.name)).toEqual(['same']);
    expect(rendered.errors.map((e) => e.message)).toEqual([
      'main/cluster/cf-manifests/b.yaml: Metadata.StackName "same" is already used by main/cluster/cf-manifests/a.yaml',
      'main/cluster/cf-manifests/c.yaml, field Metadata.StackName: a cf-manifest must declare Metadata.StackName (the name of the stack to create)',
      'main/cluster/cf-manifests/d.yaml, field Resources: the stack template has no Resources (CloudFormation needs at least one resource)',
    ]);
  });
});
