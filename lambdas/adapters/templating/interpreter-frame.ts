/**
 * The evaluation state of the template interpreter: the context stack (`this`, `../`), the `@data` frame,
 * and variables. Variables are block parameters (`as |x i|`) and `{{let x=…}}` declarations; both live in
 * scopes, one per block run, so a `let` lasts until the end of the block it is in (as a Go template
 * variable lasts until the `{{end}}` of its control structure), and `{{set x=…}}` changes the nearest
 * variable of that name wherever it was declared.
 */
export interface DataFrame {
  readonly [key: string]: unknown;
  readonly _parent?: DataFrame;
}

export interface Scope {
  readonly parent?: Scope;
  /** Created on the first declaration. */
  vars?: Map<string, { value: unknown }>;
}

export interface Frame {
  readonly context: unknown;
  /** depths[0] is the current context, depths[1] its parent context (`../`), … */
  readonly depths: readonly unknown[];
  readonly data: DataFrame;
  readonly scope: Scope;
}

export const MISSING = Symbol('missing');

export function childScope(parent: Scope, names: readonly string[] = [], values: readonly unknown[] = []): Scope {
  const scope: Scope = { parent };
  names.forEach((name, i) => declare(scope, name, values[i]));
  return scope;
}

export function declare(scope: Scope, name: string, value: unknown): void {
  (scope.vars ??= new Map()).set(name, { value });
}

function slot(scope: Scope | undefined, name: string): { value: unknown } | undefined {
  for (let s = scope; s; s = s.parent) {
    const found = s.vars?.get(name);
    if (found) return found;
  }
  return undefined;
}

/** The variable's value, or MISSING. */
export function variable(scope: Scope, name: string): unknown {
  const found = slot(scope, name);
  return found ? found.value : MISSING;
}

/** Changes the nearest variable named `name`; false when there is none. */
export function assign(scope: Scope, name: string, value: unknown): boolean {
  const found = slot(scope, name);
  if (found) found.value = value;
  return Boolean(found);
}

/** Handlebars' isEmpty: falsy but not 0, or an empty list. */
export function isEmpty(value: unknown): boolean {
  return (!value && value !== 0) || (Array.isArray(value) && value.length === 0);
}

/** An own property (or a list's length), or MISSING: nothing is read from prototypes. */
export function ownValue(base: unknown, key: string): unknown {
  if (base === null || base === undefined || (typeof base !== 'object' && typeof base !== 'function')) return MISSING;
  if (Array.isArray(base) && key === 'length') return base.length;
  return Object.prototype.hasOwnProperty.call(base, key) ? (base as Record<string, unknown>)[key] : MISSING;
}
