import type { Deletions } from '../../../lambdas/core/deletions/deletion';
import type { RenderedManifestFile } from '../../../lambdas/core/render/render-manifests';
import type { RenderedStack } from '../../../lambdas/core/render/render-stack';
import { crdKinds } from '../../../lambdas/core/manifests/crd-kinds';
import { liveIssues } from '../../../lambdas/tasks/render/live-checks';

const CLUSTER = { id: 'aws:123456789012:eu-central-1:kube-1', status: { currentVersion: 'v1' } } as never;
const stack = (name: string, template: string): RenderedStack => ({ name, kind: 'node-pool', template, tags: {} });
const crd: RenderedManifestFile = {
  source: 'main',
  component: 'crds',
  file: 'crd.yaml',
  objects: [
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.org' },
      spec: { names: { kind: 'Widget', plural: 'widgets', singular: 'widget' } },
    } as never,
  ],
};
const deletions: Deletions = {
  preApply: [{ kind: 'Deploymnet', namespace: 'default', name: 'web' }],
  postApply: [
    { kind: 'Deployment', namespace: 'default', name: 'old' },
    { kind: 'widgets', selector: 'app=x' },
  ],
};

function ports(served: string[], ready = true) {
  const validated: string[] = [];
  return {
    validated,
    stacks: {
      validate: async (body: string) => (validated.push(body), body.includes('Bad') ? ['Unresolved resource Bad'] : []),
    },
    kube: { ready: async () => ready, servesKind: async (kind: string) => served.includes(kind) },
  };
}

describe('liveIssues', () => {
  it("reports ValidateTemplate's problems per stack and deletion kinds the API server does not serve", async () => {
    const p = ports(['Deployment']);
    const issues = await liveIssues(
      CLUSTER,
      { stacks: [stack('ok', 'Resources: {}'), stack('broken', 'Bad')], deletions, manifests: [crd] },
      p,
      p.kube,
    );
    expect(p.validated).toHaveLength(2);
    expect(issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/node-pool stack broken fails CloudFormation's ValidateTemplate: Unresolved resource Bad/),
      expect.stringMatching(
        /deletions\.yaml pre_apply\[0\] \(Deploymnet default\/web\): the API server serves no kind "Deploymnet"/,
      ),
    ]);
  });

  it('checks no kind while the cluster does not exist yet, its API server does not answer, or no API is given', async () => {
    const created = { ...(CLUSTER as object), status: { currentVersion: '' } } as never;
    const none = ports([]);
    expect(await liveIssues(created, { stacks: [], deletions, manifests: [] }, none, none.kube)).toEqual([]);
    const down = ports([], false);
    expect(await liveIssues(CLUSTER, { stacks: [], deletions, manifests: [] }, down, down.kube)).toEqual([]);
    expect(await liveIssues(CLUSTER, { stacks: [], deletions, manifests: [] }, none, undefined)).toEqual([]);
  });

  it('counts the kind, plural and singular names of rendered CRDs as served', () => {
    expect([...crdKinds([crd])].sort()).toEqual(['widget', 'widgets']);
  });
});
