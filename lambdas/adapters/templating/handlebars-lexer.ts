/**
 * The tokens of handlebars' grammar, as handlebars' own (jison) lexer produces them, for handlebars-parser.ts: the same
 * rules in the same order, matched where they stand (sticky regular expressions) instead of on a copy of the rest of
 * the input, and a rule chosen by the character it must start with instead of trying all 38 in turn. Locations are
 * counted as jison counts them (lines from 1, columns from 0, `\r\n`, `\r` and `\n` each one line break).
 *
 * A few forms it leaves out (raw blocks, escaped mustaches, a NUL or a U+2028/U+2029 in the input), and a character
 * no rule takes, make it stop with `Unsupported`: the caller then hands the input to handlebars' parser, whose answer
 * (or error) is the answer.
 */
import Handlebars from 'handlebars';

export type TokenKind =
  | 'CONTENT'
  | 'COMMENT'
  | 'OPEN'
  | 'OPEN_UNESCAPED'
  | 'OPEN_BLOCK'
  | 'OPEN_INVERSE'
  | 'OPEN_INVERSE_CHAIN'
  | 'INVERSE'
  | 'OPEN_ENDBLOCK'
  | 'OPEN_PARTIAL'
  | 'OPEN_PARTIAL_BLOCK'
  | 'OPEN_BLOCK_PARAMS'
  | 'CLOSE_BLOCK_PARAMS'
  | 'CLOSE'
  | 'CLOSE_UNESCAPED'
  | 'OPEN_SEXPR'
  | 'CLOSE_SEXPR'
  | 'EQUALS'
  | 'ID'
  | 'SEP'
  | 'DATA'
  | 'STRING'
  | 'NUMBER'
  | 'BOOLEAN'
  | 'UNDEFINED'
  | 'NULL'
  | 'EOF';

/** jison's location of a token. */
export interface TokenLocation {
  readonly first_line: number;
  readonly last_line: number;
  readonly first_column: number;
  readonly last_column: number;
}

export interface Token extends TokenLocation {
  readonly kind: TokenKind;
  /** jison's `yytext`: the matched text, for strings and `[ids]` as its rule rewrites it. */
  readonly text: string;
}

/** The input needs handlebars' own parser. */
export class Unsupported extends Error {}

// handlebars' own rules (its jison lexer's `rules`, `^(?:…)`), by their number there, made sticky.
const RULES = (Handlebars as unknown as { Parser: { lexer: { rules: readonly RegExp[] } } }).Parser.lexer.rules;
function rule(n: number): RegExp {
  const source = RULES[n].source;
  if (!source.startsWith('^(?:')) throw new Error(`handlebars' lexer rule ${n} is not anchored: ${source}`);
  return new RegExp(source.slice(1), 'y');
}
const OPENERS: readonly [number, RegExp][] = [9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23].map((n) => [
  n,
  rule(n),
]);
const LONG_COMMENT = rule(6);
const DOT_ID = rule(26);
const WHITESPACE = rule(28);
const CLOSE_UNESCAPED = rule(29);
const CLOSE = rule(30);
const DOUBLE_QUOTED = rule(31);
const SINGLE_QUOTED = rule(32);
const LITERALS: readonly [TokenKind, RegExp][] = [
  ['BOOLEAN', rule(34)],
  ['BOOLEAN', rule(35)],
  ['UNDEFINED', rule(36)],
  ['NULL', rule(37)],
  ['NUMBER', rule(38)],
];
const BLOCK_PARAMS = rule(39);
const ID = rule(41);
const BRACKET_ID = rule(42);

const OPENER_KINDS: Readonly<Record<number, TokenKind | undefined>> = {
  11: 'OPEN_PARTIAL',
  12: 'OPEN_PARTIAL_BLOCK',
  13: 'OPEN_BLOCK',
  14: 'OPEN_ENDBLOCK',
  15: 'INVERSE',
  16: 'INVERSE',
  17: 'OPEN_INVERSE',
  18: 'OPEN_INVERSE_CHAIN',
  19: 'OPEN_UNESCAPED',
  20: 'OPEN',
  22: 'COMMENT',
  23: 'OPEN',
};

export class HandlebarsLexer {
  private pos = 0;
  private inMustache = false;
  private line = 1;
  private column = 0;
  /** `\r` is rare: without one, lines are counted by searching for `\n`. */
  private readonly hasCarriageReturn: boolean;

  constructor(private readonly input: string) {
    if (input.includes('\0') || input.includes('\u2028') || input.includes('\u2029'))
      throw new Unsupported('NUL, U+2028 or U+2029 in the input');
    this.hasCarriageReturn = input.includes('\r');
  }

  /** The next token, whitespace inside mustaches skipped. */
  next(): Token {
    return this.inMustache ? this.mustacheToken() : this.contentToken();
  }

  private contentToken(): Token {
    const start = this.pos;
    if (start >= this.input.length) return this.token('EOF', start, '');
    const open = this.input.indexOf('{{', start);
    if (open < 0) return this.token('CONTENT', this.input.length);
    // `\{{` and `\\{{` escape a mustache: handlebars' parser does those.
    if (open > start && this.input.charCodeAt(open - 1) === 92) throw new Unsupported('escaped mustache');
    this.inMustache = true;
    return open > start ? this.token('CONTENT', open) : this.mustacheToken();
  }

