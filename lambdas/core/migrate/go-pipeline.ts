/**
 * Pipelines, commands and operands of a Go template action (`$x := f .A (g $y) | h "s"`), parsed as Go's
 * text/template/parse does: declarations first, then commands separated by `|`, each a list of operands.
 */
import type { Command, Operand, Pipeline } from './go-ast';
import type { TokenStream } from './go-token-stream';
import { unquoteGoChar, unquoteGoString } from './go-strings';

/** `context` names the construct in messages; `end` is the token that ends the pipeline. */
export function parsePipeline(ts: TokenStream, context: string, end: 'close' | 'rparen'): Pipeline {
  const line = ts.peekNonSpace().line;
  const { decl, isAssign } = declarations(ts, context);
  const cmds: Command[] = [];
  for (;;) {
    const token = ts.peekNonSpace();
    if (token.kind === end) {
      ts.nextNonSpace();
      break;
    }
    if (!STARTS_OPERAND.has(token.kind) && !(token.kind === 'keyword' && token.value === 'nil'))
      ts.unexpected(token, context);
    cmds.push(command(ts, context));
  }
  if (cmds.length === 0) ts.fail(`missing value for ${context}`, line);
  return { decl, isAssign, cmds, line };
}

const STARTS_OPERAND = new Set([
  'bool',
  'char',
  'dot',
  'field',
  'identifier',
  'number',
  'rawString',
  'string',
  'variable',
  'lparen',
]);

function declarations(ts: TokenStream, context: string): { decl: string[]; isAssign: boolean } {
  const start = ts.position;
  const decl: string[] = [];
  let isAssign = false;
  for (;;) {
    const variable = ts.peekNonSpace();
    if (variable.kind !== 'variable') break;
    ts.nextNonSpace();
    const after = ts.peekNonSpace();
    if (after.kind === 'declare' || after.kind === 'assign') {
      ts.nextNonSpace();
      decl.push(variable.value);
      isAssign = after.kind === 'assign';
      return { decl, isAssign };
    }
    if (after.kind === 'comma' && context === 'range' && decl.length === 0) {
      ts.nextNonSpace();
      decl.push(variable.value);
      continue;
    }
    if (after.kind === 'comma') ts.fail(`too many declarations in ${context}`, after.line);
    break;
  }
  if (decl.length > 0) ts.fail('range can only initialize variables', ts.peekNonSpace().line);
  ts.rewind(start);
  return { decl, isAssign };
}

function command(ts: TokenStream, context: string): Command {
  const args: Operand[] = [];
  for (;;) {
    while (ts.peek().kind === 'space') ts.next();
    const operand = parseOperand(ts, context);
    if (operand) args.push(operand);
    const token = ts.peek();
    if (token.kind === 'space') continue;
    if (token.kind === 'pipe') {
      ts.next();
      break;
    }
    if (token.kind === 'close' || token.kind === 'rparen') break;
    ts.unexpected(token, 'operand');
  }
  if (args.length === 0) ts.fail('empty command', ts.peek().line);
  return { args };
}

function parseOperand(ts: TokenStream, context: string): Operand | undefined {
  const node = term(ts, context);
  if (!node || ts.peek().kind !== 'field') return node;
  const path: string[] = [];
  while (ts.peek().kind === 'field') path.push(ts.next().value.slice(1));
  switch (node.kind) {
    case 'field':
    case 'variable':
      return { ...node, path: [...node.path, ...path] };
    case 'bool':
    case 'string':
    case 'number':
    case 'nil':
    case 'dot':
      return ts.fail(`unexpected . after term ${node.kind}`, ts.peek().line);
    default:
      return { kind: 'chain', base: node, path };
  }
}

function term(ts: TokenStream, context: string): Operand | undefined {
  const token = ts.peek();
  switch (token.kind) {
    case 'identifier':
      ts.next();
      return { kind: 'identifier', name: token.value };
    case 'dot':
      ts.next();
      return { kind: 'dot' };
    case 'variable':
      ts.next();
      return { kind: 'variable', name: token.value, path: [] };
    case 'field':
      ts.next();
      return { kind: 'field', path: [token.value.slice(1)] };
    case 'bool':
      ts.next();
      return { kind: 'bool', value: token.value === 'true' };
    case 'number':
      ts.next();
      return { kind: 'number', text: token.value };
    case 'char':
      ts.next();
      return { kind: 'number', text: String(unquoteGoChar(token.value, ts, token.line)) };
    case 'string':
    case 'rawString':
      ts.next();
      return { kind: 'string', value: unquoteGoString(token.value, ts, token.line) };
    case 'lparen':
      ts.next();
      return { kind: 'pipe', pipe: parsePipeline(ts, 'parenthesized pipeline', 'rparen') };
    case 'keyword':
      if (token.value === 'nil') {
        ts.next();
        return { kind: 'nil' };
      }
      return ts.unexpected(token, context);
    default:
      return undefined;
  }
}
