import type { DeleteOptions, ObjectRef } from '../../ports/kube-cluster';
import type { SimContext } from '../sim-context';
import type { KubeState, StoredObject } from '../world-state';
import { objectKey, resolveKind } from './kinds';
import { removeNode } from './nodes';
import { withDisruption } from './pdb';
import { beginPodDeletion, podKey } from './pods';
import { metaOf, ownersOf, specOf, uidOf } from './stored';
import type { Json } from './stored';

/**
 * Delete with cascading: owner references drive it (Background and Foreground delete dependents, Orphan keeps
 * them); a namespace takes its objects and pods along, a CustomResourceDefinition its custom objects and kind.
 * Deleting a pod is not an eviction (no PDB check), but a PDB it leaves short counts as a violation; deleting a
 * node removes it.
 */

function dependents(kube: KubeState, uid: string): [string, StoredObject][] {
  return Object.entries(kube.objects).filter(([, stored]) => ownersOf(stored.obj).some((ref) => ref.uid === uid));
}

function removeStored(ctx: SimContext, kube: KubeState, key: string, policy: DeleteOptions['propagationPolicy']): void {
  const stored = kube.objects[key];
  if (!stored) return;
  delete kube.objects[key];
  const uid = uidOf(stored.obj);
  for (const [childKey, child] of dependents(kube, uid)) {
    if (policy === 'Orphan') metaOf(child.obj).ownerReferences = ownersOf(child.obj).filter((ref) => ref.uid !== uid);
    else removeStored(ctx, kube, childKey, policy);
  }
  for (const pod of Object.values(kube.pods).filter((p) => p.owner?.uid === uid)) {
    if (policy === 'Orphan') pod.owner = undefined;
    else beginPodDeletion(ctx, kube, pod);
  }
  const kind = String(stored.obj.kind);
  const name = String(metaOf(stored.obj).name);
  if (kind === 'Namespace') {
    for (const [k] of Object.entries(kube.objects).filter(([k]) => k.split('/')[2] === name))
      removeStored(ctx, kube, k, 'Background');
    for (const pod of Object.values(kube.pods).filter((p) => p.namespace === name)) beginPodDeletion(ctx, kube, pod);
  }
  if (kind === 'CustomResourceDefinition') {
    const crdKind = String(((specOf(stored.obj).names ?? {}) as Json).kind ?? '');
    const info = kube.customKinds[crdKind.toLowerCase()];
    if (info) {
      for (const [k] of Object.entries(kube.objects).filter(([k]) => k.startsWith(`${info.group}/${info.kind}/`)))
        delete kube.objects[k];
      delete kube.customKinds[crdKind.toLowerCase()];
    }
  }
  ctx.dirty.add(kube.clusterId);
}

export function deleteObject(
  ctx: SimContext,
  kube: KubeState,
  ref: ObjectRef,
  options: DeleteOptions = {},
): 'deleted' | 'not-found' {
  const info = resolveKind(kube, ref.kind, ref.apiVersion);
  if (info.namespaced && !ref.namespace) return 'not-found';
  if (info.kind === 'Pod') {
    const pod = kube.pods[podKey(ref.namespace!, ref.name)];
    if (!pod) return 'not-found';
    withDisruption(ctx, kube, [pod], `delete of pod ${ref.namespace}/${ref.name}`, () =>
      beginPodDeletion(ctx, kube, pod, options.gracePeriodSeconds),
    );
    return 'deleted';
  }
  if (info.kind === 'Node') {
    if (!kube.nodes[ref.name]) return 'not-found';
    removeNode(ctx, kube, ref.name, `delete of node ${ref.name}`);
    return 'deleted';
  }
  const key = objectKey(info, ref.namespace, ref.name);
  if (!kube.objects[key]) return 'not-found';
  removeStored(ctx, kube, key, options.propagationPolicy ?? 'Background');
  return 'deleted';
}
