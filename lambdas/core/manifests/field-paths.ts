/**
 * Field paths of Kubernetes objects, in one notation for what server-side apply tracks per field manager
 * (`metadata.managedFields[].fieldsV1`) and for what differs between two versions of an object:
 * `spec.replicas`, `metadata.labels.app`, `spec.template.spec.containers[name=web].image`. A list whose items all
 * carry a `name` is keyed by it (containers, env, volumes: structured-merge-diff's map lists); any other list is one
 * value. fieldsV1 keys read as: `f:x` a field, `k:{"name":"web"}` a keyed item, `v:…` a set value, `i:N` an index.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Fields the API server owns, never compared: status, resourceVersion, generation, uid, timestamps, managedFields. */
const SERVER_METADATA = new Set([
  'resourceVersion',
  'generation',
  'uid',
  'creationTimestamp',
  'managedFields',
  'selfLink',
]);

const keyedByName = (list: readonly unknown[]): boolean =>
  list.length > 0 && list.every((item) => isObject(item) && typeof item.name === 'string');

/** Every leaf of `object` by path (server-set metadata and status left out), its value as canonical JSON. */
export function leafValues(object: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (value: unknown, path: string): void => {
    if (isObject(value)) {
      const keys = Object.keys(value);
      if (!keys.length && path) out.set(path, '{}');
      for (const key of keys) {
        if (path === '' && key === 'status') continue;
        if (path === 'metadata' && SERVER_METADATA.has(key)) continue;
        walk(value[key], path ? `${path}.${key}` : key);
      }
      return;
    }
    if (Array.isArray(value) && keyedByName(value)) {
      for (const item of value as Json[]) walk(item, `${path}[name=${String(item.name)}]`);
      return;
    }
    out.set(path, canonical(value));
  };
  walk(object, '');
  return out;
}

/** The paths whose values differ between `before` and `after` (present in one only, or changed), sorted. */
export function changedPaths(before: unknown, after: unknown): string[] {
  const a = leafValues(before);
  const b = leafValues(after);
  const paths = new Set<string>();
  for (const [path, value] of a) if (b.get(path) !== value) paths.add(path);
  for (const path of b.keys()) if (!a.has(path)) paths.add(path);
  return [...paths].sort();
}

/** The paths a fieldsV1 set names (its leaves: a field with no sub-fields, or a `.` marker is not a leaf). */
export function fieldsV1Paths(fields: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown, path: string): void => {
    const entries = isObject(node) ? Object.entries(node).filter(([key]) => key !== '.') : [];
    if (!entries.length) {
      if (path) out.push(path);
      return;
    }
    for (const [key, child] of entries) walk(child, join(path, key));
  };
  walk(fields, '');
  return out;
}

function join(path: string, key: string): string {
  if (key.startsWith('f:')) return path ? `${path}.${key.slice(2)}` : key.slice(2);
  if (key.startsWith('k:')) {
    const parsed = JSON.parse(key.slice(2)) as Json;
    return `${path}[${Object.entries(parsed)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(',')}]`;
  }
  if (key.startsWith('v:')) return `${path}[=${String(JSON.parse(key.slice(2)))}]`;
  if (key.startsWith('i:')) return `${path}[${key.slice(2)}]`;
  return path ? `${path}.${key}` : key;
}

/** A fieldsV1 set of `paths` (the notation above back to `f:`/`k:` keys), as the API server writes it. */
export function toFieldsV1(paths: Iterable<string>): Json {
  const root: Json = {};
  for (const path of paths) {
    let node = root;
    for (const segment of segments(path)) {
      const next = (node[segment] ?? {}) as Json;
      node[segment] = next;
      node = next;
    }
  }
  return root;
}

function segments(path: string): string[] {
  const out: string[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[name=([^\]]*)\]/g)) {
    if (match[2] !== undefined) out.push(`k:${JSON.stringify({ name: match[2] })}`);
    else out.push(`f:${match[1]}`);
  }
  return out;
}

/** Is `path` one of `owned`, inside one, or does it contain one (a list or map owned as a whole, or in part)? */
export function covers(owned: readonly string[], path: string): boolean {
  return owned.some(
    (p) =>
      p === path ||
      path.startsWith(`${p}.`) ||
      path.startsWith(`${p}[`) ||
      p.startsWith(`${path}.`) ||
      p.startsWith(`${path}[`),
  );
}

export interface ManagedFieldsEntry {
  readonly manager?: string;
  readonly operation?: string;
  readonly fieldsV1?: unknown;
}

/** Who owns `path` in `metadata.managedFields` (the first manager whose set covers it), if anyone. */
export function ownerOf(managedFields: readonly ManagedFieldsEntry[], path: string): string | undefined {
  return managedFields.find((entry) => covers(fieldsV1Paths(entry.fieldsV1), path))?.manager;
}

/** JSON with sorted keys, so key order never counts as a difference. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
