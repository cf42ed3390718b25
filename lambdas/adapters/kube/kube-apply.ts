/**
 * Server-side apply of one object: GET (to know whether it exists and what it looked like), then
 * PATCH `application/apply-patch+yaml` with `fieldManager` and `force=true` (and `dryRun=All` when asked).
 *
 * created / configured / unchanged: "created" when the GET said 404; otherwise the object before and the object the
 * PATCH returned are compared without `status`, `metadata.resourceVersion`, `metadata.generation` and
 * `metadata.managedFields`. Comparing resourceVersions alone would call an object "configured" whenever a controller
 * updated its status between the two calls, and a dry run never changes the resourceVersion at all. Cost: two requests
 * per object.
 */
import { changedPaths, ownerOf, type ManagedFieldsEntry } from '../../core/manifests/field-paths';
import type { FieldChange, KubeObject } from '../../ports/kube-cluster';
import { resourcePath } from './kube-discovery';
import type { ResolvedResource } from './kube-discovery';
import { ensureOk } from './kube-rest';
import type { KubeRest } from './kube-rest';

export type ApplyAction = 'created' | 'configured' | 'unchanged';

export const APPLY_PATCH_CONTENT_TYPE = 'application/apply-patch+yaml';

export async function applyObject(
  rest: KubeRest,
  resource: ResolvedResource,
  object: KubeObject,
  options: { readonly fieldManager: string; readonly dryRun?: boolean },
): Promise<{ readonly namespace?: string; readonly action: ApplyAction; readonly changes?: FieldChange[] }> {
  const namespace = resource.namespaced ? (object.metadata.namespace ?? 'default') : undefined;
  const body = withScope(object, namespace);
  const path = resourcePath(resource, namespace, object.metadata.name);
  const what = `apply ${object.kind} ${namespace ? `${namespace}/` : ''}${object.metadata.name}`;

  const before = await rest.send({ method: 'GET', path }, what);
  if (before.status !== 404) ensureOk(before, what);
  const after = await rest.ok(
    {
      method: 'PATCH',
      path,
      query: { fieldManager: options.fieldManager, force: true, ...(options.dryRun ? { dryRun: 'All' } : {}) },
      body,
      contentType: APPLY_PATCH_CONTENT_TYPE,
    },
    what,
  );
  const action: ApplyAction =
    before.status === 404 ? 'created' : sameContent(before.body, after.body) ? 'unchanged' : 'configured';
  const changes = action === 'configured' ? fieldChanges(before.body, after.body, options.fieldManager) : undefined;
  return { ...(namespace ? { namespace } : {}), action, ...(changes ? { changes } : {}) };
}

/**
 * The fields that differ between the live object and what the apply made of it, each with the manager (not ours)
 * that owned it in the live object's managedFields: a `kubectl edit` shows as `kubectl-edit`.
 */
export function fieldChanges(before: unknown, after: unknown, fieldManager: string): FieldChange[] {
  const managed = (
    (before as { metadata?: { managedFields?: ManagedFieldsEntry[] } }).metadata?.managedFields ?? []
  ).filter((entry) => entry.manager !== fieldManager);
  return changedPaths(before, after).map((path) => {
    const manager = ownerOf(managed, path);
    return manager ? { path, manager } : { path };
  });
}

/** Namespaced objects get their (defaulted) namespace; cluster-scoped ones lose a stray one, as kubectl does. */
function withScope(object: KubeObject, namespace: string | undefined): KubeObject {
  const { namespace: _ignored, ...metadata } = object.metadata;
  return { ...object, metadata: namespace ? { ...metadata, namespace } : metadata } as KubeObject;
}

function sameContent(before: unknown, after: unknown): boolean {
  return canonical(strip(before)) === canonical(strip(after));
}

function strip(object: unknown): unknown {
  if (typeof object !== 'object' || object === null) return object;
  const { status: _status, metadata, ...rest } = object as { status?: unknown; metadata?: Record<string, unknown> };
  if (!metadata) return rest;
  const { resourceVersion: _rv, generation: _gen, managedFields: _mf, ...kept } = metadata;
  return { ...rest, metadata: kept };
}

/** JSON with sorted keys, so key order never counts as a change. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const CRD_KIND = 'CustomResourceDefinition';

export function isCrd(object: KubeObject): boolean {
  return object.kind === CRD_KIND && object.apiVersion.startsWith('apiextensions.k8s.io/');
}

/** `group/version/Kind` for every version a CRD defines. */
export function crdKinds(object: KubeObject): string[] {
  const spec = (object.spec ?? {}) as { group?: string; names?: { kind?: string }; versions?: { name?: string }[] };
  if (!spec.group || !spec.names?.kind) return [];
  return (spec.versions ?? []).map((v) => `${spec.group}/${v.name}/${spec.names?.kind}`);
}
