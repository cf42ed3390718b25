import { createHash } from 'node:crypto';

/** Hex SHA-256 of the parts joined by NUL, cut to `length`: stable ids that do not depend on call order. */
export function hashOf(parts: readonly string[], length = 64): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, length);
}

/** JSON with object keys sorted, so equal data always hashes equally. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

export function hashValue(value: unknown, length = 16): string {
  return hashOf([stableStringify(value)], length);
}

/** Deep equality of JSON data. */
export function sameData(a: unknown, b: unknown): boolean {
  return stableStringify(a) === stableStringify(b);
}
