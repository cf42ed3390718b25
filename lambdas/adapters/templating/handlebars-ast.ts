/**
 * The AST nodes handlebars-parser.ts builds: handlebars' own node helpers (compiler/helpers.js, bound as its grammar
 * binds them, `yy`), and the nodes its grammar's actions write out in full, with the same fields in the same order.
 */
import * as helpers from 'handlebars/dist/cjs/handlebars/compiler/helpers';
import type { Token, TokenLocation } from './handlebars-lexer';

export type Expression = hbs.AST.Expression;

/** What the grammar's open-block rules build (openBlock, openInverse, openInverseChain). */
export interface OpenBlock {
  readonly open?: string;
  readonly path: Expression;
  readonly params: Expression[];
  readonly hash: hbs.AST.Hash | undefined;
  readonly blockParams: string[] | undefined;
  readonly strip: hbs.AST.StripFlags;
}

export interface InverseAndProgram {
  readonly strip: hbs.AST.StripFlags;
  readonly program: hbs.AST.Program;
  readonly chain?: true;
}

export interface PathSegment {
  readonly part: string;
  readonly original: string;
  readonly separator?: string;
}

/** handlebars' parser context `yy`: the helpers with `locInfo` (no source name, as `Handlebars.parse(text, options)`). */
export const yy = {
  ...helpers,
  locInfo: (loc: TokenLocation) => new helpers.SourceLocation(undefined, loc),
};

/** jison's location of a rule from its first token to its last. */
export function span(first: Token, last: Token): TokenLocation {
  return {
    first_line: first.first_line,
    first_column: first.first_column,
    last_line: last.last_line,
    last_column: last.last_column,
  };
}

export function node<T>(value: Record<string, unknown>): T {
  return value as T;
}

export function contentStatement(token: Token): hbs.AST.ContentStatement {
  return node({ type: 'ContentStatement', original: token.text, value: token.text, loc: yy.locInfo(token) });
}

export function commentStatement(token: Token): hbs.AST.CommentStatement {
  return node({
    type: 'CommentStatement',
    value: yy.stripComment(token.text),
    strip: yy.stripFlags(token.text, token.text),
    loc: yy.locInfo(token),
  });
}

/** A STRING, NUMBER, BOOLEAN, UNDEFINED or NULL token's literal. */
export function literal(token: Token): hbs.AST.Literal {
  const loc = yy.locInfo(token);
  switch (token.kind) {
    case 'STRING':
      return node({ type: 'StringLiteral', value: token.text, original: token.text, loc });
    case 'NUMBER':
      return node({ type: 'NumberLiteral', value: Number(token.text), original: Number(token.text), loc });
    case 'BOOLEAN':
      return node({ type: 'BooleanLiteral', value: token.text === 'true', original: token.text === 'true', loc });
    case 'UNDEFINED':
      return node({ type: 'UndefinedLiteral', original: undefined, value: undefined, loc });
    default:
      return node({ type: 'NullLiteral', original: null, value: null, loc });
  }
}
