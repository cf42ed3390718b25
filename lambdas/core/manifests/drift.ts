import type { FieldChange, KubeObject, ObjectRef } from '../../ports/kube-cluster';
import { leafValues } from './field-paths';
import { inventoryKey, objectRef } from './inventory';

/**
 * Manifest drift: live objects that differ from what this system applied, in the fields it applies. Found in two
 * steps so a fleet of quiet clusters costs little: a cheap look (one LIST per kind, each rendered object's fields
 * compared with the live object's, no per-object call) picks candidates, and a server-side apply dry run of only those
 * (our field manager, force) confirms them and names the fields, with the manager that changed each one (managedFields).
 */

export interface DriftedObject {
  readonly ref: ObjectRef;
  readonly fields: readonly FieldChange[];
}

/** Identity fields never compared (the namespace of a namespaced object may be defaulted). */
const IDENTITY = new Set(['apiVersion', 'kind', 'metadata.name', 'metadata.namespace']);

/** Does the live object lack, or hold another value in, any field the rendered object sets? (the cheap look) */
export function looksDrifted(rendered: KubeObject, live: KubeObject | undefined): boolean {
  if (!live) return true;
  const have = leafValues(live);
  for (const [path, value] of leafValues(rendered)) if (!IDENTITY.has(path) && have.get(path) !== value) return true;
  return false;
}

/** kind/namespace/name of a live or rendered object (a rendered namespaced one without a namespace is in `default`). */
export function liveKey(object: KubeObject, namespaced: boolean): string {
  const ref = objectRef(object);
  const namespace = namespaced ? (ref.namespace ?? 'default') : undefined;
  return inventoryKey({ kind: ref.kind, name: ref.name, ...(namespace ? { namespace } : {}) });
}

/** `Deployment default/web: spec.replicas (by kubectl-edit), …` for messages, problems and events. */
export function describeDrift(objects: readonly DriftedObject[], shown = 5): string {
  const one = ({ ref, fields }: DriftedObject): string =>
    `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}: ${fields
      .slice(0, 5)
      .map((f) => (f.manager ? `${f.path} (by ${f.manager})` : f.path))
      .join(', ')}${fields.length > 5 ? ', …' : ''}`;
  const more = objects.length > shown ? `; and ${objects.length - shown} more object(s)` : '';
  return `${objects.slice(0, shown).map(one).join('; ')}${more}`;
}

/**
 * Staggering: a cluster's drift check is due in a scheduled pass when its own moment (a fixed offset within every
 * `intervalMs`, from a hash of its id) fell since the previous pass (`periodMs` ago). With a 10-minute dispatch
 * period and a 1-hour interval each pass checks about a sixth of the fleet, spread evenly, every cluster once an hour.
 */
export function driftCheckDue(clusterId: string, now: number, intervalMs: number, periodMs: number): boolean {
  if (periodMs >= intervalMs) return true;
  const offset = fnv1a(clusterId) % intervalMs;
  const slot = (t: number): number => Math.floor((t - offset) / intervalMs);
  return slot(now) !== slot(now - periodMs);
}

/** 32-bit FNV-1a: a stable spread of cluster ids (no crypto needed, and core stays free of node:crypto). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
