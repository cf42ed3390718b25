import type { ApplyResult, KubeObject } from '../../ports/kube-cluster';
import { KubeApiError } from '../../shared/errors';
import { hashValue, sameData } from '../hash';
import type { SimContext } from '../sim-context';
import type { KindInfo, KubeState } from '../world-state';
import { kindForObject, objectKey, registerCrd } from './kinds';
import { createPod, podKey } from './pods';
import { podRequests } from '../../core/kube/pod-resources';
import { metaOf, ownersOf, serverMetadata, specOf } from './stored';
import type { Json } from './stored';

/**
 * Apply with server-side-apply semantics good enough for a config tool: created / configured / unchanged, a dry
 * run changes nothing, namespaces must exist (or be created earlier in the same dry-run batch), annotations other
 * managers set survive. Pods become simulated pods; nodes are registered by their kubelet, never applied.
 */

/** Is every field of `part` present in `whole` with the same value? */
function isSubset(part: unknown, whole: unknown): boolean {
  if (part === null || typeof part !== 'object') return part === whole || (part === undefined && whole === undefined);
  if (Array.isArray(part))
    return Array.isArray(whole) && whole.length === part.length && part.every((item, i) => isSubset(item, whole[i]));
  if (whole === null || typeof whole !== 'object' || Array.isArray(whole)) return false;
  return Object.entries(part).every(([key, value]) => value === undefined || isSubset(value, (whole as Json)[key]));
}

function validate(object: KubeObject, index: number): void {
  if (
    typeof object?.apiVersion !== 'string' ||
    typeof object.kind !== 'string' ||
    typeof object.metadata?.name !== 'string' ||
    object.metadata.name === ''
  ) {
    throw new KubeApiError(
      `object ${index} is not a Kubernetes object: apiVersion, kind and metadata.name are required`,
    );
  }
}

function normalise(info: KindInfo, object: KubeObject): Json {
  const copy = structuredClone(object) as Json;
  delete copy.status;
  const metadata = { ...metaOf(copy) };
  for (const field of ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields'])
    delete metadata[field];
  if (info.namespaced) metadata.namespace = metadata.namespace ?? 'default';
  else delete metadata.namespace;
  copy.metadata = metadata;
  return copy;
}

function applyPod(ctx: SimContext, kube: KubeState, applied: Json, dryRun: boolean): ApplyResult['action'] {
  const meta = metaOf(applied);
  const namespace = String(meta.namespace);
  const existing = kube.pods[podKey(namespace, String(meta.name))];
  const hash = hashValue(applied);
  if (existing) {
    if (existing.appliedHash === hash) return 'unchanged';
    if (!dryRun) {
      Object.assign(existing.labels, meta.labels ?? {});
      Object.assign(existing.annotations, meta.annotations ?? {});
      existing.appliedHash = hash;
    }
    return 'configured';
  }
  if (dryRun) return 'created';
  const spec = specOf(applied);
  const ref = ownersOf(applied)[0];
  const pod = createPod(ctx, kube, {
    namespace,
    name: String(meta.name),
    labels: (meta.labels ?? {}) as Record<string, string>,
    annotations: (meta.annotations ?? {}) as Record<string, string>,
    ...(ref ? { owner: { kind: ref.kind, name: ref.name, uid: ref.uid ?? '' } } : {}),
    ...(typeof spec.terminationGracePeriodSeconds === 'number' ? { grace: spec.terminationGracePeriodSeconds } : {}),
    ...(spec.nodeSelector ? { nodeSelector: spec.nodeSelector as Record<string, string> } : {}),
    ...(Array.isArray(spec.tolerations) ? { tolerations: spec.tolerations } : {}),
    ...(typeof spec.nodeName === 'string' ? { nodeName: spec.nodeName } : {}),
    requests: podRequests(spec),
  });
  pod.appliedHash = hash;
  return 'created';
}

function applyOne(
  ctx: SimContext,
  kube: KubeState,
  info: KindInfo,
  applied: Json,
  dryRun: boolean,
): ApplyResult['action'] {
  if (info.kind === 'Pod') return applyPod(ctx, kube, applied, dryRun);
  if (info.kind === 'Node')
    throw new KubeApiError(`nodes are registered by their kubelet; cannot apply node ${String(metaOf(applied).name)}`);
  const key = objectKey(info, String(metaOf(applied).namespace ?? ''), String(metaOf(applied).name));
  const existing = kube.objects[key];
  if (existing && sameData(existing.applied, applied) && isSubset(applied, existing.obj)) return 'unchanged';
  if (dryRun) return existing ? 'configured' : 'created';
  if (existing) {
    // Annotations other managers set (e.g. `annotate`) survive; everything this manager applied is replaced.
    const previous = (metaOf(existing.applied ?? {}).annotations ?? {}) as Record<string, string>;
    const live = (metaOf(existing.obj).annotations ?? {}) as Record<string, string>;
    const foreign = Object.fromEntries(Object.entries(live).filter(([k]) => !(k in previous)));
    const annotations = { ...foreign, ...((metaOf(applied).annotations ?? {}) as Record<string, string>) };
    const old = metaOf(existing.obj);
    existing.obj = {
      ...structuredClone(applied),
      metadata: {
        ...metaOf(applied),
        ...(Object.keys(annotations).length ? { annotations } : {}),
        uid: old.uid,
        creationTimestamp: old.creationTimestamp,
        generation: Number(old.generation ?? 1) + 1,
      },
    };
    existing.applied = applied;
  } else {
    kube.objects[key] = {
      seq: ctx.nextSeq(),
      applied,
      obj: { ...structuredClone(applied), metadata: { ...metaOf(applied), ...serverMetadata(ctx) } },
    };
  }
  if (info.kind === 'CustomResourceDefinition') registerCrd(kube, applied);
  ctx.dirty.add(kube.clusterId);
  return existing ? 'configured' : 'created';
}

export function applyObjects(
  ctx: SimContext,
  kube: KubeState,
  objects: readonly KubeObject[],
  dryRun: boolean,
): ApplyResult[] {
  const batchNamespaces = new Set<string>();
  return objects.map((object, index) => {
    validate(object, index);
    const info = kindForObject(kube, object.apiVersion, object.kind);
    const applied = normalise(info, object);
    const namespace = metaOf(applied).namespace as string | undefined;
    if (namespace && !kube.objects[`/Namespace//${namespace}`] && !(dryRun && batchNamespaces.has(namespace))) {
      throw new KubeApiError(
        `namespaces "${namespace}" not found (applying ${object.kind} ${namespace}/${object.metadata.name})`,
      );
    }
    if (info.kind === 'Namespace') batchNamespaces.add(object.metadata.name);
    const action = applyOne(ctx, kube, info, applied, dryRun);
    return {
      ref: {
        apiVersion: object.apiVersion,
        kind: object.kind,
        ...(namespace ? { namespace } : {}),
        name: object.metadata.name,
      },
      action,
    };
  });
}
