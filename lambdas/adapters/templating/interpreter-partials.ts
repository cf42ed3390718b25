/**
 * Partials: `{{#*inline "name"}}…{{/inline}}` at the top level of a template defines a partial of that
 * template (anywhere in it, as Go's `define` does), `{{> name context}}` renders it with that context (the
 * current one without an argument). A partial sees `@data` but not the caller's variables. A standalone
 * partial call is indented as handlebars does; under Go semantics no line is standalone.
 */
import type { Evaluator } from './interpreter-builtins';
import { childScope } from './interpreter-frame';
import type { Frame, Scope } from './interpreter-frame';

type Program = hbs.AST.Program;

/** Deep enough for any sensible recursion, shallow enough not to overflow the stack. */
const MAX_PARTIAL_DEPTH = 200;

export interface PartialEvaluator extends Evaluator {
  readonly partials: ReadonlyMap<string, Program>;
  program(program: Program, frame: Frame): string;
  partialDepth: number;
}

function nameOf(node: hbs.AST.Node): string | undefined {
  const expr = node as hbs.AST.PathExpression | hbs.AST.StringLiteral;
  if (expr.type === 'StringLiteral') return (expr as hbs.AST.StringLiteral).value;
  if (expr.type === 'PathExpression') return (expr as hbs.AST.PathExpression).original;
  return undefined;
}

/** The inline partials of a template's top level, by name. */
export function inlinePartials(
  program: Program,
  fail: (message: string, node: hbs.AST.Node) => Error,
): Map<string, Program> {
  const partials = new Map<string, Program>();
  for (const statement of program.body) {
    if (statement.type !== 'DecoratorBlock') continue;
    const block = statement as unknown as hbs.AST.BlockStatement;
    const name = block.params.length === 1 ? nameOf(block.params[0]) : undefined;
    if (nameOf(block.path) !== 'inline' || name === undefined)
      throw fail('only {{#*inline "name"}}…{{/inline}} decorators are supported', statement);
    if (partials.has(name)) throw fail(`partial "${name}" is defined twice`, statement);
    partials.set(name, block.program);
  }
  return partials;
}

export function invokePartial(ev: PartialEvaluator, node: hbs.AST.PartialStatement, frame: Frame): string {
  const name = nameOf(node.name);
  const partial = name === undefined ? undefined : ev.partials.get(name);
  if (!partial) {
    const known = [...ev.partials.keys()].map((n) => JSON.stringify(n)).join(', ') || 'none';
    throw ev.fail(`partial ${JSON.stringify(name ?? '?')} is not defined in this template (defined: ${known})`, node);
  }
  if (node.params.length > 1 || (node.hash?.pairs.length ?? 0) > 0)
    throw ev.fail(`{{> ${name}}} takes at most one argument, the context`, node);
  if (ev.partialDepth >= MAX_PARTIAL_DEPTH)
    throw ev.fail(`partial ${name} nested more than ${MAX_PARTIAL_DEPTH} deep`, node);
  const context = node.params.length === 1 ? ev.expression(node.params[0] as hbs.AST.Expression, frame) : frame.context;
  const scope: Scope = childScope({});
  ev.partialDepth++;
  let out: string;
  try {
    out = ev.program(partial, { context, depths: [context], data: frame.data, scope });
  } finally {
    ev.partialDepth--;
  }
  return indentLines(out, (node as { indent?: string }).indent ?? '');
}

/** Handlebars' partial indentation: every line gets the indent, except a last empty one. */
function indentLines(text: string, indent: string): string {
  if (!indent) return text;
  const lines = text.split('\n');
  return lines.map((line, i) => (line === '' && i === lines.length - 1 ? line : indent + line)).join('\n');
}
