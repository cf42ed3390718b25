// Types of the handlebars compiler modules handlebars-parser.ts uses (handlebars 4.7: compiler/helpers.js builds the
// AST nodes for its grammar's actions; compiler/whitespace-control.js is the pass `Handlebars.parse` ends with).
declare module 'handlebars/dist/cjs/handlebars/compiler/helpers' {
  interface JisonLocation {
    readonly first_line: number;
    readonly last_line: number;
    readonly first_column: number;
    readonly last_column: number;
  }
  interface Yy {
    locInfo(loc: JisonLocation): hbs.AST.SourceLocation;
  }
  interface PathSegment {
    readonly part: string;
    readonly original: string;
    readonly separator?: string;
  }
  export class SourceLocation implements hbs.AST.SourceLocation {
    constructor(source: string | undefined, loc: JisonLocation);
    source: string;
    start: hbs.AST.Position;
    end: hbs.AST.Position;
  }
  export function id(token: string): string;
  export function stripFlags(open: string, close: string): hbs.AST.StripFlags;
  export function stripComment(comment: string): string;
  export function preparePath(
    this: Yy,
    data: boolean,
    parts: readonly PathSegment[],
    loc: JisonLocation,
  ): hbs.AST.PathExpression;
  export function prepareMustache(
    this: Yy,
    path: hbs.AST.Expression,
    params: hbs.AST.Expression[],
    hash: hbs.AST.Hash | undefined,
    open: string,
    strip: hbs.AST.StripFlags,
    loc: JisonLocation,
  ): hbs.AST.MustacheStatement;
  export function prepareBlock(
    this: Yy,
    openBlock: object,
    program: hbs.AST.Program,
    inverseAndProgram: object | undefined,
    close: object | undefined,
    inverted: boolean,
    loc: JisonLocation,
  ): hbs.AST.BlockStatement;
  export function preparePartialBlock(
    this: Yy,
    open: object,
    program: hbs.AST.Program,
    close: object,
    loc: JisonLocation,
  ): hbs.AST.PartialBlockStatement;
  export function prepareProgram(statements: hbs.AST.Statement[], loc?: hbs.AST.SourceLocation): hbs.AST.Program;
}

declare module 'handlebars/dist/cjs/handlebars/compiler/whitespace-control' {
  export default class WhitespaceControl {
    constructor(options?: { ignoreStandalone?: boolean });
    accept(node: hbs.AST.Program): hbs.AST.Program;
  }
}
