// RenderConfig validates the whole cluster before the main stack is deployed: a broken cf-manifest,
// manifest or deletions file fails it, and nothing of the run moves on.
import { HandlebarsTemplateEngine } from '../../lambdas/adapters/templating/handlebars-template-engine';
import { StaticValuesProvider } from '../../lambdas/adapters/values/static-values-provider';
import { prepare } from '../../lambdas/tasks/prepare';
import { renderConfig } from '../../lambdas/tasks/render-config';
import type { ClusterPorts, Ports } from '../../lambdas/ports/ports';
import { ConfigError, ValidationError } from '../../lambdas/shared/errors';
import { EMPTY_STATUS } from '../../lambdas/core/model/cluster';
import { fakeEnv, testCluster } from '../support/fakes';

const MAIN_STACK = 'Resources:\n  Topic: {Type: AWS::SNS::Topic}\n';
const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: web}\n';

async function setUp(files: Record<string, string>, currentVersion = '') {
  const cluster = testCluster({ nodePools: [], status: { ...EMPTY_STATUS, currentVersion } });
  const env = fakeEnv({ clusters: [cluster] });
  Object.assign(env.source.files, { 'cluster/cluster.yaml': MAIN_STACK, ...files });
  const clusterPorts = { ...env.ports.forCluster(cluster), values: new StaticValuesProvider() } as ClusterPorts;
  const ports: Ports = { ...env.ports, templates: new HandlebarsTemplateEngine(), forCluster: () => clusterPorts };
  const run = await prepare(
    { clusterId: cluster.id, action: 'provision', options: { applyOnly: false }, trigger: 'test' },
    'exec-1',
    ports,
  );
  const ref = { clusterId: cluster.id, targetVersion: run.targetVersion, holder: 'exec-1' };
  return { env, ports, ref, artifactsBefore: env.artifacts.objects.size };
}

describe('RenderConfig validates everything before the first write', () => {
  it('fails on a cf-manifest without Resources, a duplicated object and a bad selector, all in one error', async () => {
    // Arrange
    const { env, ports, ref, artifactsBefore } = await setUp({
      'cluster/cf-manifests/alerts.yaml': 'Metadata: {StackName: kube-1-alerts}\nResources: {}\n',
      'cluster/manifests/10-a/cm.yaml': CONFIG_MAP,
      'cluster/manifests/20-b/cm.yaml': CONFIG_MAP,
      'cluster/manifests/deletions.yaml': 'pre_apply:\n  - {kind: Deployment, selector: "app in (a"}\n',
    });

    // Act
    const act = renderConfig(ref, ports);

    // Assert: one terminal error listing every problem with its file...
    const error = await act.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const message = (error as Error).message;
    expect(message).toContain('main/cluster/manifests/deletions.yaml: pre_apply[0]: selector:');
    expect(message).toContain('main/cluster/cf-manifests/alerts.yaml, field Resources');
    expect(message).toContain(
      'main/cluster/manifests/20-b/cm.yaml: ConfigMap web/cfg is already defined in main/cluster/manifests/10-a/cm.yaml',
    );
    // ...and nothing moved on: no artefact stored, the run record still where Prepare left it, no stack touched
    expect(env.artifacts.objects.size).toBe(artifactsBefore);
    expect((await env.progress.getRun(ref.clusterId, ref.targetVersion))?.phase).not.toBe('RenderConfig');
    expect(env.stacks.deploys).toEqual([]);
    expect(env.stacks.stacks.size).toBe(0);
  });

  it('leaves problems that need the main stack outputs to RenderClusterResources', async () => {
    // Arrange: a manifest using an output that exists only once the main stack is deployed
    const { ports, ref } = await setUp({
      'cluster/manifests/10-a/cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "{{Values.ClusterStackOutputs.Bucket}}"}\n',
    });

    // Act
    const output = await renderConfig(ref, ports);

    // Assert
    expect(output.message).toContain('Rendered main stack kube-1');
  });

  it('fails a main stack without Resources as a config error naming the file', async () => {
    const { ports, ref } = await setUp({ 'cluster/cluster.yaml': 'Outputs: {}\n' });
    const act = renderConfig(ref, ports);
    await expect(act).rejects.toThrow(ConfigError);
    await expect(renderConfig(ref, ports)).rejects.toThrow('main/cluster/cluster.yaml, field Resources');
  });

  it("asks CloudFormation's ValidateTemplate and the API server's discovery before the first write", async () => {
    // Arrange: an existing cluster (its API server answers) with a deletion of a kind it does not serve
    const { env, ports, ref } = await setUp(
      { 'cluster/manifests/deletions.yaml': 'post_apply:\n  - {kind: Deploymnet, namespace: web, name: old}\n' },
      'old#version',
    );
    env.kube.unservedKinds.add('Deploymnet');
    env.stacks.invalid = { 'AWS::SNS::Topic': 'Template error: unsupported resource' };

    // Act
    const error = await renderConfig(ref, ports).catch((e: unknown) => e);

    // Assert
    expect(error).toBeInstanceOf(ValidationError);
    const message = (error as Error).message;
    expect(message).toMatch(
      /cluster stack kube-1 fails CloudFormation's ValidateTemplate: Template error: unsupported/,
    );
    expect(message).toContain('deletions.yaml post_apply[0] (Deploymnet web/old): the API server serves no kind');
    expect(env.stacks.validated).toEqual([MAIN_STACK]);
    expect(env.stacks.deploys).toEqual([]);
  });
});
