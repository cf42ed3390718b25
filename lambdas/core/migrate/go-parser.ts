/**
 * Parses a Go text/template into the tree of go-ast.ts, with Go's rules: `define` only at the top level,
 * `{{else if}}` / `{{else with}}` chains closed by one `{{end}}`, `break`/`continue` only inside `range`.
 * Syntax errors throw ConfigError naming the file and line.
 */
import type { BranchNode, GoNode, Pipeline } from './go-ast';
import { lexGoTemplate } from './go-lexer';
import { parsePipeline } from './go-pipeline';
import { TokenStream } from './go-token-stream';
import { unquoteGoString } from './go-strings';

type ListEnd = { readonly kind: 'end' | 'else' | 'eof'; readonly line: number };

export function parseGoTemplate(source: string, file: string): GoNode[] {
  return new Parser(new TokenStream(lexGoTemplate(source, file), file)).template();
}

class Parser {
  private rangeDepth = 0;

  constructor(private readonly ts: TokenStream) {}

  template(): GoNode[] {
    const { nodes, end } = this.list(true);
    if (end.kind !== 'eof') this.ts.fail(`unexpected {{${end.kind}}}`, end.line);
    return nodes;
  }

  /** Nodes up to `{{end}}`, `{{else}}` (the keyword consumed, not what follows it) or the end of the file. */
  private list(topLevel = false): { nodes: GoNode[]; end: ListEnd } {
    const nodes: GoNode[] = [];
    for (;;) {
      const token = this.ts.next();
      if (token.kind === 'eof') return { nodes, end: { kind: 'eof', line: token.line } };
      if (token.kind === 'text') nodes.push({ kind: 'text', text: token.value, line: token.line });
      else if (token.kind === 'comment') nodes.push({ kind: 'comment', text: token.value, line: token.line });
      else if (token.kind === 'open') {
        const keyword = this.ts.peekNonSpace();
        if (keyword.kind === 'keyword' && (keyword.value === 'end' || keyword.value === 'else')) {
          this.ts.nextNonSpace();
          if (keyword.value === 'end') this.ts.expect('close', 'end');
          return { nodes, end: { kind: keyword.value, line: keyword.line } };
        }
        nodes.push(this.action(topLevel));
      } else this.ts.unexpected(token, 'input');
    }
  }

  private action(topLevel: boolean): GoNode {
    const token = this.ts.peekNonSpace();
    const line = token.line;
    if (token.kind === 'keyword') {
      switch (token.value) {
        case 'if':
        case 'with':
        case 'range':
          this.ts.nextNonSpace();
          return this.control(token.value, line);
        case 'template':
          this.ts.nextNonSpace();
          return this.templateCall(line);
        case 'block':
          this.ts.nextNonSpace();
          return this.block(line);
        case 'define':
          if (!topLevel) this.ts.fail('define is only allowed at the top level of a template', line);
          this.ts.nextNonSpace();
          return this.define(line);
        case 'break':
        case 'continue':
          this.ts.nextNonSpace();
          this.ts.expect('close', token.value);
          if (this.rangeDepth === 0) this.ts.fail(`{{${token.value}}} outside {{range}}`, line);
          return { kind: token.value, line };
      }
    }
    return { kind: 'action', pipe: parsePipeline(this.ts, 'command', 'close'), line };
  }

  private control(kind: BranchNode['kind'], line: number): BranchNode {
    const pipe = parsePipeline(this.ts, kind, 'close');
    if (kind === 'range') this.rangeDepth++;
    const body = this.list();
    if (kind === 'range') this.rangeDepth--;
    if (body.end.kind === 'eof') this.ts.fail(`unexpected end of file: {{${kind}}} needs {{end}}`, line);
    if (body.end.kind === 'end') return { kind, pipe, list: body.nodes, elseChain: false, line };
    const chained = this.ts.peekNonSpace();
    if (chained.kind === 'keyword' && chained.value === kind && kind !== 'range') {
      this.ts.nextNonSpace();
      const next = this.control(kind, chained.line);
      return { kind, pipe, list: body.nodes, elseList: [next], elseChain: true, line };
    }
    this.ts.expect('close', 'else');
    const rest = this.list();
    if (rest.end.kind !== 'end') this.ts.fail(`expected {{end}}, found ${rest.end.kind}`, rest.end.line);
    return { kind, pipe, list: body.nodes, elseList: rest.nodes, elseChain: false, line };
  }

  private templateName(context: string): string {
    const token = this.ts.nextNonSpace();
    if (token.kind !== 'string' && token.kind !== 'rawString') this.ts.unexpected(token, context);
    return unquoteGoString(token.value, this.ts, token.line);
  }

  private templateCall(line: number): GoNode {
    const name = this.templateName('template clause');
    let pipe: Pipeline | undefined;
    if (this.ts.peekNonSpace().kind === 'close') this.ts.nextNonSpace();
    else pipe = parsePipeline(this.ts, 'template clause', 'close');
    return { kind: 'template', name, pipe, line };
  }

  private body(context: string, line: number): GoNode[] {
    const depth = this.rangeDepth;
    this.rangeDepth = 0;
    const { nodes, end } = this.list();
    this.rangeDepth = depth;
    if (end.kind !== 'end')
      this.ts.fail(`unexpected ${end.kind === 'eof' ? 'end of file' : '{{else}}'} in ${context}`, line);
    return nodes;
  }

  private define(line: number): GoNode {
    const name = this.templateName('define clause');
    this.ts.expect('close', 'define clause');
    return { kind: 'define', name, body: this.body('define clause', line), line };
  }

  private block(line: number): GoNode {
    const name = this.templateName('block clause');
    const pipe = parsePipeline(this.ts, 'block clause', 'close');
    return { kind: 'block', name, pipe, body: this.body('block clause', line), line };
  }
}
