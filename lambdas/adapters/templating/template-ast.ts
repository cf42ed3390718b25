/**
 * What the engine needs from a handlebars AST: make helper arguments strict (Go's `missingkey=error` fails on
 * any missing map key, not only on printed ones), and find the path expression at a location, so that an
 * error can name the whole key path (`Cluster.ConfigItems.coredns_replicas`), where handlebars names only its
 * last segment.
 */
import type Handlebars from 'handlebars';

/** A parsed template (handlebars' AST root). */
export type Program = ReturnType<typeof Handlebars.parse>;
type Node = hbs.AST.Node;
type PathExpression = hbs.AST.PathExpression & { strict?: boolean };

/** A path found at a location, and whether it stands in a helper's position (`{{name arg}}`). */
export interface PathAt {
  readonly original: string;
  readonly isHelperName: boolean;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function children(node: Node): Node[] {
  const out: Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'strip' || key === 'openStrip' || key === 'closeStrip' || key === 'inverseStrip') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) out.push(item);
    } else if (isNode(value)) {
      out.push(value);
    }
  }
  return out;
}

function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  for (const child of children(node)) walk(child, visit);
}

/** Marks every path used as a helper argument (positional or `key=value`) as strict. Mutates the AST. */
export function makeArgumentsStrict(program: Program): void {
  walk(program, (node) => {
    const call = node as Partial<hbs.AST.MustacheStatement>;
    if (node.type !== 'MustacheStatement' && node.type !== 'BlockStatement' && node.type !== 'SubExpression') return;
    for (const param of call.params ?? []) if (param.type === 'PathExpression') (param as PathExpression).strict = true;
    for (const pair of call.hash?.pairs ?? []) if (pair.value.type === 'PathExpression') (pair.value as PathExpression).strict = true;
  });
}

/** The path expression starting at line/column (1-based line, 0-based column, as handlebars reports them). */
export function pathAt(program: Program, line: number, column: number, lastPart?: string): PathAt | undefined {
  const helperNames = new Set<Node>();
  let found: PathAt | undefined;
  walk(program, (node) => {
    if (found) return;
    if (node.type === 'MustacheStatement' || node.type === 'BlockStatement' || node.type === 'SubExpression') {
      const call = node as hbs.AST.MustacheStatement;
      if (call.params.length > 0 || (call.hash?.pairs.length ?? 0) > 0 || node.type !== 'MustacheStatement') helperNames.add(call.path);
    }
    if (node.type !== 'PathExpression' || !node.loc) return;
    const path = node as PathExpression;
    if (path.loc.start.line !== line || path.loc.start.column !== column) return;
    if (lastPart !== undefined && path.parts[path.parts.length - 1] !== lastPart) return;
    found = { original: path.original, isHelperName: helperNames.has(node) };
  });
  return found;
}

/** Every path whose last segment is `lastPart`, in source order (to place errors that carry no location). */
export function pathsEndingWith(program: Program, lastPart: string): { readonly original: string; readonly line: number }[] {
  const found: { original: string; line: number }[] = [];
  walk(program, (node) => {
    if (node.type !== 'PathExpression' || !node.loc) return;
    const path = node as PathExpression;
    if (path.parts[path.parts.length - 1] === lastPart) found.push({ original: path.original, line: path.loc.start.line });
  });
  return found;
}
