/**
 * Go template comparisons and logic: `eq ne lt le gt ge and or not`, with Go's meanings: `eq a b c` is
 * a == b || a == c; comparing a string with a number is an error, not false; `and`/`or` return one of their
 * arguments (the first falsy / first truthy, else the last), and truth is Go's (false, 0, "", nil, empty
 * list or map are false).
 */
import { describe, helperError, isPlainMap } from './args';

export function truth(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (typeof value === 'number' && Number.isNaN(value)) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainMap(value)) return Object.keys(value).length > 0;
  return true;
}

type Basic = string | number | boolean | bigint;

function basicKind(value: unknown): 'string' | 'number' | 'boolean' | 'nil' | undefined {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return undefined;
}

function equal(a: unknown, b: unknown): boolean {
  const ka = basicKind(a);
  const kb = basicKind(b);
  if (ka === undefined || kb === undefined)
    throw helperError(
      `cannot compare ${describe(a)} with ${describe(b)}: only strings, numbers, booleans and nil compare`,
    );
  if (ka === 'nil' || kb === 'nil') return ka === kb;
  if (ka !== kb) throw helperError(`incompatible types for comparison: ${describe(a)} and ${describe(b)}`);
  // == so that a number and a bigint compare by value
  return (a as Basic) == (b as Basic);
}

export function eq(first: unknown, ...others: unknown[]): boolean {
  if (others.length === 0) throw helperError('eq needs at least two arguments');
  return others.some((other) => equal(first, other));
}

export function ne(a: unknown, b: unknown): boolean {
  return !equal(a, b);
}

function order(a: unknown, b: unknown): number {
  const ka = basicKind(a);
  const kb = basicKind(b);
  if (ka !== kb || (ka !== 'string' && ka !== 'number')) {
    throw helperError(`cannot order ${describe(a)} and ${describe(b)}: both must be numbers or both strings`);
  }
  const x = a as string | number | bigint;
  const y = b as string | number | bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}

export const lt = (a: unknown, b: unknown): boolean => order(a, b) < 0;
export const le = (a: unknown, b: unknown): boolean => order(a, b) <= 0;
export const gt = (a: unknown, b: unknown): boolean => order(a, b) > 0;
export const ge = (a: unknown, b: unknown): boolean => order(a, b) >= 0;

export function and(...args: unknown[]): unknown {
  if (args.length === 0) throw helperError('and needs at least one argument');
  for (const arg of args) if (!truth(arg)) return arg;
  return args[args.length - 1];
}

export function or(...args: unknown[]): unknown {
  if (args.length === 0) throw helperError('or needs at least one argument');
  for (const arg of args) if (truth(arg)) return arg;
  return args[args.length - 1];
}

export function not(value: unknown): boolean {
  return !truth(value);
}
