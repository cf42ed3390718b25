import { deletionEntries, type Deletion, type Deletions } from '../../core/deletions/deletion';
import { crdKinds } from '../../core/manifests/crd-kinds';
import type { Cluster } from '../../core/model/cluster';
import type { RenderIssue } from '../../core/render/render-issue';
import type { RenderedManifestFile } from '../../core/render/render-manifests';
import type { RenderedStack } from '../../core/render/render-stack';
import type { KubeCluster } from '../../ports/kube-cluster';
import type { StackDeployer } from '../../ports/stack-deployer';

/**
 * The checks before the first write that ask the cluster's own services: CloudFormation's ValidateTemplate of every
 * rendered stack template, and, given the cluster's API (`kube`), each deletions entry's kind against its discovery
 * (when the cluster exists and its API server answers; kinds the rendered manifests define as CRDs count as served).
 */
export async function liveIssues(
  cluster: Pick<Cluster, 'id' | 'status'>,
  rendered: {
    readonly stacks: readonly RenderedStack[];
    readonly deletions: Deletions;
    readonly manifests: readonly RenderedManifestFile[];
  },
  ports: { readonly stacks: Pick<StackDeployer, 'validate'> },
  kube: Pick<KubeCluster, 'ready' | 'servesKind'> | undefined,
): Promise<RenderIssue[]> {
  const issues: RenderIssue[] = [];
  for (const stack of rendered.stacks) {
    for (const problem of await ports.stacks.validate(stack.template)) {
      issues.push({
        error: 'ValidationError',
        message: `cluster ${cluster.id}: the template of ${stack.kind} stack ${stack.name} fails CloudFormation's ValidateTemplate: ${problem}`,
      });
    }
  }
  if (!kube || !cluster.status.currentVersion || !(await kube.ready().catch(() => false))) return issues;
  const defined = crdKinds(rendered.manifests);
  for (const { entry: d, where } of deletionEntries(rendered.deletions)) {
    if (defined.has(d.kind.toLowerCase()) || (await kube.servesKind(d.kind))) continue;
    issues.push({
      error: 'ValidationError',
      message: `cluster ${cluster.id}: deletions.yaml ${where} (${describe(d)}): the API server serves no kind "${d.kind}" (Kind, singular or plural name, or resource.version.group)`,
      file: 'deletions.yaml',
    });
  }
  return issues;
}

function describe(d: Deletion): string {
  const ns = d.namespace ? `${d.namespace}/` : '';
  if ('name' in d) return `${d.kind} ${ns}${d.name}`;
  if ('selector' in d) return `${d.kind} ${ns}selector ${d.selector}`;
  return `${d.kind} ${ns}labels ${JSON.stringify(d.labels)}`;
}
