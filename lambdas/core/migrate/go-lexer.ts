/**
 * A lexer for Go's text/template syntax (the subset CLM configs can use: default `{{ }}` delimiters), written
 * from the language's documented rules:
 * - text runs up to the next `{{`; `{{- ` trims the white space (space, tab, CR, LF) before it and ` -}}` the
 *   white space after it. The trimming is applied here, to the text tokens, so the converter never has to
 *   express it (handlebars' own `~` trims a wider set of characters);
 * - `{{/* … *\/}}` is a comment (trim markers allowed outside it);
 * - inside an action: spaces, `:=`, `=`, `|`, `,`, `(`, `)`, strings (interpreted and raw), characters,
 *   numbers, `.Field`, `$var`, identifiers and keywords.
 * Errors are thrown as ConfigError with the line.
 */
import { ConfigError } from '../../shared/errors';

export type TokenKind =
  | 'text'
  | 'comment'
  | 'open'
  | 'close'
  | 'space'
  | 'declare'
  | 'assign'
  | 'pipe'
  | 'comma'
  | 'lparen'
  | 'rparen'
  | 'string'
  | 'rawString'
  | 'char'
  | 'number'
  | 'field'
  | 'variable'
  | 'identifier'
  | 'keyword'
  | 'bool'
  | 'dot'
  | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** Text tokens: the (trimmed) text; comments: the comment body; others: the source characters. */
  readonly value: string;
  readonly line: number;
}

export const KEYWORDS = new Set([
  'block',
  'break',
  'continue',
  'define',
  'else',
  'end',
  'if',
  'nil',
  'range',
  'template',
  'with',
]);

const SPACE = ' \t\r\n';
const isSpace = (c: string | undefined): boolean => c !== undefined && c !== '' && SPACE.includes(c);
const isAlphaNumeric = (c: string | undefined): boolean => c !== undefined && /^[\p{L}\p{Nd}_]$/u.test(c);

function trimEndSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && isSpace(text[end - 1])) end--;
  return text.slice(0, end);
}

function leadingSpaces(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text[i])) i++;
  return i - from;
}

export function lexGoTemplate(source: string, file: string): Token[] {
  return new Lexer(source, file).run();
}

class Lexer {
  private pos = 0;
  private line = 1;
  private readonly tokens: Token[] = [];

  constructor(
    private readonly src: string,
    private readonly file: string,
  ) {}

  run(): Token[] {
    while (this.pos < this.src.length) this.text();
    this.tokens.push({ kind: 'eof', value: '', line: this.line });
    return this.tokens;
  }

  private fail(message: string, line = this.line): never {
    throw new ConfigError(`Go template syntax: ${message}`, { location: { file: this.file, line } });
  }

  private advance(to: number): void {
    for (let i = this.pos; i < to; i++) if (this.src[i] === '\n') this.line++;
    this.pos = to;
  }

  private push(kind: TokenKind, value: string, line = this.line): void {
    this.tokens.push({ kind, value, line });
  }

  private text(): void {
    const open = this.src.indexOf('{{', this.pos);
    const end = open < 0 ? this.src.length : open;
    let text = this.src.slice(this.pos, end);
    const trimLeft = open >= 0 && this.src[open + 2] === '-' && isSpace(this.src[open + 3]);
    if (trimLeft) text = trimEndSpaces(text);
    const line = this.line;
    this.advance(end);
    if (text) this.push('text', text, line);
    if (open >= 0) this.action(trimLeft);
  }

  /** `}}` or ` -}}` at the position: the length of the closing delimiter, and whether it trims. */
  private closing(at: number): { length: number; trim: boolean } | undefined {
    if (isSpace(this.src[at]) && this.src[at + 1] === '-' && this.src.startsWith('}}', at + 2))
      return { length: 4, trim: true };
    if (this.src.startsWith('}}', at)) return { length: 2, trim: false };
    return undefined;
  }

  private skipAfterClose(trim: boolean): void {
    if (trim) this.advance(this.pos + leadingSpaces(this.src, this.pos));
  }

