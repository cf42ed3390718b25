import type { RenderedManifestFile } from '../render/render-manifests';
import type { KubeObject, ObjectRef } from '../../ports/kube-cluster';

/** Kinds applied before everything else (Flux/Argo order): their instances may follow in the same run. */
const FIRST_KINDS = new Set(['CustomResourceDefinition', 'Namespace']);
/** Kinds never pruned automatically: losing them loses data. deletions.yaml can still remove them. */
const NEVER_PRUNED = new Set(['Namespace', 'CustomResourceDefinition', 'PersistentVolumeClaim', 'PersistentVolume']);

/** The batches server-side apply sends, in order: CRDs and Namespaces first, then each file's other objects. */
export function applyBatches(manifests: readonly RenderedManifestFile[]): KubeObject[][] {
  const first = manifests.flatMap((file) => file.objects.filter((o) => FIRST_KINDS.has(o.kind)));
  const rest = manifests.map((file) => file.objects.filter((o) => !FIRST_KINDS.has(o.kind)));
  return [first, ...rest].filter((batch) => batch.length > 0);
}

export function objectRef(object: KubeObject): ObjectRef {
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    name: object.metadata.name,
    ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
  };
}

export function inventoryKey(ref: ObjectRef): string {
  return `${ref.apiVersion ?? ''}/${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}

/** Objects applied last time that this render no longer has, except kinds that hold data. */
export function pruneCandidates(previous: readonly ObjectRef[], current: readonly ObjectRef[]): ObjectRef[] {
  const keep = new Set(current.map(inventoryKey));
  return previous.filter((ref) => !keep.has(inventoryKey(ref)) && !NEVER_PRUNED.has(ref.kind));
}
