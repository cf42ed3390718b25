/**
 * Go-style value printing: `print`, `println`, `printf` (a small subset of Go's fmt verbs) and how a value reads in a message.
 * Lists print as `[a b]` and maps as `map[k:v]` with sorted keys, as Go's fmt does.
 */
import { describe, helperError, isPlainMap } from './args';

/** Go's `%v` of a template value. */
export function goString(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `[${value.map(goString).join(' ')}]`;
  if (isPlainMap(value)) {
    return `map[${Object.keys(value)
      .sort()
      .map((k) => `${k}:${goString(value[k])}`)
      .join(' ')}]`;
  }
  return String(value);
}

/** Go's `fmt.Sprint`: operands are joined with a space when neither side is a string. */
export function print(...args: unknown[]): string {
  let out = '';
  args.forEach((arg, i) => {
    if (i > 0 && typeof arg !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += goString(arg);
  });
  return out;
}

/** Go's `fmt.Sprintln`: operands always joined with a space, and a newline at the end. */
export function println(...args: unknown[]): string {
  return `${args.map(goString).join(' ')}\n`;
}

const VERB = /%([-+0 #]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])/g;

/**
 * `printf format args…`: the verbs `%s %v %d %q %x %X %f %t %%`, with flags `-` (left-align), `0` (zero pad),
 * `+` (sign), a width and, for `%f`, a precision. A wrong verb, a wrong type, or a missing or extra argument
 * is an error (Go would print `%!d(string=…)` into the output instead).
 */
export function printf(format: unknown, ...args: unknown[]): string {
  if (typeof format !== 'string') throw helperError(`format must be a string, got ${describe(format)}`);
  let next = 0;
  const out = format.replace(
    VERB,
    (_match, flags: string, width: string | undefined, precision: string | undefined, verb: string) => {
      if (verb === '%') return '%';
      if (next >= args.length)
        throw helperError(`format ${JSON.stringify(format)} has more verbs than arguments (${args.length})`);
      const arg = args[next++];
      const body = formatVerb(verb, arg, flags, precision === undefined ? undefined : Number(precision));
      return pad(body, width === undefined ? 0 : Number(width), flags);
    },
  );
  if (next < args.length)
    throw helperError(`format ${JSON.stringify(format)} uses ${next} of ${args.length} arguments`);
  return out;
}

function formatVerb(verb: string, arg: unknown, flags: string, precision: number | undefined): string {
  const sign = (n: number | bigint, text: string): string => (flags.includes('+') && n >= 0 ? `+${text}` : text);
  switch (verb) {
    case 's':
    case 'v':
      return goString(arg);
    case 'q':
      if (typeof arg !== 'string') throw helperError(`%q needs a string, got ${describe(arg)}`);
      return JSON.stringify(arg);
    case 't':
      if (typeof arg !== 'boolean') throw helperError(`%t needs a boolean, got ${describe(arg)}`);
      return String(arg);
    case 'd':
      if (!isInteger(arg)) throw helperError(`%d needs an integer, got ${describe(arg)}`);
      return sign(arg, String(arg));
    case 'x':
    case 'X': {
      let text: string;
      if (isInteger(arg)) text = (arg < 0 ? '-' : '') + (arg < 0 ? -arg : arg).toString(16);
      else if (typeof arg === 'string') text = Buffer.from(arg, 'utf8').toString('hex');
      else throw helperError(`%${verb} needs an integer or a string, got ${describe(arg)}`);
      return verb === 'X' ? text.toUpperCase() : text;
    }
    case 'f':
      if (typeof arg !== 'number') throw helperError(`%f needs a number, got ${describe(arg)}`);
      return sign(arg, arg.toFixed(precision ?? 6));
    default:
      throw helperError(`printf verb %${verb} is not supported (supported: %s %v %d %q %x %X %f %t %%)`);
  }
}

function isInteger(value: unknown): value is number | bigint {
  return (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
}

function pad(text: string, width: number, flags: string): string {
  if (text.length >= width) return text;
  if (flags.includes('-')) return text.padEnd(width, ' ');
  if (flags.includes('0') && /^[-+]?[0-9a-fA-F.]+$/.test(text)) {
    const signChar = /^[-+]/.test(text) ? text[0] : '';
    return signChar + text.slice(signChar.length).padStart(width - signChar.length, '0');
  }
  return text.padStart(width, ' ');
}
