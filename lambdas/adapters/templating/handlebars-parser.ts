/**
 * `Handlebars.parse` without its jison parser: handlebars' grammar (compiler/handlebars.yy) as recursive descent over
 * handlebars-lexer.ts's tokens, each rule building its node with handlebars' own node helpers (compiler/helpers.js)
 * from the same arguments as the grammar's action, then handlebars' own WhitespaceControl. The AST is the one
 * `Handlebars.parse` gives, locations included (test/adapters/templating/handlebars-parser.test.ts compares them on
 * every template of the repository's examples and on generated ones).
 *
 * Why: jison's lexer tries its rules one after another on a fresh copy of the rest of the input for every token, and
 * counts lines with a regular expression per token. Parsing kubernetes-on-aws's 265 migrated templates (1.9 MB) in a
 * fresh process took 210–310 ms of CPU with it and 180–210 ms with this one; warm, 80–140 ms against 35–40 ms
 * (2026-11-28, the shared 2-core machine: each parser timed on the same files, first and second pass). What is left in a fresh process is mostly V8
 * running code for the first time.
 *
 * Raw blocks and escaped mustaches (rare in configs), and any input this parser does not accept (a syntax error, an
 * unmatched block), go to handlebars' parser, so those forms and every error message stay handlebars' own.
 */
import Handlebars from 'handlebars';
import WhitespaceControl from 'handlebars/dist/cjs/handlebars/compiler/whitespace-control';
import { commentStatement, contentStatement, literal, node, span, yy } from './handlebars-ast';
import type { Expression, InverseAndProgram, OpenBlock, PathSegment } from './handlebars-ast';
import { HandlebarsLexer, Unsupported } from './handlebars-lexer';
import type { Token, TokenKind } from './handlebars-lexer';

const STATEMENT_END: ReadonlySet<TokenKind> = new Set(['EOF', 'OPEN_ENDBLOCK', 'INVERSE', 'OPEN_INVERSE_CHAIN']);
const PARAM_START: ReadonlySet<TokenKind> = new Set([
  'ID',
  'DATA',
  'STRING',
  'NUMBER',
  'BOOLEAN',
  'UNDEFINED',
  'NULL',
  'OPEN_SEXPR',
]);

/** `Handlebars.parse(input, options)`, through handlebars itself when this parser does not take the input. */
export function parseHandlebars(input: string, options: { ignoreStandalone?: boolean } = {}): hbs.AST.Program {
  const program = parseWithoutProcessing(input);
  // Unsupported forms, and errors: handlebars parses (or throws) as it always did.
  if (!program) return Handlebars.parse(input, options);
  return new WhitespaceControl(options).accept(program);
}

/** `Handlebars.parseWithoutProcessing(input)`, or undefined when this parser leaves the input to handlebars. */
export function parseWithoutProcessing(input: string): hbs.AST.Program | undefined {
  try {
    return new Parser(input).root();
  } catch {
    return undefined;
  }
}

class Parser {
  private readonly lexer: HandlebarsLexer;
  private lookahead: Token;
  /** The last token consumed: jison's location of a rule ends with it. */
  private previous: Token;

  constructor(input: string) {
    this.lexer = new HandlebarsLexer(input);
    this.lookahead = this.lexer.next();
    this.previous = this.lookahead;
  }

  /** root: program EOF */
  root(): hbs.AST.Program {
    const program = this.program();
    this.expect('EOF');
    return program;
  }

  /** program: statement* */
  private program(): hbs.AST.Program {
    const statements: hbs.AST.Statement[] = [];
    while (!STATEMENT_END.has(this.lookahead.kind)) statements.push(this.statement());
    return yy.prepareProgram(statements);
  }

  private statement(): hbs.AST.Statement {
    const token = this.take();
    switch (token.kind) {
      case 'CONTENT':
        return contentStatement(token);
      case 'COMMENT':
        return commentStatement(token);
      case 'OPEN':
      case 'OPEN_UNESCAPED':
        return this.mustache(token);
      case 'OPEN_BLOCK':
        return this.block(token, false);
      case 'OPEN_INVERSE':
        return this.block(token, true);
      case 'OPEN_PARTIAL':
        return this.partial(token);
      case 'OPEN_PARTIAL_BLOCK':
        return this.partialBlock(token);
      default:
        throw new Unsupported(`statement starting with ${token.kind}`);
    }
  }

