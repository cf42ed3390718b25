/**
 * Writes a parsed Go template as a handlebars template of our dialect (rendered with Go semantics, see
 * core/render/go-semantics-pragma.ts), construct by construct:
 *   {{ x }} → {{x}}                     {{ $v := x }} → {{let v=x}}        {{ $v = x }} → {{set v=x}}
 *   {{ if c }}…{{ else if d }}…{{ else }}…{{ end }}  → {{#if c}}…{{else if d}}…{{else}}…{{/if}}
 *   {{ with $v := x }}…{{ end }}        → {{#with x as |v|}}…{{/with}}
 *   {{ range $i, $e := x }}…{{ end }}   → {{#each x as |e i|}}…{{/each}}
 *   {{ define "n" }}…{{ end }}          → {{#*inline "n"}}…{{/inline}}      {{ template "n" x }} → {{> n x}}
 *   {{/* c *\/}}                        → {{!-- c --}}
 * Trim markers were applied to the text by the lexer. What cannot be expressed throws ConfigError (file, line).
 */
import { GO_SEMANTICS_HEADER } from '../render/go-semantics-pragma';
import type { BranchNode, GoNode, Pipeline, TemplateNode } from './go-ast';
import { variableNames, usesVariable } from './go-walk';
import { asMustache, asParam, pipelineExpression, refuse } from './hbs-expression';
import type { ExpressionScope } from './hbs-expression';
import { variableNamesFor } from './hbs-names';
import type { VariableNames } from './hbs-names';
import { joinPieces, stringLiteral, tag, text } from './hbs-text';
import type { Piece } from './hbs-text';

const BLOCK_NAMES = { if: 'if', with: 'with', range: 'each' } as const;

export function emitHandlebars(nodes: readonly GoNode[], file: string): string {
  const names = variableNamesFor(variableNames(nodes));
  const emitter = new Emitter(file, names, '@root');
  return joinPieces([tag(GO_SEMANTICS_HEADER), text('\n'), ...emitter.list(nodes)], file);
}

class Emitter implements ExpressionScope {
  constructor(
    readonly file: string,
    private readonly names: VariableNames,
    readonly root: string,
  ) {}

  variable(goName: string): string {
    return this.names.map.get(goName) ?? goName.slice(1);
  }

  shadowed(name: string): boolean {
    return this.names.taken.has(name);
  }

  list(nodes: readonly GoNode[]): Piece[] {
    return nodes.flatMap((node) => this.node(node));
  }

  private node(node: GoNode): Piece[] {
    switch (node.kind) {
      case 'text':
        return [text(node.text)];
      case 'comment':
        return [tag(`{{!-- ${node.text.trim().replace(/--(~?)\}\}/g, '- -$1}}')} --}}`)];
      case 'action':
        return [tag(this.action(node.pipe))];
      case 'if':
      case 'with':
      case 'range':
        return this.branch(node, false);
      case 'template':
        return [tag(this.templateCall(node))];
      case 'define':
        return this.define(node.name, node.body, node.line);
      case 'block':
        return [...this.define(node.name, node.body, node.line), tag(this.templateCall({ ...node, kind: 'template' }))];
      case 'break':
      case 'continue':
        return refuse(this, node.line, `{{${node.kind}}} inside range has no handlebars equivalent`);
    }
  }

  private action(pipe: Pipeline): string {
    const value = pipelineExpression(pipe, this);
    if (pipe.decl.length === 0) return `{{${asMustache(value)}}}`;
    return `{{${pipe.isAssign ? 'set' : 'let'} ${this.variable(pipe.decl[0])}=${asParam(value)}}}`;
  }

  private blockParams(node: BranchNode): string {
    const { decl, isAssign } = node.pipe;
    if (decl.length === 0) return '';
    if (isAssign) refuse(this, node.line, `assigning variables in {{${node.kind}}} has no handlebars equivalent`);
    // Go names the index first ($i, $e); handlebars' each gives the item first (as |e i|).
    return ` as |${[...decl]
      .reverse()
      .map((name) => this.variable(name))
      .join(' ')}|`;
  }

  private branch(node: BranchNode, chained: boolean): Piece[] {
    const name = BLOCK_NAMES[node.kind];
    if (node.kind === 'range' && node.elseList)
      for (const variable of node.pipe.decl)
        if (usesVariable(node.elseList, variable))
          refuse(
            this,
            node.line,
            `${variable} is used in the {{else}} of its range, which has no handlebars equivalent`,
          );
    const condition = `${name} ${asParam(pipelineExpression(node.pipe, this))}${this.blockParams(node)}`;
    const pieces: Piece[] = [tag(chained ? `{{else ${condition}}}` : `{{#${condition}}}`), ...this.list(node.list)];
    if (node.elseChain && node.elseList?.[0]) {
      pieces.push(...this.branch(node.elseList[0] as BranchNode, true));
    } else if (node.elseList) {
      pieces.push(tag('{{else}}'), ...this.list(node.elseList));
    }
    if (!chained) pieces.push(tag(`{{/${name}}}`));
    return pieces;
  }

  private templateCall(node: TemplateNode): string {
    const context = node.pipe ? asParam(pipelineExpression(node.pipe, this)) : 'null';
    return `{{> ${partialName(node.name, this, node.line)} ${context}}}`;
  }

  /** A define body has its own variables; `$` there is the value the template was called with. */
  private define(name: string, body: readonly GoNode[], line: number): Piece[] {
    const usesRoot = usesVariable(body, '$');
    const root = usesRoot ? this.names.fresh('root') : 'this';
    const inner = new Emitter(this.file, this.names, root);
    return [
      tag(
        `{{#*inline ${stringLiteral(name) ?? refuse(this, line, `the template name ${JSON.stringify(name)} cannot be written in handlebars`)}}}`,
      ),
      ...(usesRoot ? [tag(`{{let ${root}=this}}`)] : []),
      ...inner.list(body),
      tag('{{/inline}}'),
    ];
  }
}

function partialName(name: string, scope: ExpressionScope, line: number): string {
  if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) && !['true', 'false', 'null', 'undefined', 'this'].includes(name))
    return name;
  return (
    stringLiteral(name) ??
    refuse(scope, line, `the template name ${JSON.stringify(name)} cannot be written in handlebars`)
  );
}
