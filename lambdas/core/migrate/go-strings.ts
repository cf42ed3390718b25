/** Go string and character literals (`"a\tb"`, `` `raw` ``, `'x'`) to their values, as Go's strconv.Unquote does. */
import type { TokenStream } from './go-token-stream';

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

const HEX_ESCAPES: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

interface Decoded {
  /** Code points or raw bytes (\x and octal escapes are bytes in Go). */
  readonly parts: (string | number)[];
}

function decode(body: string, quote: string, fail: (message: string) => never): Decoded {
  const parts: (string | number)[] = [];
  for (let i = 0; i < body.length;) {
    const c = body[i];
    if (c !== '\\') {
      if (c === quote) fail(`unescaped ${quote} in a quoted literal`);
      const codePoint = body.codePointAt(i) ?? 0;
      parts.push(String.fromCodePoint(codePoint));
      i += codePoint > 0xffff ? 2 : 1;
      continue;
    }
    const e = body[i + 1];
    if (
      e !== undefined &&
      SIMPLE_ESCAPES[e] !== undefined &&
      (e !== "'" || quote === "'") &&
      (e !== '"' || quote === '"')
    ) {
      parts.push(SIMPLE_ESCAPES[e]);
      i += 2;
    } else if (e !== undefined && HEX_ESCAPES[e] !== undefined) {
      const digits = body.slice(i + 2, i + 2 + HEX_ESCAPES[e]);
      if (!new RegExp(`^[0-9a-fA-F]{${HEX_ESCAPES[e]}}$`).test(digits)) fail(`invalid \\${e} escape`);
      const value = parseInt(digits, 16);
      if (e === 'x') parts.push(value);
      else if (value > 0x10ffff || (value >= 0xd800 && value < 0xe000)) fail(`invalid Unicode code point in \\${e}`);
      else parts.push(String.fromCodePoint(value));
      i += 2 + HEX_ESCAPES[e];
    } else if (e !== undefined && /[0-7]/.test(e)) {
      const digits = body.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(digits) || parseInt(digits, 8) > 255) fail('invalid octal escape');
      parts.push(parseInt(digits, 8));
      i += 4;
    } else {
      fail(`unknown escape sequence \\${e ?? ''}`);
    }
  }
  return { parts };
}

/** Joins code points and bytes into a string; bytes must form valid UTF-8 together with their neighbours. */
function assemble(parts: readonly (string | number)[], fail: (message: string) => never): string {
  const bytes: number[] = [];
  for (const part of parts) {
    if (typeof part === 'number') bytes.push(part);
    else bytes.push(...Buffer.from(part, 'utf8'));
  }
  const buffer = Buffer.from(bytes);
  const text = buffer.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(buffer)) fail('a string with bytes that are not UTF-8 cannot be converted');
  return text;
}

export function unquoteGoString(literal: string, ts: TokenStream, line: number): string {
  const fail = (message: string): never => ts.fail(message, line);
  if (literal.startsWith('`')) return literal.slice(1, -1).replaceAll('\r', '');
  return assemble(decode(literal.slice(1, -1), '"', fail).parts, fail);
}

/** A character constant's code point (Go gives templates a rune, an integer). */
export function unquoteGoChar(literal: string, ts: TokenStream, line: number): number {
  const fail = (message: string): never => ts.fail(message, line);
  const { parts } = decode(literal.slice(1, -1), "'", fail);
  if (parts.length !== 1) fail(`malformed character constant ${literal}`);
  const part = parts[0];
  return typeof part === 'number' ? part : (part.codePointAt(0) ?? 0);
}