  private action(trimLeft: boolean): void {
    const line = this.line;
    this.advance(this.pos + 2 + (trimLeft ? 2 : 0));
    if (this.src.startsWith('/*', this.pos)) return this.comment(line);
    this.push('open', '{{', line);
    let depth = 0;
    for (;;) {
      const close = this.closing(this.pos);
      if (close && depth === 0) {
        this.push('close', '}}');
        this.advance(this.pos + close.length);
        return this.skipAfterClose(close.trim);
      }
      if (this.pos >= this.src.length) this.fail('unclosed action', line);
      const c = this.src[this.pos];
      if (c === '(') depth++;
      if (c === ')' && --depth < 0) this.fail('unexpected right paren');
      this.insideAction(c);
    }
  }

  private comment(line: number): void {
    const end = this.src.indexOf('*/', this.pos + 2);
    if (end < 0) this.fail('unclosed comment', line);
    const body = this.src.slice(this.pos + 2, end);
    this.advance(end + 2);
    const close = this.closing(this.pos);
    if (!close) this.fail('comment ends before closing delimiter', line);
    this.advance(this.pos + close.length);
    this.push('comment', body, line);
    this.skipAfterClose(close.trim);
  }

  private insideAction(c: string): void {
    const start = this.pos;
    const single: Record<string, TokenKind> = {
      '|': 'pipe',
      ',': 'comma',
      '(': 'lparen',
      ')': 'rparen',
      '=': 'assign',
    };
    if (isSpace(c)) {
      let end = start;
      while (isSpace(this.src[end]) && !this.closing(end)) end++;
      this.take('space', end);
    } else if (single[c]) this.take(single[c], start + 1);
    else if (c === ':') {
      if (this.src[start + 1] !== '=') this.fail('expected :=');
      this.take('declare', start + 2);
    } else if (c === '"') this.take('string', this.quoted(start, '"'));
    else if (c === "'") this.take('char', this.quoted(start, "'"));
    else if (c === '`') this.take('rawString', this.raw(start));
    else if (c === '$') this.take('variable', this.word(start + 1));
    else if (c === '.' && !/[0-9]/.test(this.src[start + 1] ?? '')) {
      const end = this.word(start + 1);
      this.take(end === start + 1 ? 'dot' : 'field', end);
    } else if (/[-+.0-9]/.test(c)) this.take('number', this.number(start));
    else if (isAlphaNumeric(c)) this.identifier(start);
    else this.fail(`unrecognized character in action: ${JSON.stringify(c)}`);
  }

  private take(kind: TokenKind, end: number): void {
    const value = this.src.slice(this.pos, end);
    this.push(kind, value);
    this.advance(end);
  }

  private word(from: number): number {
    let end = from;
    while (isAlphaNumeric(this.src[end])) end++;
    return end;
  }

  private identifier(start: number): void {
    const end = this.word(start);
    const word = this.src.slice(start, end);
    const kind: TokenKind = KEYWORDS.has(word)
      ? 'keyword'
      : word === 'true' || word === 'false'
        ? 'bool'
        : 'identifier';
    this.take(kind, end);
  }

  private quoted(start: number, quote: string): number {
    let i = start + 1;
    for (;;) {
      const c = this.src[i];
      if (c === undefined || c === '\n')
        this.fail(quote === '"' ? 'unterminated quoted string' : 'unterminated character constant');
      if (c === '\\') {
        if (this.src[i + 1] === undefined || this.src[i + 1] === '\n') this.fail('unterminated quoted string');
        i += 2;
        continue;
      }
      i++;
      if (c === quote) return i;
    }
  }

  private raw(start: number): number {
    const end = this.src.indexOf('`', start + 1);
    if (end < 0) this.fail('unterminated raw quoted string');
    return end + 1;
  }

  private number(start: number): number {
    const match =
      /^[+-]?(?:0[xX][0-9a-fA-F_]*(?:\.[0-9a-fA-F_]*)?(?:[pP][+-]?[0-9_]+)?|0[oObB][0-7_]+|[0-9_]*\.?[0-9_]*(?:[eE][+-]?[0-9_]+)?)i?/.exec(
        this.src.slice(start),
      );
    const end = start + (match?.[0].length ?? 0);
    if (end === start || isAlphaNumeric(this.src[end]))
      this.fail(`bad number syntax: ${this.src.slice(start, end + 1)}`);
    return end;
  }
}
