/**
 * Argument checks shared by the template helpers. Helpers are called from user templates, so every wrong
 * argument is a user error: it throws a TemplateRenderError that names what was expected and what came,
 * and the engine adds the template path, the line and the helper name.
 */
import { TemplateRenderError } from '../../shared/errors';

export function helperError(message: string, cause?: unknown): TemplateRenderError {
  return new TemplateRenderError(message, cause === undefined ? undefined : { cause });
}

/** A short, human description of a value's type for error messages: `string "abc"`, `number 3`, `list`, `null`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `list of ${value.length}`;
  if (typeof value === 'string')
    return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return `${typeof value} ${String(value)}`;
  if (typeof value === 'object') return 'map';
  return typeof value;
}

export function expectString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw helperError(`${what} must be a string, got ${describe(value)}`);
  return value;
}

/** An integer: a JS number without fraction (Go templates pass int constants and int64 fields). */
export function expectInteger(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    const hint = typeof value === 'string' ? ' (convert strings with parseInt64)' : '';
    throw helperError(`${what} must be an integer, got ${describe(value)}${hint}`);
  }
  return value;
}

/** A finite number; numeric strings are accepted too, since handlebars has no float conversion helper. */
export function expectNumber(value: unknown, what: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value)) return Number(value);
  throw helperError(`${what} must be a number, got ${describe(value)}`);
}

export function expectStringList(value: unknown, what: string): string[] {
  if (!Array.isArray(value)) throw helperError(`${what} must be a list of strings, got ${describe(value)}`);
  value.forEach((item, i) => expectString(item, `${what}[${i}]`));
  return value as string[];
}

export function isPlainMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function expectMap(value: unknown, what: string): Record<string, unknown> {
  if (!isPlainMap(value)) throw helperError(`${what} must be a map, got ${describe(value)}`);
  return value;
}
