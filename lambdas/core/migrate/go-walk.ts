/** Walks a Go template tree: every pipeline and every operand in it, nested parentheses included. */
import type { GoNode, Operand, Pipeline } from './go-ast';

export function* pipelinesOf(nodes: readonly GoNode[]): Generator<Pipeline> {
  for (const node of nodes) {
    switch (node.kind) {
      case 'action':
        yield node.pipe;
        break;
      case 'if':
      case 'with':
      case 'range':
        yield node.pipe;
        yield* pipelinesOf(node.list);
        yield* pipelinesOf(node.elseList ?? []);
        break;
      case 'template':
        if (node.pipe) yield node.pipe;
        break;
      case 'block':
        yield node.pipe;
        yield* pipelinesOf(node.body);
        break;
      case 'define':
        yield* pipelinesOf(node.body);
        break;
    }
  }
}

function* operandsOfPipeline(pipe: Pipeline): Generator<Operand> {
  for (const cmd of pipe.cmds) {
    for (const arg of cmd.args) {
      yield arg;
      if (arg.kind === 'pipe') yield* operandsOfPipeline(arg.pipe);
      if (arg.kind === 'chain') {
        yield arg.base;
        if (arg.base.kind === 'pipe') yield* operandsOfPipeline(arg.base.pipe);
      }
    }
  }
}

export function* operandsOf(nodes: readonly GoNode[]): Generator<Operand> {
  for (const pipe of pipelinesOf(nodes)) yield* operandsOfPipeline(pipe);
}

/** Every variable name declared or used (with its `$`), `$` itself excluded. */
export function variableNames(nodes: readonly GoNode[]): Set<string> {
  const names = new Set<string>();
  for (const pipe of pipelinesOf(nodes)) for (const name of pipe.decl) names.add(name);
  for (const operand of operandsOf(nodes))
    if (operand.kind === 'variable' && operand.name !== '$') names.add(operand.name);
  return names;
}

/** True when one of the nodes reads the variable (`$` for the root). */
export function usesVariable(nodes: readonly GoNode[], name: string): boolean {
  for (const operand of operandsOf(nodes)) if (operand.kind === 'variable' && operand.name === name) return true;
  return false;
}
