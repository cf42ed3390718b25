import { changedPaths, covers, leafValues, toFieldsV1 } from '../../core/manifests/field-paths';
import type { FieldChange } from '../../ports/kube-cluster';
import type { StoredObject } from '../world-state';
import type { Json } from './stored';

/**
 * Field ownership as the API server keeps it (`metadata.managedFields`, one entry per manager and operation):
 * server-side apply by a manager owns exactly the fields of its applied configuration (force: taken from whoever held
 * them), drops the fields it owned before and no longer applies (unless another manager owns them too), and merges
 * the rest — other managers' fields survive. An update (PUT/PATCH, e.g. `kubectl edit`) gives its manager the fields it
 * changed, taken from everyone else. Paths in core/manifests/field-paths.ts notation.
 */

export interface ManagedEntry {
  readonly operation: 'Apply' | 'Update';
  readonly time: string;
  readonly paths: readonly string[];
}

/** Identity fields no manager owns. */
const IDENTITY = new Set(['apiVersion', 'kind', 'metadata.name', 'metadata.namespace']);

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const keyedByName = (list: readonly unknown[]): boolean =>
  list.every((item) => isObject(item) && typeof item.name === 'string');

/** The fields an applied configuration sets (its leaves, identity fields left out). */
export function appliedPaths(applied: Json): string[] {
  return [...leafValues(applied).keys()].filter((path) => !IDENTITY.has(path));
}

/** Merge `source` into `target` (in place): maps by key, lists keyed by name by item, other lists replaced. */
function merge(target: Json, source: Json): void {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (isObject(value) && isObject(current)) merge(current, value);
    else if (
      Array.isArray(value) &&
      Array.isArray(current) &&
      value.length &&
      keyedByName(value) &&
      keyedByName(current)
    ) {
      const items = current as Json[];
      for (const item of value as Json[]) {
        const match = items.find((i) => i.name === item.name);
        if (match) merge(match, item);
        else items.push(structuredClone(item));
      }
    } else target[key] = structuredClone(value);
  }
}

/** Remove one path; a map, keyed item (only its name left) or list it leaves empty goes too. */
function removePath(object: Json, path: string): void {
  const parts = [...path.matchAll(/([^.[\]]+)|\[name=([^\]]*)\]/g)].map((m) => m[2] ?? m[1]!);
  const keyed = [...path.matchAll(/([^.[\]]+)|\[name=([^\]]*)\]/g)].map((m) => m[2] !== undefined);
  const trail: { parent: Json | Json[]; at: string | number }[] = [];
  let node: unknown = object;
  for (const [i, part] of parts.entries()) {
    if (!keyed[i] && isObject(node) && part in node) {
      trail.push({ parent: node, at: part });
      node = node[part];
    } else if (keyed[i] && Array.isArray(node)) {
      const index = (node as Json[]).findIndex((item) => isObject(item) && item.name === part);
      if (index < 0) return;
      trail.push({ parent: node as Json[], at: index });
      node = node[index];
    } else return;
  }
  for (let i = trail.length - 1; i >= 0; i -= 1) {
    const { parent, at } = trail[i]!;
    if (i < trail.length - 1) {
      const value: unknown = Array.isArray(parent) ? parent[at as number] : parent[at as string];
      const left = isObject(value) ? Object.keys(value).filter((k) => !(Array.isArray(parent) && k === 'name')) : [];
      const empty = Array.isArray(value) ? value.length === 0 : isObject(value) && left.length === 0;
      if (!empty) return;
    }
    if (Array.isArray(parent)) parent.splice(at as number, 1);
    else delete parent[at as string];
  }
}

export interface ApplyOutcome {
  readonly obj: Json;
  readonly managed: Record<string, ManagedEntry>;
  readonly changes: FieldChange[];
}

/** Server-side apply of `applied` by `manager` (force) onto the stored object; nothing is written here. */
export function serverSideApply(stored: StoredObject, applied: Json, manager: string, time: string): ApplyOutcome {
  const managed = stored.managed ?? {};
  const owned = appliedPaths(applied);
  const others = Object.entries(managed).filter(([name]) => name !== manager);
  const before = managed[manager]?.paths ?? [];
  const obj = structuredClone(stored.obj);
  // A field stays while another manager owns it or something inside it (owning a parent map alone does not keep it).
  const kept = (path: string): boolean =>
    others.some(([, entry]) =>
      entry.paths.some((p) => p === path || p.startsWith(`${path}.`) || p.startsWith(`${path}[`)),
    );
  for (const path of before) if (!owned.includes(path) && !kept(path)) removePath(obj, path);
  merge(obj, applied);
  // Force takes what the configuration sets: the same fields, and whatever lies under a value that replaces a subtree
  // (an empty map `{}` sets the map, not its members).
  const values = leafValues(applied);
  const takes = (path: string): boolean =>
    owned.some((o) => o === path || (values.get(o) !== '{}' && (path.startsWith(`${o}.`) || path.startsWith(`${o}[`))));
  const next: Record<string, ManagedEntry> = {};
  for (const [name, entry] of others) {
    const left = entry.paths.filter((path) => !takes(path));
    if (left.length) next[name] = { ...entry, paths: left };
  }
  next[manager] = { operation: 'Apply', time, paths: owned };
  return { obj, managed: next, changes: changesWithOwners(stored.obj, obj, managed, manager) };
}

/** An update (JSON merge patch) by `manager`: it owns what it changed, nobody else does. */
export function updateFields(stored: StoredObject, patch: Json, manager: string, time: string): ApplyOutcome {
  const obj = structuredClone(stored.obj);
  mergePatch(obj, patch);
  const changed = changedPaths(stored.obj, obj);
  const next: Record<string, ManagedEntry> = {};
  for (const [name, entry] of Object.entries(stored.managed ?? {})) {
    if (name === manager) continue;
    const kept = entry.paths.filter((path) => !changed.some((c) => covers([c], path)));
    if (kept.length) next[name] = { ...entry, paths: kept };
  }
  const mine = stored.managed?.[manager]?.paths ?? [];
  next[manager] = { operation: 'Update', time, paths: [...new Set([...mine, ...changed])].sort() };
  return { obj, managed: next, changes: changed.map((path) => ({ path })) };
}

/** RFC 7386: objects merge, null removes, anything else replaces. */
function mergePatch(target: Json, patch: Json): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete target[key];
    else if (isObject(value) && isObject(target[key])) mergePatch(target[key] as Json, value);
    else target[key] = structuredClone(value);
  }
}

function changesWithOwners(
  before: Json,
  after: Json,
  managed: Readonly<Record<string, ManagedEntry>>,
  manager: string,
): FieldChange[] {
  const others = Object.entries(managed).filter(([name]) => name !== manager);
  return changedPaths(before, after).map((path) => {
    const owner = others.find(([, entry]) => covers(entry.paths, path))?.[0];
    return owner ? { path, manager: owner } : { path };
  });
}

/** `metadata.managedFields` as the API server shows it. */
export function managedFieldsOf(stored: StoredObject, apiVersion: string): Json[] {
  return Object.entries(stored.managed ?? {}).map(([manager, entry]) => ({
    manager,
    operation: entry.operation,
    apiVersion,
    time: entry.time,
    fieldsType: 'FieldsV1',
    fieldsV1: toFieldsV1(entry.paths),
  }));
}
