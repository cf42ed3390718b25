import { deletionSelector } from '../../core/deletions/deletion-selector';
import { deletionEntries, type Deletion } from '../../core/deletions/deletion';
import { crdKinds } from '../../core/manifests/crd-kinds';
import { objectRef, pruneCandidates } from '../../core/manifests/inventory';
import type { DeletionPlan } from '../../core/plan/plan-document';
import type { ClusterRender } from '../../core/render/render-cluster';
import type { KubeCluster, ObjectRef } from '../../ports/kube-cluster';

/** What prune (applied last time, not rendered now) and deletions.yaml would delete, as listed live now. */
export async function deletionPlans(
  kube: KubeCluster,
  render: ClusterRender,
  inventory: readonly ObjectRef[],
  problems: string[],
): Promise<DeletionPlan[]> {
  const rendered = render.manifests.flatMap((f) => f.objects.map(objectRef));
  const pruned = pruneCandidates(inventory, rendered).map((ref) => ({ ref, reason: 'prune' }));
  const entries = deletionEntries(render.deletions).map(({ entry, where }) => ({ entry, where: `deletions ${where}` }));
  const listed: DeletionPlan[] = [];
  // A kind this update's manifests define (a new CRD) is not served yet: nothing of it can exist to delete.
  const defined = crdKinds(render.manifests);
  for (const { entry, where } of entries) {
    try {
      if (defined.has(entry.kind.toLowerCase()) && !(await kube.servesKind(entry.kind))) continue;
      for (const ref of await deletionTargets(kube, entry)) listed.push({ ref, reason: where });
    } catch (error) {
      problems.push(`${where}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return [...pruned, ...listed];
}

async function deletionTargets(kube: KubeCluster, entry: Deletion): Promise<ObjectRef[]> {
  const namespace = entry.namespace ? { namespace: entry.namespace } : {};
  if ('name' in entry) {
    const found = (await kube.list(entry.kind, namespace)).some((o) => o.metadata.name === entry.name);
    return found ? [{ kind: entry.kind, name: entry.name, ...namespace }] : [];
  }
  const matches = await kube.list(entry.kind, { labelSelector: deletionSelector(entry), ...namespace });
  return matches
    .filter((o) => entry.hasOwner === undefined || (o.metadata.ownerReferences?.length ?? 0) > 0 === entry.hasOwner)
    .map((o) => ({
      kind: entry.kind,
      name: o.metadata.name,
      ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}),
    }));
}
