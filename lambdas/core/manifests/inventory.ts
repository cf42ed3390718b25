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

/** How an object is shown: `apiVersion/kind/namespace/name`. */
export function inventoryKey(ref: ObjectRef): string {
  return `${ref.apiVersion ?? ''}/${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}

/**
 * What makes two refs the same live object for pruning: kind, namespace and name, whatever the group version. An
 * object is one object in the API server under every version it is served at (`autoscaling/v1` and `/v2` HPAs), and
 * a few kinds are served under two groups (Ingress under `extensions` and `networking.k8s.io`, Deployments under
 * `extensions` and `apps`, Events under the core and `events.k8s.io` groups); comparing without the group version
 * keeps a migration from pruning the object it just applied. Two custom kinds of the same name in different groups
 * are rare; for them the cost of this rule is a leftover object, never a deleted one.
 */
function identity(ref: ObjectRef): string {
  return `${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}

/**
 * Objects applied last time that this render no longer has, except kinds that hold data. Never one the current
 * render applies under another group version (identity above).
 */
export function pruneCandidates(previous: readonly ObjectRef[], current: readonly ObjectRef[]): ObjectRef[] {
  const keep = new Set(current.map(identity));
  return previous.filter((ref) => !keep.has(identity(ref)) && !NEVER_PRUNED.has(ref.kind));
}
