import { createHash } from 'node:crypto';
import { stableStringify } from '../shared/stable-json';

export { stableStringify };

/** Hex SHA-256 of the parts joined by NUL, cut to `length`: stable ids that do not depend on call order. */
export function hashOf(parts: readonly string[], length = 64): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, length);
}

export function hashValue(value: unknown, length = 16): string {
  return hashOf([stableStringify(value)], length);
}

/** Deep equality of JSON data. */
export function sameData(a: unknown, b: unknown): boolean {
  return stableStringify(a) === stableStringify(b);
}
