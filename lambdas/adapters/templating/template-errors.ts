/**
 * Turns what handlebars throws (parse errors, strict-mode lookups, runtime type errors) into a
 * TemplateRenderError that names the template path, the line and, for a missing key, the whole key path:
 * `main/cluster/manifests/coredns/deployment.yaml:12: "Cluster.ConfigItems.coredns_replicas" is not defined`.
 */
import { TemplateRenderError } from '../../shared/errors';
import { pathAt, pathsEndingWith } from './template-ast';
import type { Program } from './template-ast';

interface HandlebarsException extends Error {
  lineNumber?: number;
  column?: number;
}

const STRICT_LOOKUP = /^"(.*)" not defined in [\s\S]*? - \d+:\d+$/;
const LOCATION_SUFFIX = / - \d+:\d+$/;
const LOOKUP_ON_PRIMITIVE = /^Cannot use 'in' operator to search for '(.*)' in ([\s\S]*)$/;
const PARSE_LINE = /^(?:Parse|Lexical) error on line (\d+)/;

/** A parse error (`Parse error on line 3: …`) or a block mismatch (`if doesn't match each - 5:2`). */
export function syntaxError(error: unknown, file: string): TemplateRenderError {
  const e = error as HandlebarsException;
  const message = String(e?.message ?? error);
  const parseLine = PARSE_LINE.exec(message);
  const line = parseLine ? Number(parseLine[1]) : e?.lineNumber;
  const detail = parseLine ? message.replace(PARSE_LINE, 'syntax error').trim() : message.replace(LOCATION_SUFFIX, '');
  return new TemplateRenderError(`template syntax error: ${detail}`, { location: { file, line }, cause: error });
}

/** An error thrown while a template ran. Errors that already carry a location (from helpers) pass unchanged. */
export function runtimeError(error: unknown, file: string, program: Program): TemplateRenderError {
  if (error instanceof TemplateRenderError) {
    return error.location ? error : new TemplateRenderError(error.message, { location: { file }, cause: error });
  }
  const e = error as HandlebarsException;
  const message = String(e?.message ?? error);
  const line = typeof e?.lineNumber === 'number' ? e.lineNumber : undefined;
  const strict = STRICT_LOOKUP.exec(message);
  if (strict && line !== undefined && typeof e.column === 'number') {
    const name = strict[1] ?? '';
    const path = pathAt(program, line, e.column, name);
    const what = path?.original ?? name;
    const text = path?.isHelperName ? `"${what}" is neither a helper nor defined` : `"${what}" is not defined`;
    return new TemplateRenderError(text, { location: { file, line }, cause: error });
  }
  const primitive = LOOKUP_ON_PRIMITIVE.exec(message);
  if (primitive && line === undefined) {
    // Strict mode looked a key up on a string or number (`{{Cluster.ID.length}}`); the error carries no location.
    const name = primitive[1] ?? '';
    const candidates = pathsEndingWith(program, name);
    const only = candidates.length === 1 ? candidates[0] : undefined;
    const what = only ? only.original : name;
    return new TemplateRenderError(`"${what}" is not defined: "${name}" looked up on a value that is not a map`, {
      location: { file, line: only?.line },
      cause: error,
    });
  }
  return new TemplateRenderError(message.replace(LOCATION_SUFFIX, ''), { location: { file, line }, cause: error });
}
