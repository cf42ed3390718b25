import type { ApplyResult, DeleteOptions, KubeObject, ObjectRef } from '../../ports/kube-cluster';
import { KubeApiError, NotFoundError } from '../../shared/errors';
import { hashValue, sameData } from '../hash';
import type { SimContext } from '../sim-context';
import type { KindInfo, KubeState, StoredObject } from '../world-state';
import { kindForObject, objectKey, registerCrd, resolveKind } from './kinds';
import { matches, parseSelector } from '../../core/kube/label-selector';
import { nodeObject, removeNode } from './nodes';
import { pdbStatus, withDisruption } from './pdb';
import { beginPodDeletion, createPod, podKey, podObject } from './pods';
import { metaOf, ownersOf, serverMetadata, specOf, uidOf } from './stored';
import type { Json } from './stored';
import { workloadStatus } from './workloads';

/**
 * The object store behind apply, delete, list and annotate: server-side-apply semantics good enough for a
 * config tool (created / configured / unchanged, dry run changes nothing), namespaces must exist, owner
 * references drive cascading deletion (Background and Foreground delete dependents, Orphan keeps them).
 */

export const DEFAULT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export function newKubeState(ctx: SimContext, clusterId: string): KubeState {
  const kube: KubeState = { clusterId, objects: {}, pods: {}, nodes: {}, customKinds: {}, volumes: {} };
  for (const name of DEFAULT_NAMESPACES) {
    kube.objects[`/Namespace//${name}`] = {
      seq: ctx.nextSeq(),
      obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...serverMetadata(ctx) } },
    };
  }
  return kube;
}

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

export function listObjects(
  ctx: SimContext,
  kube: KubeState,
  kind: string,
  options: { namespace?: string; labelSelector?: string } = {},
): KubeObject[] {
  const info = resolveKind(kube, kind);
  const requirements = parseSelector(options.labelSelector);
  const inNamespace = (namespace: string | undefined): boolean =>
    !options.namespace || !info.namespaced || namespace === options.namespace;
  if (info.kind === 'Pod') {
    return Object.values(kube.pods)
      .filter((pod) => inNamespace(pod.namespace) && matches(requirements, pod.labels))
      .sort((a, b) => (podKey(a.namespace, a.name) < podKey(b.namespace, b.name) ? -1 : 1))
      .map((pod) => podObject(ctx, pod));
  }
  if (info.kind === 'Node') {
    return Object.values(kube.nodes)
      .filter((node) => matches(requirements, node.labels))
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((node) => nodeObject(ctx, kube, node));
  }
  return Object.entries(kube.objects)
    .filter(([key]) => key.startsWith(`${info.group}/${info.kind}/`))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, stored]) => stored)
    .filter(
      (stored) =>
        inNamespace(metaOf(stored.obj).namespace as string | undefined) &&
        matches(requirements, (metaOf(stored.obj).labels ?? {}) as Record<string, string>),
    )
    .map((stored) => {
      const status =
        info.kind === 'PodDisruptionBudget' ? pdbStatus(ctx, kube, stored) : workloadStatus(kube, info.kind, stored);
      return structuredClone({ ...stored.obj, ...(status ? { status } : {}) }) as KubeObject;
    });
}

export function annotateObject(
  ctx: SimContext,
  kube: KubeState,
  ref: ObjectRef,
  annotations: Readonly<Record<string, string>>,
): void {
  const info = resolveKind(kube, ref.kind, ref.apiVersion);
  const notFound = (): NotFoundError =>
    new NotFoundError(
      `${info.plural} "${ref.name}" not found${ref.namespace ? ` in namespace ${ref.namespace}` : ''}`,
      { location: { clusterId: kube.clusterId } },
    );
  if (info.kind === 'Pod') {
    const pod = kube.pods[podKey(ref.namespace ?? 'default', ref.name)];
    if (!pod) throw notFound();
    Object.assign(pod.annotations, annotations);
    return;
  }
  if (info.kind === 'Node') {
    const node = kube.nodes[ref.name];
    if (!node) throw notFound();
    Object.assign(node.annotations, annotations);
    return;
  }
  const stored = kube.objects[objectKey(info, ref.namespace, ref.name)];
  if (!stored) throw notFound();
  const metadata = metaOf(stored.obj);
  metadata.annotations = { ...((metadata.annotations ?? {}) as Record<string, string>), ...annotations };
  stored.obj.metadata = metadata;
}

export function scaleDeployment(
  ctx: SimContext,
  kube: KubeState,
  namespace: string,
  name: string,
  replicas: number,
): void {
  const stored = kube.objects[`apps/Deployment/${namespace}/${name}`];
  if (!stored)
    throw new NotFoundError(`deployments.apps "${name}" not found in namespace ${namespace}`, {
      location: { clusterId: kube.clusterId },
    });
  const spec = specOf(stored.obj);
  spec.replicas = replicas;
  stored.obj.spec = spec;
  ctx.dirty.add(kube.clusterId);
}
