import {
  cfManifestTemplates,
  clusterStackTemplate,
  manifestComponents,
  mainSource,
  nodePoolTemplates,
  templatesInEverySource,
} from '../../../lambdas/core/render/config-layout';
import { siblingResolver } from '../../../lambdas/core/render/sibling-resolver';
import { ConfigError } from '../../../lambdas/shared/errors';
import { snapshot } from './fixtures';

describe('config layout', () => {
  const main = snapshot('main', {
    'cluster/cluster.yaml': 'main stack',
    'cluster/node-pools/worker-default/stack.yaml': 's',
    'cluster/node-pools/worker-default/userdata.yaml': 'u',
    'cluster/node-pools/worker-default/files.yaml': 'f',
    'cluster/node-pools/broken/stack.yaml': 's',
    'cluster/manifests/deletions.yaml': 'd',
    'cluster/manifests/20-web/deployment.yaml': 'w1',
    'cluster/manifests/20-web/configmap.yml': 'w0',
    'cluster/manifests/20-web/README.md': 'not yaml',
    'cluster/manifests/20-web/nested/ignored.yaml': 'deeper files are ignored',
    'cluster/manifests/10-dns/a.yaml': 'dns',
    'cluster/manifests/Z-last/a.yaml': 'uppercase sorts before lowercase, as bytes',
    'cluster/cf-manifests/b.yaml': 'b',
    'cluster/cf-manifests/a.yml': 'a',
    'cluster/cf-manifests/cf-deletions.yaml': 'cfd',
    'cluster/cf-manifests/sub/x.yaml': 'ignored',
  });
  const extra = snapshot('extra', {
    'cluster/cluster.yaml': 'ignored: first source only',
    'cluster/manifests/00-first/a.yaml': 'extra',
    'cluster/manifests/deletions.yaml': 'extra d',
    'cluster/cf-manifests/c.yaml': 'c',
  });

  it('takes the cluster stack from the first source only', () => {
    expect(clusterStackTemplate([main, extra])).toMatchObject({
      path: 'main/cluster/cluster.yaml',
      content: 'main stack',
      source: 'main',
    });
  });

  it('fails naming the file when the first source has no cluster.yaml', () => {
    expect(() => clusterStackTemplate([snapshot('main', {}), main])).toThrow(
      'main/cluster/cluster.yaml: the main cluster stack template is missing',
    );
    expect(() => mainSource([])).toThrow(ConfigError);
  });

  it('finds node-pool profile files in the first source, naming pool and profile when one is missing', () => {
    expect(nodePoolTemplates([main], { name: 'p', profile: 'worker-default' }).userdata.path).toBe(
      'main/cluster/node-pools/worker-default/userdata.yaml',
    );
    expect(() => nodePoolTemplates([main], { name: 'db', profile: 'broken' })).toThrow(
      'main/cluster/node-pools/broken/files.yaml, field node_pools.db.profile: node pool "db" uses profile "broken", which has no files.yaml',
    );
    expect(() => nodePoolTemplates([extra, main], { name: 'p', profile: 'worker-default' })).toThrow(
      /extra\/cluster\/node-pools\/worker-default/,
    );
  });

  it('lists manifest components per source in order, components and files lexical, top-level YAML only', () => {
    const components = manifestComponents([main, extra]);
    expect(
      components.map(
        (c) => `${c.source}/${c.component}: ${c.files.map((f) => f.sourcePath.split('/').pop()).join(',')}`,
      ),
    ).toEqual([
      'main/10-dns: a.yaml',
      'main/20-web: configmap.yml,deployment.yaml',
      'main/Z-last: a.yaml',
      'extra/00-first: a.yaml',
    ]);
    expect(components[1].files[0].path).toBe('main/cluster/manifests/20-web/configmap.yml');
  });

  it('lists cf-manifests of all sources without cf-deletions.yaml or subdirectories', () => {
    expect(cfManifestTemplates([main, extra]).map((t) => t.path)).toEqual([
      'main/cluster/cf-manifests/a.yml',
      'main/cluster/cf-manifests/b.yaml',
      'extra/cluster/cf-manifests/c.yaml',
    ]);
  });

  it('finds an optional file in every source that has it', () => {
    expect(templatesInEverySource([main, extra], 'cluster/manifests/deletions.yaml').map((t) => t.content)).toEqual([
      'd',
      'extra d',
    ]);
    expect(templatesInEverySource([main, extra], 'cluster/config-defaults.yaml')).toEqual([]);
  });
});

describe('siblingResolver', () => {
  const source = snapshot('main', {
    'cluster/manifests/web/deployment.yaml': 'd',
    'cluster/manifests/web/configmap.yaml': 'c',
    'cluster/manifests/shared/common.yaml': 's',
  });
  const resolve = siblingResolver(source, { sourcePath: 'cluster/manifests/web/deployment.yaml' });

  it('resolves paths relative to the calling file', () => {
    expect(resolve('configmap.yaml')).toMatchObject({
      path: 'main/cluster/manifests/web/configmap.yaml',
      content: 'c',
    });
    expect(resolve('../shared/common.yaml')).toMatchObject({ path: 'main/cluster/manifests/shared/common.yaml' });
  });

  it('finds nothing for missing files, absolute paths or paths leaving the source', () => {
    expect(resolve('missing.yaml')).toBeUndefined();
    expect(resolve('/cluster/manifests/web/configmap.yaml')).toBeUndefined();
    expect(resolve('../../../../etc/passwd')).toBeUndefined();
  });
});
