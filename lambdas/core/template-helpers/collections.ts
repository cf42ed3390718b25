/** Collection helpers: `dict`, `list`, `append` (CLM), and Go's built-ins `index` and `len`. */
import { describe, expectString, expectStringList, helperError, isPlainMap } from './args';

/** A map from `key value` pairs: string keys, an even and non-zero argument count, no duplicates. */
export function dict(...args: unknown[]): Record<string, unknown> {
  if (args.length === 0 || args.length % 2 !== 0)
    throw helperError(`dict: invalid number of arguments: ${args.length}`);
  const result: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i += 2) {
    const key = args[i];
    if (typeof key !== 'string') throw helperError(`dict: key argument ${i} must be string, got ${describe(key)}`);
    if (Object.prototype.hasOwnProperty.call(result, key)) throw helperError(`dict: duplicate key ${key}`);
    result[key] = args[i + 1];
  }
  return result;
}

export function list(...args: unknown[]): unknown[] {
  return args;
}

/** A new list of strings: `list` then `item` then `more…` (the input list is not modified). */
export function append(items: unknown, item: unknown, ...more: unknown[]): string[] {
  const base = items === null || items === undefined ? [] : expectStringList(items, 'append list');
  return [...base, expectString(item, 'append item'), ...more.map((m, i) => expectString(m, `append item ${i + 2}`))];
}

/**
 * Go's `index x k1 k2…`. A missing map key gives "" (how KoA probes optional config items), a nil map too;
 * a list takes an integer index and out of range is an error; a string gives the byte at that index.
 */
export function index(value: unknown, ...keys: unknown[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || current === undefined) return '';
    if (Array.isArray(current) || typeof current === 'string') {
      if (typeof key !== 'number' || !Number.isInteger(key))
        throw helperError(`cannot index a list with ${describe(key)}; use an integer`);
      const bytes = typeof current === 'string' ? Buffer.from(current, 'utf8') : undefined;
      const length = bytes ? bytes.length : (current as unknown[]).length;
      if (key < 0 || key >= length) throw helperError(`index out of range: ${key} (length ${length})`);
      current = bytes ? bytes[key] : (current as unknown[])[key];
    } else if (isPlainMap(current)) {
      if (typeof key !== 'string') throw helperError(`cannot index a map with ${describe(key)}; keys are strings`);
      current = Object.prototype.hasOwnProperty.call(current, key) ? current[key] : '';
    } else {
      throw helperError(`cannot index ${describe(current)}`);
    }
  }
  return current;
}

/** Go's `len`: bytes of a string, items of a list, keys of a map. */
export function len(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (Array.isArray(value)) return value.length;
  if (isPlainMap(value)) return Object.keys(value).length;
  throw helperError(`len of ${describe(value)}`);
}
