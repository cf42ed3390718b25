/**
 * Go pipelines as handlebars expressions: `.A.B` → `A.B`, `$x.A` → `x.A`, `$` → `@root` (or the root variable
 * of a define), `.` → `this`, `f a b` → `(f a b)`, `a | f b` → `(f b a)` (the piped value is the last argument,
 * as in Go), `.M a` (a method with arguments) → `(M a)` on its path, `(p).A` → `(lookup (p) "A")`.
 * What has no equivalent throws ConfigError naming the line and the reason.
 */
import { ConfigError } from '../../shared/errors';
import type { Command, Operand, Pipeline } from './go-ast';
import { RESERVED_NAMES, SUPPORTED_FUNCTIONS, UNSUPPORTED_FUNCTIONS } from './go-functions';
import { stringLiteral } from './hbs-text';

export type HExpr =
  | { readonly kind: 'atom'; readonly text: string }
  | { readonly kind: 'call'; readonly callee: string; readonly args: readonly HExpr[] };

export interface ExpressionScope {
  readonly file: string;
  /** The handlebars name of a Go variable (`$x`); `$` itself is `root`. */
  variable(goName: string): string;
  /** What `$` is: `@root` in the main template, a variable inside a define. */
  readonly root: string;
  /** True when a path starting with this name must be written `this.name` (a variable or helper has the name). */
  shadowed(name: string): boolean;
}

const atom = (text: string): HExpr => ({ kind: 'atom', text });
const ID = /^[^\s!"#%&'()*+,./;<=>@[\\\]^`{|}~]+$/u;
const LITERAL_WORDS = new Set(['true', 'false', 'null', 'undefined', 'this']);

/** `{{…}}` body: a call without parentheses. */
export function asMustache(expr: HExpr): string {
  return expr.kind === 'atom' ? expr.text : [expr.callee, ...expr.args.map(asParam)].join(' ');
}

/** An argument, a block condition or a hash value: calls in parentheses. */
export function asParam(expr: HExpr): string {
  return expr.kind === 'atom' ? expr.text : `(${asMustache(expr)})`;
}

export function refuse(scope: { readonly file: string }, line: number, reason: string): never {
  throw new ConfigError(reason, { location: { file: scope.file, line } });
}

export function pipelineExpression(pipe: Pipeline, scope: ExpressionScope): HExpr {
  let value: HExpr | undefined;
  pipe.cmds.forEach((cmd, i) => {
    if (i > 0 && isLiteral(cmd.args[0])) refuse(scope, pipe.line, `non executable command in pipeline stage ${i + 1}`);
    value = command(cmd, value, scope, pipe.line);
  });
  return value!;
}

function isLiteral(operand: Operand): boolean {
  return ['bool', 'dot', 'nil', 'number', 'string'].includes(operand.kind);
}

function command(cmd: Command, piped: HExpr | undefined, scope: ExpressionScope, line: number): HExpr {
  const [first, ...rest] = cmd.args;
  const args = [...rest.map((arg) => operand(arg, scope, line)), ...(piped ? [piped] : [])];
  switch (first.kind) {
    case 'identifier':
      return { kind: 'call', callee: functionName(first.name, scope, line), args };
    case 'field':
    case 'variable':
      // A method call when arguments follow (Values.InstanceInfo.MemoryFraction 50), else a value.
      if (args.length === 0) return operand(first, scope, line);
      return {
        kind: 'call',
        callee: first.kind === 'field' ? path(first.path, scope, true) : variablePath(first.name, first.path, scope),
        args,
      };
    default:
      if (args.length > 0) {
        const what = first.kind === 'chain' ? 'a method of a computed value' : `${first.kind} ${describe(first)}`;
        refuse(scope, line, `cannot give arguments to ${what} (no handlebars equivalent)`);
      }
      if (first.kind === 'nil') refuse(scope, line, 'nil is not a command');
      return operand(first, scope, line);
  }
}

function describe(operand: Operand): string {
  return operand.kind === 'string' ? JSON.stringify(operand.value) : '';
}

function functionName(name: string, scope: ExpressionScope, line: number): string {
  if (SUPPORTED_FUNCTIONS.has(name)) return name;
  refuse(scope, line, UNSUPPORTED_FUNCTIONS[name] ?? `function "${name}" is not one of CLM's template functions`);
}

/** One argument. */
function operand(arg: Operand, scope: ExpressionScope, line: number): HExpr {
  switch (arg.kind) {
    case 'field':
      return atom(path(arg.path, scope, true));
    case 'variable':
      return atom(variablePath(arg.name, arg.path, scope));
    case 'dot':
      return atom('this');
    case 'nil':
      return atom('null');
    case 'bool':
      return atom(String(arg.value));
    case 'number':
      return atom(numberLiteral(arg.text, scope, line));
    case 'string': {
      const literal = stringLiteral(arg.value);
      if (literal === undefined)
        refuse(
          scope,
          line,
          `the string ${JSON.stringify(arg.value)} (ending in a backslash) cannot be written in handlebars`,
        );
      return atom(literal);
    }
    case 'identifier':
      return { kind: 'call', callee: functionName(arg.name, scope, line), args: [] };
    case 'pipe':
      if (arg.pipe.decl.length > 0) refuse(scope, line, 'a variable declared inside parentheses has no equivalent');
      return pipelineExpression(arg.pipe, scope);
    case 'chain':
      return arg.path.reduce<HExpr>(
        (base, key) => ({ kind: 'call', callee: 'lookup', args: [base, atom(stringLiteral(key)!)] }),
        operand(arg.base, scope, line),
      );
  }
}

function segment(name: string): string {
  return ID.test(name) && !LITERAL_WORDS.has(name) && !/^\d/.test(name) ? name : `[${name}]`;
}

/** A field path from the dot: `this.` first when its name would be read as a variable or a helper. */
function path(parts: readonly string[], scope: ExpressionScope, fromDot: boolean): string {
  const [head, ...tail] = parts;
  const needsThis = fromDot && (scope.shadowed(head) || RESERVED_NAMES.has(head) || segment(head) !== head);
  return [needsThis ? `this.${segment(head)}` : head, ...tail.map(segment)].join('.');
}

function variablePath(name: string, parts: readonly string[], scope: ExpressionScope): string {
  const base = name === '$' ? scope.root : scope.variable(name);
  return [base, ...parts.map(segment)].join('.');
}

/** Go number literals → handlebars numbers (decimal, optional fraction). */
function numberLiteral(text: string, scope: ExpressionScope, line: number): string {
  const digits = text.replaceAll('_', '');
  let value: number;
  if (/^[+-]?0[xX][0-9a-fA-F]+$/.test(digits))
    value = Number.parseInt(digits.replace(/0[xX]/, ''), 16) * (digits.startsWith('-') ? -1 : 1);
  else if (/^[+-]?0[oO]?[0-7]+$/.test(digits) && digits.replace(/^[+-]/, '').length > 1)
    value = Number.parseInt(digits.replace(/^([+-]?)0[oO]?/, '$1'), 8);
  else if (/^[+-]?0[bB][01]+$/.test(digits))
    value = Number.parseInt(digits.replace(/0[bB]/, ''), 2) * (digits.startsWith('-') ? -1 : 1);
  else if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(digits)) value = Number(digits);
  else refuse(scope, line, `the number ${text} has no handlebars equivalent`);
  const written = Object.is(value, -0) ? '0' : String(value);
  if (!/^-?\d+(\.\d+)?$/.test(written) || (Number.isInteger(value) && !Number.isSafeInteger(value)))
    refuse(scope, line, `the number ${text} cannot be written exactly in handlebars`);
  return written;
}
