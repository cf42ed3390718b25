import { parseStackMetadata } from '../../../lambdas/core/cluster-stacks/stack-metadata';
import { ConfigError } from '../../../lambdas/shared/errors';

const FILE = 'main/providers/aws/default/1-30/metadata.yaml';
const VALID = `apiVersion: metadata.clusterstack.x-k8s.io/v1alpha1
versions:
  clusterStack: v4
  kubernetes: v1.30.5
  components:
    clusterAddon: v2
    nodeImage: v3
`;

function parseError(text: string): ConfigError {
  try {
    parseStackMetadata(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('parseStackMetadata', () => {
  it('reads the versions of the stack and its components', () => {
    expect(parseStackMetadata(VALID, FILE)).toEqual({
      clusterStack: 'v4',
      kubernetes: 'v1.30.5',
      components: { clusterAddon: 'v2', nodeImage: 'v3' },
    });
  });

  it.each([
    ['apiVersion', VALID.replace('v1alpha1', 'v1beta9')],
    ['versions.clusterStack', VALID.replace('clusterStack: v4', 'clusterStack: 4')],
    ['versions.kubernetes', VALID.replace('v1.30.5', '1.30')],
    ['versions.components.clusterAddon', VALID.replace('    clusterAddon: v2\n', '')],
    ['versions.components.nodeImage', VALID.replace('nodeImage: v3', 'nodeImage: latest')],
    ['versions.components', VALID.replace(/ {2}components:[\s\S]*$/, '')],
    ['versions', 'apiVersion: metadata.clusterstack.x-k8s.io/v1alpha1\n'],
  ])('names the file and the field %s when it is wrong', (field, text) => {
    const error = parseError(text);
    expect(error.location).toEqual({ file: FILE, field });
    expect(error.message).toContain(FILE);
    expect(error.message).toContain(`field ${field}`);
  });

  it('reports malformed YAML with its file and line', () => {
    const error = parseError('apiVersion: x\nversions: [unclosed\n');
    expect(error.location?.file).toBe(FILE);
    expect(error.location?.line).toBeGreaterThan(0);
  });
});
