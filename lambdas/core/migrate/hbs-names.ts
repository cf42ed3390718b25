/**
 * Handlebars names for Go variables: `$x` → `x`, unless `x` is read as something else (a helper such as
 * `index`, a built-in such as `each`, a literal) or does not lex as a name (`$1`); then `x_` (or `v1`), made
 * unique within the file.
 */
import { RESERVED_NAMES } from './go-functions';

export interface VariableNames {
  /** `$x` → its handlebars name. */
  readonly map: ReadonlyMap<string, string>;
  /** Every handlebars name in use (paths starting with one are written `this.…`). */
  readonly taken: ReadonlySet<string>;
  /** A fresh name based on `base` (the root variable of a define). */
  fresh(base: string): string;
}

export function variableNamesFor(goNames: Iterable<string>): VariableNames {
  const taken = new Set<string>();
  const map = new Map<string, string>();
  const fresh = (base: string): string => {
    let name = /^\d/.test(base) ? `v${base}` : base;
    while (RESERVED_NAMES.has(name) || taken.has(name)) name = `${name}_`;
    taken.add(name);
    return name;
  };
  const plain = [...goNames].sort();
  // Names that need no change keep them; the others are adjusted afterwards, avoiding every kept name.
  for (const goName of plain) {
    const base = goName.slice(1);
    if (!RESERVED_NAMES.has(base) && !/^\d/.test(base) && !taken.has(base)) map.set(goName, fresh(base));
  }
  for (const goName of plain) if (!map.has(goName)) map.set(goName, fresh(goName.slice(1)));
  return { map, taken, fresh };
}
