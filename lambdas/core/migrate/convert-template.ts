/**
 * One Go text/template (a CLM config file) → our handlebars dialect, all or nothing: either the whole file
 * converts, or the result says the first line that cannot and why (never a half-converted file).
 */
import { ClmError } from '../../shared/errors';
import { parseGoTemplate } from './go-parser';
import { emitHandlebars } from './hbs-emitter';

export type Conversion =
  | { readonly ok: true; readonly output: string }
  | { readonly ok: false; readonly line?: number; readonly reason: string };

export function convertGoTemplate(source: string, file: string): Conversion {
  try {
    return { ok: true, output: emitHandlebars(parseGoTemplate(source, file), file) };
  } catch (error) {
    if (!(error instanceof ClmError)) throw error;
    const line = error.location?.line;
    const prefix = `${file}${line ? `:${line}` : ''}: `;
    const reason = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return { ok: false, ...(line ? { line } : {}), reason };
  }
}
