/**
 * String helpers with CLM's names and meanings (reference/clm-behaviour.md §4.4): `split`, `join`, `indent`
 * (the last two as in Sprig), `hasPrefix`, `hasSuffix`, `awsValidID`, `indexedList`, `mountUnitName`,
 * `accountID`, `getAWSAccountID`, `azID`, `parseInt64`.
 */
import { describe, expectInteger, expectString, helperError } from './args';
import { goString } from './format';

/** strings.Split, except that an empty string gives an empty list (CLM's `split`). */
export function split(value: unknown, separator: unknown): string[] {
  const s = expectString(value, 'split input');
  const sep = expectString(separator, 'split separator');
  if (s === '') return [];
  // Go splits an empty separator into UTF-8 characters; JS's split('') into UTF-16 units, so spread instead.
  return sep === '' ? [...s] : s.split(sep);
}

/** Sprig `join sep list`: a list's items (nil items dropped) or a single value, printed and joined. */
export function join(separator: unknown, value: unknown): string {
  const sep = expectString(separator, 'join separator');
  if (value === null || value === undefined) return '';
  const items = Array.isArray(value) ? value.filter((item) => item !== null && item !== undefined) : [value];
  return items.map(goString).join(sep);
}

/** Sprig `indent n s`: n spaces before every line, the first one included. */
export function indent(spaces: unknown, value: unknown): string {
  const n = expectInteger(spaces, 'indent width');
  if (n < 0) throw helperError(`indent width must not be negative, got ${n}`);
  const pad = ' '.repeat(n);
  return pad + expectString(value, 'indent input').replaceAll('\n', `\n${pad}`);
}

export function hasPrefix(value: unknown, prefix: unknown): boolean {
  return expectString(value, 'hasPrefix input').startsWith(expectString(prefix, 'hasPrefix prefix'));
}

export function hasSuffix(value: unknown, suffix: unknown): boolean {
  return expectString(value, 'hasSuffix input').endsWith(expectString(suffix, 'hasSuffix suffix'));
}

/** `aws:123:eu-central-1:kube-1` → `aws__123__eu-central-1__kube-1`. */
export function awsValidID(value: unknown): string {
  return expectString(value, 'awsValidID input').replaceAll(':', '__');
}

/** Comma-joined copies of `template` with every `$` replaced by 0..n−1. */
export function indexedList(template: unknown, length: unknown): string {
  const item = expectString(template, 'indexedList template');
  const n = expectInteger(length, 'indexedList length');
  if (n < 0) throw helperError(`expecting non-negative integer, got: ${n}`);
  return Array.from({ length: n }, (_, i) => item.replaceAll('$', String(i))).join(',');
}

/** `/var/lib/docker` → `var-lib-docker` (the systemd mount unit name, without `.mount`). */
export function mountUnitName(path: unknown): string {
  const p = expectString(path, 'mountUnitName path');
  if (!p.startsWith('/')) throw helperError(`not an absolute path: ${p}`);
  return p.slice(1).replaceAll('/', '-');
}

/** The id part of `type:id`; anything else is an error. */
export function accountID(account: unknown): string {
  const a = expectString(account, 'accountID input');
  const parts = a.split(':');
  if (parts.length !== 2) throw helperError(`invalid account (expected type:id): ${a}`);
  return parts[1];
}

/** The second `:`-separated part of an infrastructure account, without further validation. */
export function getAWSAccountID(account: unknown): string {
  const parts = expectString(account, 'getAWSAccountID input').split(':');
  if (parts.length < 2) throw helperError(`infrastructure account has no ":": ${describe(account)}`);
  return parts[1];
}

/** The last dash-separated segment of an availability zone: `eu-central-1a` → `1a`. */
export function azID(zone: unknown): string {
  const parts = expectString(zone, 'azID input').split('-');
  return parts[parts.length - 1];
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** strconv.ParseInt(s, 10, 64). Values beyond ±2^53 cannot be represented exactly here and are an error. */
export function parseInt64(value: unknown): number {
  const s = expectString(value, 'parseInt64 input');
  if (!/^[-+]?\d+$/.test(s)) throw helperError(`parseInt64: parsing ${JSON.stringify(s)}: invalid syntax`);
  const big = BigInt(s);
  if (big > INT64_MAX || big < INT64_MIN)
    throw helperError(`parseInt64: parsing ${JSON.stringify(s)}: value out of range`);
  const n = Number(big);
  if (!Number.isSafeInteger(n))
    throw helperError(`parseInt64: ${s} is beyond ±2^53 and cannot be used exactly in templates`);
  return n;
}