  /** mustache: OPEN helperName param* hash? CLOSE | OPEN_UNESCAPED helperName param* hash? CLOSE_UNESCAPED */
  private mustache(open: Token): hbs.AST.MustacheStatement {
    const path = this.helperName();
    const params = this.params();
    const hash = this.hash();
    const close = this.expect(open.kind === 'OPEN' ? 'CLOSE' : 'CLOSE_UNESCAPED');
    return yy.prepareMustache(path, params, hash, open.text, yy.stripFlags(open.text, close.text), span(open, close));
  }

  /** block: openBlock program inverseChain? closeBlock | openInverse program inverseAndProgram? closeBlock */
  private block(open: Token, inverted: boolean): hbs.AST.BlockStatement {
    const openBlock = this.openBlock(open, !inverted);
    const program = this.program();
    let inverse: InverseAndProgram | undefined;
    if (this.lookahead.kind === 'INVERSE') inverse = this.inverseAndProgram();
    else if (this.lookahead.kind === 'OPEN_INVERSE_CHAIN' && !inverted) inverse = this.inverseChain();
    const { closeBlock, close } = this.closeBlock();
    return yy.prepareBlock(openBlock, program, inverse, closeBlock, inverted, span(open, close));
  }

  /** closeBlock: OPEN_ENDBLOCK helperName CLOSE */
  private closeBlock(): { closeBlock: { path: Expression; strip: hbs.AST.StripFlags }; close: Token } {
    const end = this.expect('OPEN_ENDBLOCK');
    const path = this.helperName();
    const close = this.expect('CLOSE');
    return { closeBlock: { path, strip: yy.stripFlags(end.text, close.text) }, close };
  }

  /** partial: OPEN_PARTIAL partialName param* hash? CLOSE */
  private partial(open: Token): hbs.AST.PartialStatement {
    const name = this.param();
    const params = this.params();
    const hash = this.hash();
    const close = this.expect('CLOSE');
    const strip = yy.stripFlags(open.text, close.text);
    return node({
      type: 'PartialStatement',
      name,
      params,
      hash,
      indent: '',
      strip,
      loc: yy.locInfo(span(open, close)),
    });
  }

  /** partialBlock: openPartialBlock program closeBlock; openPartialBlock: OPEN_PARTIAL_BLOCK partialName param* hash? CLOSE */
  private partialBlock(open: Token): hbs.AST.PartialBlockStatement {
    const path = this.param();
    const params = this.params();
    const hash = this.hash();
    const openClose = this.expect('CLOSE');
    const openBlock = { path, params, hash, strip: yy.stripFlags(open.text, openClose.text) };
    const program = this.program();
    const { closeBlock, close } = this.closeBlock();
    return yy.preparePartialBlock(openBlock, program, closeBlock, span(open, close));
  }

  /** openBlock / openInverse / openInverseChain: OPEN_… helperName param* hash? blockParams? CLOSE */
  private openBlock(open: Token, withOpen: boolean): OpenBlock {
    const path = this.helperName();
    const params = this.params();
    const hash = this.hash();
    const blockParams = this.at('OPEN_BLOCK_PARAMS') ? this.blockParams() : undefined;
    const close = this.expect('CLOSE');
    const strip = yy.stripFlags(open.text, close.text);
    return withOpen
      ? { open: open.text, path, params, hash, blockParams, strip }
      : { path, params, hash, blockParams, strip };
  }

  /** blockParams: OPEN_BLOCK_PARAMS ID+ CLOSE_BLOCK_PARAMS, built as the grammar does (`yy.id` of the list). */
  private blockParams(): string[] {
    this.take();
    const ids = [this.expect('ID').text];
    while (this.at('ID')) ids.push(this.take().text);
    this.expect('CLOSE_BLOCK_PARAMS');
    return yy.id(ids as unknown as string) as unknown as string[];
  }

