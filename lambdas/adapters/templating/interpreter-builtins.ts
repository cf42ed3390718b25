/**
 * The interpreter's built-in blocks and keywords:
 * - `#if`, `#unless` (with `includeZero=true`), `#with`, `#each` (`@index @key @first @last`, `as |item key|`);
 *   `#if x as |v|` and `#with x as |v|` bind v in both branches (as Go's `if $v := x` / `with $v := x` do);
 * - `let x=…` declares variables in the current block, `set x=…` changes the nearest one;
 * - `and` / `or` evaluate their arguments lazily, left to right, and return one of them (Go's meaning).
 * Under Go semantics (the pragma of core/render/go-semantics-pragma.ts) blocks test Go's truth and `#each`
 * walks a map's keys in sorted order.
 */
import { truth } from '../../core/template-helpers/logic';
import type { TemplateRenderError } from '../../shared/errors';
import { assign, declare, isEmpty } from './interpreter-frame';
import type { DataFrame, Frame } from './interpreter-frame';

type Expression = hbs.AST.Expression;

/** What the built-ins need from the interpreter. */
export interface Evaluator {
  readonly goSemantics: boolean;
  expression(node: Expression, frame: Frame): unknown;
  /** Runs a block's program with a context, data and block parameter values (names from `names` or the program). */
  run(
    program: hbs.AST.Program | undefined,
    frame: Frame,
    context: unknown,
    data?: DataFrame,
    values?: unknown[],
    names?: string[],
  ): string;
  fail(message: string, node: hbs.AST.Node): TemplateRenderError;
}

export const BLOCK_BUILTINS = new Set(['if', 'unless', 'each', 'with']);
export const LAZY_BUILTINS = new Set(['and', 'or']);
export const VARIABLE_BUILTINS = new Set(['let', 'set']);

function hashOf(ev: Evaluator, node: hbs.AST.BlockStatement | hbs.AST.MustacheStatement, frame: Frame) {
  const hash: Record<string, unknown> = {};
  for (const pair of node.hash?.pairs ?? []) hash[pair.key] = ev.expression(pair.value, frame);
  return hash;
}

export function builtinBlock(ev: Evaluator, name: string, node: hbs.AST.BlockStatement, frame: Frame): string {
  if (node.params.length !== 1) throw ev.fail(`#${name} needs exactly one argument, got ${node.params.length}`, node);
  const value = ev.expression(node.params[0] as Expression, frame);
  const hash = hashOf(ev, node, frame);
  const bound = node.program?.blockParams;
  switch (name) {
    case 'if':
    case 'unless': {
      const truthy = ev.goSemantics ? truth(value) : !((!hash.includeZero && !value) || isEmpty(value));
      const program = truthy === (name === 'if') ? node.program : node.inverse;
      return ev.run(program, frame, frame.context, frame.data, [value], bound);
    }
    case 'with':
      return (ev.goSemantics ? !truth(value) : isEmpty(value))
        ? ev.run(node.inverse, frame, frame.context, frame.data, [value], bound)
        : ev.run(node.program, frame, value, frame.data, [value]);
    default:
      return each(ev, value, node, frame);
  }
}

/** Go orders map keys by their bytes. */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

export function each(ev: Evaluator, value: unknown, node: hbs.AST.BlockStatement, frame: Frame): string {
  let entries: [key: string | number, item: unknown][] = [];
  if (Array.isArray(value)) entries = value.map((item, i) => [i, item]);
  else if (value !== null && typeof value === 'object') {
    entries = Object.entries(value);
    if (ev.goSemantics) entries.sort(([a], [b]) => byteOrder(String(a), String(b)));
  }
  if (entries.length === 0) return ev.run(node.inverse, frame, frame.context);
  let out = '';
  entries.forEach(([key, item], index) => {
    const data: DataFrame = {
      ...frame.data,
      _parent: frame.data,
      key,
      index,
      first: index === 0,
      last: index === entries.length - 1,
    };
    out += ev.run(node.program, frame, item, data, [item, key]);
  });
  return out;
}

/** `let a=x b=y` and `set a=x`: evaluated in order; they print nothing. */
export function variables(ev: Evaluator, name: string, node: hbs.AST.MustacheStatement, frame: Frame): string {
  if (node.params.length > 0 || !node.hash?.pairs.length)
    throw ev.fail(`${name} takes name=value pairs only, e.g. {{${name} replicas=(parseInt64 x)}}`, node);
  for (const pair of node.hash.pairs) {
    const value = ev.expression(pair.value, frame);
    if (name === 'let') declare(frame.scope, pair.key, value);
    else if (!assign(frame.scope, pair.key, value))
      throw ev.fail(`set ${pair.key}: no variable ${pair.key} (declare it with {{let ${pair.key}=…}})`, node);
  }
  return '';
}

/** Go's `and` / `or`: the first falsy (and) or truthy (or) argument, else the last; later ones are not evaluated. */
export function lazyLogic(
  ev: Evaluator,
  name: string,
  node: hbs.AST.MustacheStatement | hbs.AST.SubExpression,
  frame: Frame,
): unknown {
  if (node.params.length === 0) throw ev.fail(`${name}: wants at least 1 argument, got 0`, node);
  let value: unknown;
  for (const param of node.params) {
    value = ev.expression(param as Expression, frame);
    if (truth(value) === (name === 'or')) return value;
  }
  return value;
}
