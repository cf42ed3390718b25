/**
 * Joins the converter's output pieces (literal text and handlebars tags) so that handlebars' lexer reads the
 * text back exactly:
 * - text ending in `\` right before a tag would escape the tag (`\{{x}}` prints `{{x}}`): one more `\` is added,
 *   which handlebars consumes;
 * - text ending in `{` before a tag would open a triple-stash (`{{{`), and text starting with `}` after a tag
 *   would close one (`}}}`): those braces are written as string literals (`{{"{"}}`), which print as they are.
 */
import { ConfigError } from '../../shared/errors';

export type Piece = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'tag'; readonly text: string };

export const tag = (text: string): Piece => ({ kind: 'tag', text });
export const text = (value: string): Piece => ({ kind: 'text', text: value });

/** A handlebars string literal with this exact value, or undefined when handlebars cannot spell it. */
export function stringLiteral(value: string): string | undefined {
  // handlebars ends a literal at the first quote not preceded by a backslash, and drops the backslash of \"
  if (value.endsWith('\\')) return undefined;
  if (!value.includes('"')) return `"${value}"`;
  if (!value.includes("'")) return `'${value}'`;
  return `"${value.replaceAll('"', '\\"')}"`;
}

function braces(run: string): Piece {
  return tag(`{{${stringLiteral(run)}}}`);
}

/** Adjacent text pieces as one. */
function merged(pieces: readonly Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (piece.kind === 'text' && last?.kind === 'text') out[out.length - 1] = text(last.text + piece.text);
    else if (piece.kind === 'tag' || piece.text) out.push(piece);
  }
  return out;
}

export function joinPieces(input: readonly Piece[], file: string): string {
  const pieces = merged(input);
  let out = '';
  pieces.forEach((piece, i) => {
    if (piece.kind === 'tag') {
      out += piece.text;
      return;
    }
    if (piece.text.includes('\u0000'))
      throw new ConfigError('text with a NUL character cannot be converted', { location: { file } });
    let value = piece.text;
    const afterTag = pieces[i - 1]?.kind === 'tag';
    const beforeTag = pieces[i + 1]?.kind === 'tag';
    let prefix = '';
    let suffix = '';
    const opening = afterTag ? /^\}+/.exec(value)?.[0] : undefined;
    if (opening) {
      prefix = braces(opening).text;
      value = value.slice(opening.length);
    }
    const closing = beforeTag ? /\{+$/.exec(value)?.[0] : undefined;
    if (closing) {
      suffix = braces(closing).text;
      value = value.slice(0, -closing.length);
    }
    if (/\\$/.test(value) && (suffix || beforeTag)) value += '\\';
    out += prefix + value + suffix;
  });
  return out;
}