  /** inverseAndProgram: INVERSE program */
  private inverseAndProgram(): InverseAndProgram {
    const inverse = this.take();
    return { strip: yy.stripFlags(inverse.text, inverse.text), program: this.program() };
  }

  /** inverseChain: openInverseChain program inverseChain? | inverseAndProgram */
  private inverseChain(): InverseAndProgram {
    if (this.lookahead.kind === 'INVERSE') return this.inverseAndProgram();
    const open = this.take();
    const openChain = this.openBlock(open, false);
    const program = this.program();
    const next = this.at('INVERSE') || this.at('OPEN_INVERSE_CHAIN') ? this.inverseChain() : undefined;
    const inverse = yy.prepareBlock(openChain, program, next, next, false, span(open, this.previous));
    const chained = yy.prepareProgram([inverse], program.loc) as hbs.AST.Program & { chained?: boolean };
    chained.chained = true;
    return { strip: openChain.strip, program: chained, chain: true };
  }

  /** param*: each a helperName or a sexpr, up to a hash (ID =) or the closing token. */
  private params(): Expression[] {
    const params: Expression[] = [];
    while (PARAM_START.has(this.lookahead.kind) && !this.atHashPair()) params.push(this.param());
    return params;
  }

  private param(): Expression {
    if (this.lookahead.kind !== 'OPEN_SEXPR') return this.helperName();
    const open = this.take();
    const path = this.helperName();
    const params = this.params();
    const hash = this.hash();
    const close = this.expect('CLOSE_SEXPR');
    return node({ type: 'SubExpression', path, params, hash, loc: yy.locInfo(span(open, close)) });
  }

  /** hash?: (ID EQUALS param)+ */
  private hash(): hbs.AST.Hash | undefined {
    if (!this.atHashPair()) return undefined;
    const first = this.lookahead;
    const pairs: hbs.AST.HashPair[] = [];
    while (this.atHashPair()) {
      const key = this.take();
      this.take();
      const value = this.param();
      pairs.push(node({ type: 'HashPair', key: yy.id(key.text), value, loc: yy.locInfo(span(key, this.previous)) }));
    }
    return node({ type: 'Hash', pairs, loc: yy.locInfo(span(first, this.previous)) });
  }

  private atHashPair(): boolean {
    return this.lookahead.kind === 'ID' && this.peekIsEquals();
  }

  /** helperName: path | dataName | STRING | NUMBER | BOOLEAN | UNDEFINED | NULL */
  private helperName(): Expression {
    const token = this.take();
    switch (token.kind) {
      case 'ID':
        return yy.preparePath(false, this.pathSegments(token), span(token, this.previous));
      case 'DATA':
        return yy.preparePath(true, this.pathSegments(this.expect('ID')), span(token, this.previous));
      case 'STRING':
      case 'NUMBER':
      case 'BOOLEAN':
      case 'UNDEFINED':
      case 'NULL':
        return literal(token);
      default:
        throw new Unsupported(`${token.kind} where a name is expected`);
    }
  }

  /** pathSegments: pathSegments SEP ID | ID */
  private pathSegments(first: Token): PathSegment[] {
    const segments: PathSegment[] = [{ part: yy.id(first.text), original: first.text }];
    while (this.lookahead.kind === 'SEP') {
      const separator = this.take();
      const id = this.expect('ID');
      segments.push({ part: yy.id(id.text), original: id.text, separator: separator.text });
    }
    return segments;
  }

  /** The lookahead's kind (a method, so TypeScript does not keep a narrowing across the calls that consume tokens). */
  private at(kind: TokenKind): boolean {
    return this.lookahead.kind === kind;
  }

  private take(): Token {
    this.previous = this.lookahead;
    this.lookahead = this.pending ?? this.lexer.next();
    this.pending = undefined;
    return this.previous;
  }

  private expect(kind: TokenKind): Token {
    if (this.lookahead.kind !== kind) throw new Unsupported(`expected ${kind}, found ${this.lookahead.kind}`);
    return this.take();
  }

  /** The token after the lookahead (a hash pair is `ID =`). */
  private pending: Token | undefined;
  private peekIsEquals(): boolean {
    this.pending ??= this.lexer.next();
    return this.pending.kind === 'EQUALS';
  }
}
