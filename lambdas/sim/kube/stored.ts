import type { SimContext } from '../sim-context';
import type { KubeState, StoredObject } from '../world-state';

/** Small accessors for stored objects (plain JSON), shared by the object store and the controllers. */

export type Json = Record<string, unknown>;

export const metaOf = (obj: Json): Json => (obj.metadata ?? {}) as Json;
export const specOf = (obj: Json): Json => (obj.spec ?? {}) as Json;
export const uidOf = (obj: Json): string => String(metaOf(obj).uid ?? '');
export const nameOf = (obj: Json): string => String(metaOf(obj).name ?? '');
export const namespaceOf = (obj: Json): string => String(metaOf(obj).namespace ?? 'default');
export const labelsOf = (obj: Json): Record<string, string> => (metaOf(obj).labels ?? {}) as Record<string, string>;

export interface OwnerRef {
  readonly apiVersion?: string;
  readonly kind: string;
  readonly name: string;
  readonly uid?: string;
  readonly controller?: boolean;
}

export const ownersOf = (obj: Json): OwnerRef[] =>
  Array.isArray(metaOf(obj).ownerReferences) ? (metaOf(obj).ownerReferences as OwnerRef[]) : [];

/** Stored objects of one kind (by key prefix `<group>/<Kind>/`), in key order. */
export function storedOfKind(kube: KubeState, group: string, kind: string): [string, StoredObject][] {
  const prefix = `${group}/${kind}/`;
  return Object.entries(kube.objects)
    .filter(([key]) => key.startsWith(prefix))
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

/** Server-set metadata for a new object. */
export function serverMetadata(ctx: SimContext): Json {
  return { uid: ctx.rng.uuid(), creationTimestamp: ctx.iso(), generation: 1 };
}

export function replicasOf(obj: Json): number {
  const value = specOf(obj).replicas;
  return typeof value === 'number' ? value : 1;
}
