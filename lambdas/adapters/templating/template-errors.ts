/**
 * Turns a handlebars parse error (`Parse error on line 3: …`) or a block mismatch (`if doesn't match each - 5:2`)
 * into a TemplateRenderError naming the template path and the line.
 */
import { TemplateRenderError } from '../../shared/errors';

interface HandlebarsException extends Error {
  lineNumber?: number;
}

const LOCATION_SUFFIX = / - \d+:\d+$/;
const PARSE_LINE = /^(?:Parse|Lexical) error on line (\d+)/;

export function syntaxError(error: unknown, file: string): TemplateRenderError {
  const e = error as HandlebarsException;
  const message = String(e?.message ?? error);
  const parseLine = PARSE_LINE.exec(message);
  const line = parseLine ? Number(parseLine[1]) : e?.lineNumber;
  const detail = parseLine ? message.replace(PARSE_LINE, 'syntax error').trim() : message.replace(LOCATION_SUFFIX, '');
  return new TemplateRenderError(`template syntax error: ${detail}`, { location: { file, line }, cause: error });
}
