import { MAX_OBJECT_BYTES, manifestObjectIssues } from '../../../lambdas/core/manifests/validate-objects';
import type { KubeObject } from '../../../lambdas/ports/kube-cluster';

function object(apiVersion: string, kind: string, name: string, namespace?: string, data = {}): KubeObject {
  return { apiVersion, kind, metadata: { name, ...(namespace ? { namespace } : {}) }, ...data };
}

describe('manifestObjectIssues', () => {
  it('names both files when an object is defined twice, across API versions of the same group', () => {
    // Arrange: the HPA under two versions of its group is one object; another group is another object
    const files = [
      { path: 'main/cluster/manifests/a/hpa.yaml', objects: [object('autoscaling/v1', 'HPA', 'web', 'web')] },
      {
        path: 'extra/cluster/manifests/b/hpa.yaml',
        objects: [object('autoscaling/v2', 'HPA', 'web', 'web'), object('example.org/v1', 'HPA', 'web', 'web')],
      },
    ];

    // Act
    const issues = manifestObjectIssues(files);

    // Assert
    expect(issues).toEqual([
      {
        error: 'ValidationError',
        message:
          'extra/cluster/manifests/b/hpa.yaml: HPA web/web is already defined in main/cluster/manifests/a/hpa.yaml',
        file: 'extra/cluster/manifests/b/hpa.yaml',
      },
    ]);
  });

  it('accepts the same name in other namespaces and kinds', () => {
    const files = [
      {
        path: 'main/cluster/manifests/a/x.yaml',
        objects: [
          object('v1', 'ConfigMap', 'x', 'a'),
          object('v1', 'ConfigMap', 'x', 'b'),
          object('v1', 'Secret', 'x', 'a'),
        ],
      },
    ];
    expect(manifestObjectIssues(files)).toEqual([]);
  });

  it('reports an object over the size limit, and not one just under it', () => {
    // Arrange: sized so that the JSON of each object is just over / under the limit
    const base = object('v1', 'ConfigMap', 'big', 'a', { data: { blob: '' } });
    const overhead = JSON.stringify(base).length;
    const big = object('v1', 'ConfigMap', 'big', 'a', { data: { blob: 'x'.repeat(MAX_OBJECT_BYTES - overhead + 1) } });
    const fits = object('v1', 'ConfigMap', 'fits', 'a', {
      data: { blob: 'x'.repeat(MAX_OBJECT_BYTES - overhead - 1) },
    });

    // Act
    const issues = manifestObjectIssues([{ path: 'main/cluster/manifests/a/big.yaml', objects: [big, fits] }]);

    // Assert
    expect(issues.map((i) => i.message)).toEqual([
      `main/cluster/manifests/a/big.yaml: ConfigMap a/big is ${MAX_OBJECT_BYTES + 1} bytes, over the limit of ${MAX_OBJECT_BYTES} bytes`,
    ]);
  });
});
