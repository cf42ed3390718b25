import type { ApplyResult, KubeObject } from '../../ports/kube-cluster';
import { KubeApiError } from '../../shared/errors';
import { hashValue } from '../hash';
import { appliedPaths, serverSideApply } from './field-managers';
import type { SimContext } from '../sim-context';
import type { KindInfo, KubeState } from '../world-state';
import { kindForObject, objectKey, registerCrd } from './kinds';
import { createPod, podKey } from './pods';
import { podRequests } from '../../core/kube/pod-resources';
import { metaOf, ownersOf, serverMetadata, specOf } from './stored';
import { invalidNodePoolLimits } from '../karpenter-limits';
import type { Json } from './stored';

/**
 * Server-side apply per field manager (kube/field-managers.ts: the manager owns the fields it applies, drops those it
 * no longer applies, other managers' fields survive; managedFields shown on read): created / configured (with the
 * fields that changed and who owned them) / unchanged, a dry run changes nothing, namespaces must exist (or be created
 * earlier in the same dry-run batch), `metadata.generation` grows when anything outside metadata changed. Pods become
 * simulated pods; nodes are registered by their kubelet, never applied.
 */

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
    ...(spec.affinity ? { affinity: spec.affinity } : {}),
    ...(spec.topologySpreadConstraints ? { topologySpreadConstraints: spec.topologySpreadConstraints } : {}),
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
  options: ApplyOptions,
): Pick<ApplyResult, 'action' | 'changes'> {
  if (info.kind === 'Pod') return { action: applyPod(ctx, kube, applied, options.dryRun) };
  if (info.kind === 'Node')
    throw new KubeApiError(`nodes are registered by their kubelet; cannot apply node ${String(metaOf(applied).name)}`);
  const key = objectKey(info, String(metaOf(applied).namespace ?? ''), String(metaOf(applied).name));
  const existing = kube.objects[key];
  if (!existing) {
    if (options.dryRun) return { action: 'created' };
    kube.objects[key] = {
      seq: ctx.nextSeq(),
      applied,
      obj: { ...structuredClone(applied), metadata: { ...metaOf(applied), ...serverMetadata(ctx) } },
      managed: { [options.fieldManager]: { operation: 'Apply', time: ctx.iso(), paths: appliedPaths(applied) } },
    };
    if (info.kind === 'CustomResourceDefinition') registerCrd(kube, applied);
    ctx.dirty.add(kube.clusterId);
    return { action: 'created' };
  }
  const outcome = serverSideApply(existing, applied, options.fieldManager, ctx.iso());
  const action = outcome.changes.length ? 'configured' : 'unchanged';
  if (options.dryRun) return action === 'configured' ? { action, changes: outcome.changes } : { action };
  // Ownership moves even when no value changes (a field another manager had taken back with the same value).
  existing.managed = outcome.managed;
  existing.applied = applied;
  if (action === 'unchanged') return { action };
  const old = metaOf(existing.obj);
  const specChanged = outcome.changes.some((c) => !c.path.startsWith('metadata.'));
  existing.obj = {
    ...outcome.obj,
    metadata: { ...metaOf(outcome.obj), generation: Number(old.generation ?? 1) + (specChanged ? 1 : 0) },
  };
  if (info.kind === 'CustomResourceDefinition') registerCrd(kube, applied);
  ctx.dirty.add(kube.clusterId);
  return { action, changes: outcome.changes };
}

export interface ApplyOptions {
  readonly fieldManager: string;
  readonly dryRun: boolean;
}

export function applyObjects(
  ctx: SimContext,
  kube: KubeState,
  objects: readonly KubeObject[],
  options: ApplyOptions,
): ApplyResult[] {
  const { dryRun } = options;
  const batchNamespaces = new Set<string>();
  return objects.map((object, index) => {
    validate(object, index);
    const info = kindForObject(kube, object.apiVersion, object.kind);
    const applied = normalise(info, object);
    const invalid =
      info.group === 'karpenter.sh' && info.kind === 'NodePool' ? invalidNodePoolLimits(applied) : undefined;
    if (invalid) throw new KubeApiError(invalid);
    const namespace = metaOf(applied).namespace as string | undefined;
    if (namespace && !kube.objects[`/Namespace//${namespace}`] && !(dryRun && batchNamespaces.has(namespace))) {
      throw new KubeApiError(
        `namespaces "${namespace}" not found (applying ${object.kind} ${namespace}/${object.metadata.name})`,
      );
    }
    if (info.kind === 'Namespace') batchNamespaces.add(object.metadata.name);
    const { action, changes } = applyOne(ctx, kube, info, applied, options);
    return {
      ref: {
        apiVersion: object.apiVersion,
        kind: object.kind,
        ...(namespace ? { namespace } : {}),
        name: object.metadata.name,
      },
      action,
      ...(changes ? { changes } : {}),
    };
  });
}
