/**
 * The scalars and one-line flow collections of fast-yaml.ts: quoted scalars (YAML's escapes), plain scalars resolved
 * by the schema's own implicit types in js-yaml's order (so `1`, `true`, `~`, `0x1F` become what js-yaml makes of
 * them), `[…]` and `{…}` on one line. Anything else throws NOT_FAST, and the caller hands the text to js-yaml.
 */
import type yaml from 'js-yaml';

/** Thrown for whatever fast-yaml.ts leaves to js-yaml. */
export const NOT_FAST: unique symbol = Symbol('not for the fast YAML path');

export function notFast(): never {
  throw NOT_FAST;
}

interface ImplicitType {
  resolve(data: string): boolean;
  construct(data: string): unknown;
}

/** js-yaml's implicit types of a schema (its compiled list, in the order js-yaml tries them). */
export function implicitTypes(schema: yaml.Schema): readonly ImplicitType[] {
  return (schema as unknown as { compiledImplicit: ImplicitType[] }).compiledImplicit;
}

/** A plain scalar as js-yaml composes it: the first implicit type that resolves it, else the text. */
export function resolvePlain(text: string, types: readonly ImplicitType[]): unknown {
  for (const type of types) if (type.resolve(text)) return type.construct(text);
  return text;
}

/** A mapping key as js-yaml stores it: the resolved scalar as a string. */
export function keyOf(value: unknown): string {
  const key = String(value);
  // `__proto__` is stored apart by js-yaml; `<<` merges where the schema has the merge type (and a quoted `<<` is rare).
  if (key === '__proto__' || key === '<<') notFast();
  return key;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_LENGTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/** `"…"` starting at `start` of `line`: its value and the index after the closing quote. */
export function doubleQuoted(line: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  for (;;) {
    const quote = line.indexOf('"', i);
    const slash = line.indexOf('\\', i);
    if (quote < 0) return notFast(); // continues on the next line
    if (slash < 0 || quote < slash) return { value: value + line.slice(i, quote), end: quote + 1 };
    value += line.slice(i, slash);
    const code = line[slash + 1];
    const length = HEX_LENGTH[code];
    if (length) {
      const hex = line.slice(slash + 2, slash + 2 + length);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== length) notFast();
      value += String.fromCodePoint(parseInt(hex, 16));
      i = slash + 2 + length;
    } else {
      const escaped = ESCAPES[code];
      if (escaped === undefined) notFast();
      value += escaped;
      i = slash + 2;
    }
  }
}

/** `'…'` starting at `start` of `line` (`''` is a quote). */
export function singleQuoted(line: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  for (;;) {
    const quote = line.indexOf("'", i);
    if (quote < 0) return notFast();
    value += line.slice(i, quote);
    if (line[quote + 1] !== "'") return { value, end: quote + 1 };
    value += "'";
    i = quote + 2;
  }
}

/** `[…]` or `{…}` starting at `start` of `line`, all on that line. */
export function flowCollection(
  line: string,
  start: number,
  types: readonly ImplicitType[],
): { value: unknown; end: number } {
  return new FlowParser(line, types).collection(start);
}

const FLOW_PLAIN = /[^,[\]{}#\s](?:[^,[\]{}:#]|:(?=[^\s,[\]{}])|#(?<=\S#))*/y;

class FlowParser {
  private i = 0;

  constructor(
    private readonly line: string,
    private readonly types: readonly ImplicitType[],
  ) {}

  collection(start: number): { value: unknown; end: number } {
    this.i = start;
    const value = this.node();
    return { value, end: this.i };
  }

  private node(): unknown {
    this.spaces();
    const c = this.line[this.i];
    if (c === '[') return this.sequence();
    if (c === '{') return this.mapping();
    if (c === '"' || c === "'") {
      const { value, end } = c === '"' ? doubleQuoted(this.line, this.i) : singleQuoted(this.line, this.i);
      this.i = end;
      return value;
    }
    if (c === undefined || '!&*|>%@`?-:'.includes(c)) notFast();
    FLOW_PLAIN.lastIndex = this.i;
    const match = FLOW_PLAIN.exec(this.line);
    if (!match) return notFast();
    this.i = FLOW_PLAIN.lastIndex;
    return resolvePlain(match[0].trimEnd(), this.types);
  }

  private sequence(): unknown[] {
    const items: unknown[] = [];
    this.i++;
    for (;;) {
      this.spaces();
      if (this.line[this.i] === ']') break;
      items.push(this.node());
      this.spaces();
      if (this.line[this.i] === ',') this.i++;
      else if (this.line[this.i] !== ']') notFast();
    }
    this.i++;
    return items;
  }

  private mapping(): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.i++;
    for (;;) {
      this.spaces();
      if (this.line[this.i] === '}') break;
      const c = this.line[this.i];
      if (c === '[' || c === '{') notFast();
      const key = keyOf(this.node());
      this.spaces();
      let value: unknown = null;
      if (this.line[this.i] === ':') {
        this.i++;
        this.spaces();
        if (this.line[this.i] !== ',' && this.line[this.i] !== '}') value = this.node();
      }
      if (Object.prototype.hasOwnProperty.call(result, key)) notFast();
      result[key] = value;
      this.spaces();
      if (this.line[this.i] === ',') this.i++;
      else if (this.line[this.i] !== '}') notFast();
    }
    this.i++;
    return result;
  }

  private spaces(): void {
    while (this.line[this.i] === ' ') this.i++;
  }
}
