import { splitManifests } from '../../../lambdas/core/render/split-manifests';
import { ConfigError, ValidationError } from '../../../lambdas/shared/errors';

const FILE = 'main/cluster/manifests/web/deployment.yaml';

describe('splitManifests', () => {
  it('splits documents, drops empty ones and comments', () => {
    const text = [
      '# leading comment',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap # trailing comment',
      'metadata: {name: a}',
      '---',
      '# only a comment',
      '---',
      '---',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: b, namespace: web}',
      'spec: {replicas: 3}',
    ].join('\n');
    expect(splitManifests(text, FILE)).toEqual([
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'b', namespace: 'web' }, spec: { replicas: 3 } },
    ]);
  });

  it('gives nothing for a file that renders empty', () => {
    expect(splitManifests('\n# disabled in this environment\n', FILE)).toEqual([]);
  });

  it('reports every document without apiVersion, kind or metadata.name by index', () => {
    // Arrange
    const text = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: fine}',
      '---',
      'kind: Secret',
      'metadata: {name: no-version}',
      '---',
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {generateName: web-}',
      '---',
      '- a list',
      '---',
      'apiVersion: v1',
      'kind: List',
      'items: []',
    ].join('\n');

    // Act
    let error: unknown;
    try {
      splitManifests(text, FILE);
    } catch (e) {
      error = e;
    }

    // Assert
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      `${FILE}: document[1]: missing apiVersion (kind Secret); every object needs apiVersion, kind and metadata.name`,
      `${FILE}: document[2]: missing metadata.name (kind Pod); every object needs apiVersion, kind and metadata.name`,
      `${FILE}: document[3]: expected a Kubernetes object (a mapping), found a list`,
      `${FILE}: document[4]: missing metadata.name (kind List); every object needs apiVersion, kind and metadata.name`,
    ]);
    expect((error as Error).message).toMatch(new RegExp(`^${FILE}: unsupported manifests`));
  });

  it('fails with the line of a YAML syntax error', () => {
    expect(() => splitManifests('apiVersion: v1\nkind: [\n', FILE)).toThrow(ConfigError);
    expect(() => splitManifests('a: 1\nb: 2\n  c: 3\n', FILE)).toThrow(new RegExp(`^${FILE}:3: invalid YAML`));
  });
});
