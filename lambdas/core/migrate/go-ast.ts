/** The parse tree of a Go text/template, as the converter needs it (lines are 1-based, of the action). */

export type GoNode =
  TextNode | CommentNode | ActionNode | BranchNode | TemplateNode | DefineNode | BlockNode | LoopControlNode;

export interface TextNode {
  readonly kind: 'text';
  readonly text: string;
  readonly line: number;
}

export interface CommentNode {
  readonly kind: 'comment';
  readonly text: string;
  readonly line: number;
}

/** `{{ pipeline }}`, `{{ $x := pipeline }}`, `{{ $x = pipeline }}`. */
export interface ActionNode {
  readonly kind: 'action';
  readonly pipe: Pipeline;
  readonly line: number;
}

/** `if`, `with` and `range`, with their optional `{{else}}` list. */
export interface BranchNode {
  readonly kind: 'if' | 'with' | 'range';
  readonly pipe: Pipeline;
  readonly list: GoNode[];
  readonly elseList?: GoNode[];
  /** The else list is one `{{else if …}}` / `{{else with …}}` of the same kind (written as a chain). */
  readonly elseChain: boolean;
  readonly line: number;
}

/** `{{template "name" pipeline}}`. */
export interface TemplateNode {
  readonly kind: 'template';
  readonly name: string;
  readonly pipe?: Pipeline;
  readonly line: number;
}

/** `{{define "name"}}…{{end}}`, at the top level only. */
export interface DefineNode {
  readonly kind: 'define';
  readonly name: string;
  readonly body: GoNode[];
  readonly line: number;
}

/** `{{block "name" pipeline}}…{{end}}`: a define plus a template call in place. */
export interface BlockNode {
  readonly kind: 'block';
  readonly name: string;
  readonly pipe: Pipeline;
  readonly body: GoNode[];
  readonly line: number;
}

export interface LoopControlNode {
  readonly kind: 'break' | 'continue';
  readonly line: number;
}

export interface Pipeline {
  /** Declared or assigned variables, with their `$`. */
  readonly decl: readonly string[];
  readonly isAssign: boolean;
  readonly cmds: readonly Command[];
  readonly line: number;
}

/** One stage of a pipeline: a function or method with its arguments, or a single operand. */
export interface Command {
  readonly args: readonly Operand[];
}

export type Operand =
  | { readonly kind: 'field'; readonly path: readonly string[] }
  | { readonly kind: 'variable'; readonly name: string; readonly path: readonly string[] }
  | { readonly kind: 'chain'; readonly base: Operand; readonly path: readonly string[] }
  | { readonly kind: 'dot' }
  | { readonly kind: 'nil' }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'identifier'; readonly name: string }
  | { readonly kind: 'pipe'; readonly pipe: Pipeline };