  private mustacheToken(): Token {
    WHITESPACE.lastIndex = this.pos;
    if (WHITESPACE.test(this.input)) this.advance(WHITESPACE.lastIndex);
    const c = this.input[this.pos];
    switch (c) {
      case undefined:
        throw new Unsupported('input ends inside a mustache');
      case '(':
        return this.token('OPEN_SEXPR', this.pos + 1);
      case ')':
        return this.token('CLOSE_SEXPR', this.pos + 1);
      case '{':
        return this.opener();
      case '}':
      case '~':
        return this.closer();
      case '=':
        return this.token('EQUALS', this.pos + 1);
      case '.':
        if (this.input[this.pos + 1] === '.') return this.token('ID', this.pos + 2);
        if (this.sticky(DOT_ID)) return this.token('ID', DOT_ID.lastIndex);
        return this.token('SEP', this.pos + 1);
      case '/':
        return this.token('SEP', this.pos + 1);
      case '"':
        return this.quoted(DOUBLE_QUOTED, /\\"/g, '"');
      case "'":
        return this.quoted(SINGLE_QUOTED, /\\'/g, "'");
      case '@':
        return this.token('DATA', this.pos + 1);
      case '|':
        return this.token('CLOSE_BLOCK_PARAMS', this.pos + 1);
      case '[':
        if (!this.sticky(BRACKET_ID)) throw new Unsupported('unterminated [');
        return this.token('ID', BRACKET_ID.lastIndex, this.slice(BRACKET_ID.lastIndex).replace(/\\([\\\]])/g, '$1'));
      default:
        return this.word();
    }
  }

  /** Rules 9 and 11–23, in their order. */
  private opener(): Token {
    for (const [rule, pattern] of OPENERS) {
      if (!this.sticky(pattern)) continue;
      if (rule === 21) return this.longComment();
      const kind = OPENER_KINDS[rule];
      // 9: `{{{{`, a raw block.
      if (!kind) throw new Unsupported(`rule ${rule}`);
      if (kind === 'INVERSE' || kind === 'COMMENT') this.inMustache = false;
      return this.token(kind, pattern.lastIndex);
    }
    throw new Unsupported('no rule takes "{"');
  }

  /** `{{!-- … --}}`: jison puts the opening back and matches the whole comment from it. */
  private longComment(): Token {
    if (!this.sticky(LONG_COMMENT)) throw new Unsupported('unterminated comment');
    this.inMustache = false;
    return this.token('COMMENT', LONG_COMMENT.lastIndex);
  }

  /** Rules 10, 29 and 30. */
  private closer(): Token {
    if (this.input.startsWith('}}}}', this.pos)) throw new Unsupported('raw block close');
    for (const [kind, pattern] of [
      ['CLOSE_UNESCAPED', CLOSE_UNESCAPED],
      ['CLOSE', CLOSE],
    ] as const) {
      if (!this.sticky(pattern)) continue;
      this.inMustache = false;
      return this.token(kind, pattern.lastIndex);
    }
    throw new Unsupported('no rule takes "}" or "~"');
  }

  private quoted(pattern: RegExp, escaped: RegExp, quote: string): Token {
    if (!this.sticky(pattern)) throw new Unsupported('unterminated string');
    return this.token('STRING', pattern.lastIndex, this.slice(pattern.lastIndex).slice(1, -1).replace(escaped, quote));
  }

  /** Rules 34–39 and 41. */
  private word(): Token {
    for (const [kind, pattern] of LITERALS) if (this.sticky(pattern)) return this.token(kind, pattern.lastIndex);
    if (this.sticky(BLOCK_PARAMS)) return this.token('OPEN_BLOCK_PARAMS', BLOCK_PARAMS.lastIndex);
    if (this.sticky(ID)) return this.token('ID', ID.lastIndex);
    throw new Unsupported(`no rule takes ${JSON.stringify(this.input[this.pos])}`);
  }

  private sticky(pattern: RegExp): boolean {
    pattern.lastIndex = this.pos;
    return pattern.test(this.input);
  }

  private slice(end: number): string {
    return this.input.slice(this.pos, end);
  }

  private token(kind: TokenKind, end: number, text = this.slice(end)): Token {
    const first_line = this.line;
    const first_column = this.column;
    this.advance(end);
    return { kind, text, first_line, first_column, last_line: this.line, last_column: this.column };
  }

  /** Moves to `end`, counting lines and columns as jison does (native searches: most of the input is content). */
  private advance(end: number): void {
    const input = this.input;
    if (this.hasCarriageReturn) {
      for (let i = this.pos; i < end; i++) {
        const c = input.charCodeAt(i);
        if (c === 10 || c === 13) {
          if (c === 13 && i + 1 < end && input.charCodeAt(i + 1) === 10) i++;
          this.line++;
          this.column = 0;
        } else {
          this.column++;
        }
      }
    } else {
      let lineStart = -1;
      for (let i = input.indexOf('\n', this.pos); i >= 0 && i < end; i = input.indexOf('\n', i + 1)) {
        this.line++;
        lineStart = i + 1;
      }
      this.column = lineStart < 0 ? this.column + (end - this.pos) : end - lineStart;
    }
    this.pos = end;
  }
}
