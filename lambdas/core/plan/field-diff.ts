import { isRecord } from '../config/plain-data';

/** One field that a server-side dry-run apply would change on the live object. */
export interface FieldChange {
  /** Dotted path, list items by index: `spec.template.spec.containers[0].image`. */
  readonly path: string;
  readonly op: 'add' | 'change';
  readonly before?: unknown;
  readonly after?: unknown;
}

/** Fields the API server owns; they change on every write and say nothing about the change. */
const SERVER_FIELDS = new Set([
  'metadata.managedFields',
  'metadata.resourceVersion',
  'metadata.generation',
  'metadata.uid',
  'metadata.creationTimestamp',
  'status',
]);

/**
 * The fields a server-side apply of `desired` would set differently on the live object: only the fields
 * `desired` sets (fields others manage, and defaults the server filled in, are left alone by an apply).
 * No live object: every top-level field is an add.
 */
export function fieldDiff(live: unknown, desired: unknown, path = ''): FieldChange[] {
  if (SERVER_FIELDS.has(path) || desired === undefined) return [];
  if (isRecord(live) && isRecord(desired)) {
    return Object.keys(desired)
      .sort()
      .flatMap((key) => fieldDiff(live[key], desired[key], path ? `${path}.${key}` : key));
  }
  if (Array.isArray(live) && Array.isArray(desired) && live.length === desired.length) {
    return desired.flatMap((item, index) => fieldDiff(live[index], item, `${path}[${index}]`));
  }
  if (live === undefined) return [{ path, op: 'add', after: desired }];
  if (JSON.stringify(live) === JSON.stringify(desired)) return [];
  return [{ path, op: 'change', before: live, after: desired }];
}
