import { renderCluster } from '../../../lambdas/core/render/render-cluster';
import { renderClusterResources } from '../../../lambdas/core/render/render-cluster-resources';
import { FakeDecrypter, VALUES, cluster, engine, mainSourceFiles, pool, snapshot } from './fixtures';

describe('renderCluster', () => {
  it('renders everything for one cluster, stacks in apply order', async () => {
    // Arrange
    const main = snapshot(
      'main',
      mainSourceFiles({
        'cluster/config-defaults.yaml': 'replicas: "2"\nteam: defaults\n',
        'cluster/cf-manifests/extra.yaml':
          'Metadata: {StackName: "{{Cluster.LocalID}}-extra"}\nResources: {T: {Type: AWS::SNS::Topic}}\n',
        'cluster/manifests/deletions.yaml': 'post_apply: [{kind: Pod, name: gone}]\n',
        'cluster/manifests/20-web/web.yaml':
          'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: {{Cluster.ConfigItems.replicas}} }\n',
      }),
    );
    const c = cluster({ configItems: { team: 'registry' } });

    // Act
    const render = await renderCluster({
      cluster: c,
      snapshots: [main],
      values: VALUES,
      engine: engine(),
      decrypter: new FakeDecrypter(),
      version: 'v1#hash',
    });

    // Assert
    expect(render.errors).toEqual([]);
    expect(render).toMatchObject({ id: c.id, version: 'v1#hash', configItems: { replicas: '2', team: 'registry' } });
    expect(render.nodePools).toEqual([
      { name: 'master', configItems: { replicas: '2', team: 'registry' } },
      { name: 'default-worker', configItems: { replicas: '2', team: 'registry' } },
    ]);
    expect(render.stacks.map((s) => `${s.kind}:${s.name}`)).toEqual([
      'cluster:kube-1',
      'cf-manifest:kube-1-extra',
      'node-pool:nodepool-master-aws-123456789012-eu-central-1-kube-1',
      'node-pool:nodepool-default-worker-aws-123456789012-eu-central-1-kube-1',
    ]);
    expect(render.manifests.map((m) => `${m.component}/${m.file}`)).toEqual([
      '01-base/namespace.yaml',
      '20-web/web.yaml',
    ]);
    expect(render.manifests[1].objects[0]).toMatchObject({ spec: { replicas: 2 } });
    expect(render.deletions).toEqual({ preApply: [], postApply: [{ kind: 'Pod', name: 'gone' }] });
    expect(render.poolDetails.map((p) => p.name)).toEqual(['master', 'default-worker']);
  });

  it('renders the main stack without stack outputs, the rest with them', async () => {
    const main = snapshot(
      'main',
      mainSourceFiles({
        'cluster/cluster.yaml':
          'Resources: {T: {Type: AWS::SNS::Topic, Properties: {TopicName: "{{Values.ClusterStackOutputs.WorkerFilesEncryptionKey}}"}}}\n',
        'cluster/manifests/k/cm.yaml':
          'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "{{Values.ClusterStackOutputs.WorkerFilesEncryptionKey}}"}\n',
      }),
    );
    const render = await renderCluster({
      cluster: cluster(),
      snapshots: [main],
      values: VALUES,
      engine: engine(),
      decrypter: new FakeDecrypter(),
    });
    expect(render.errors.map((e) => e.message)).toEqual([
      'main/cluster/cluster.yaml:1: "Values.ClusterStackOutputs.WorkerFilesEncryptionKey" is not defined',
    ]);
    expect(render.manifests[1].objects[0].metadata.name).toBe('key-worker');
  });

  it('collects the errors of every part and keeps rendering the rest', async () => {
    // Arrange: a broken pool profile, a broken manifest, a broken deletions file
    const main = snapshot(
      'main',
      mainSourceFiles({
        'cluster/manifests/x/bad.yaml': 'kind: Thing\n',
        'cluster/manifests/deletions.yaml': 'pre_apply: [{kind: Pod}]\n',
      }),
    );
    const c = cluster({ nodePools: [pool({ name: 'gpu', profile: 'worker-gpu' }), pool()] });

    // Act
    const render = await renderCluster({
      cluster: c,
      snapshots: [main],
      values: VALUES,
      engine: engine(),
      decrypter: new FakeDecrypter(),
    });

    // Assert
    expect(render.stacks.map((s) => s.kind)).toEqual(['cluster', 'node-pool']);
    expect(render.manifests.map((m) => m.file)).toEqual(['namespace.yaml']);
    expect(render.errors.map((e) => e.error)).toEqual(['ValidationError', 'ConfigError', 'ValidationError']);
    // deletions are validated in both stages but reported once
    expect(render.errors.filter((e) => e.message.includes('deletions.yaml'))).toHaveLength(1);
  });

  it('stops early, with the error, when the config items cannot be computed', async () => {
    const main = snapshot('main', mainSourceFiles({ 'cluster/config-defaults.yaml': 'nested: {a: b}\n' }));
    const render = await renderCluster({
      cluster: cluster(),
      snapshots: [main],
      values: VALUES,
      engine: engine(),
      decrypter: new FakeDecrypter(),
    });
    expect(render.stacks).toEqual([]);
    expect(render.errors).toEqual([
      expect.objectContaining({ error: 'ConfigError', file: 'main/cluster/config-defaults.yaml', line: 1 }),
    ]);
  });
});

describe('renderClusterResources', () => {
  it('leaves out master pools of zalando-eks clusters', async () => {
    const eks = cluster({ provider: 'zalando-eks' });
    const resources = await renderClusterResources({
      cluster: eks,
      snapshots: [snapshot('main', mainSourceFiles())],
      values: VALUES,
      engine: engine(),
    });
    expect(resources.errors).toEqual([]);
    expect(resources.nodePools.map((p) => p.name)).toEqual(['default-worker']);
    expect(resources.nodePools[0].stack.tags['kubernetes.io/cluster/kube-1']).toBe('owned');
  });
});
