/**
 * Generated YAML texts for fast-yaml.test.ts (seeded: the same on every run): documents of block mappings and
 * sequences in random layouts (indentation widths, compact items, sequences at their key's indentation), scalars of
 * every kind js-yaml resolves (numbers in all bases, booleans, nulls, quoted with escapes, plain with `:` and `#`,
 * flow collections, block scalars, multi-line plain and single-quoted scalars), comments, blank lines and document
 * markers; and the same texts mutated a character or a line at a time, so most of them are near misses: almost
 * valid, or valid with a subtly different meaning.
 */

export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// prettier-ignore
const SCALARS = [
  'a', 'abc def', 'x y  z', '1', '-1', '+12', '0', '00', '017', '0o17', '0x1F', '0b101', '1_000', '1.5', '.5', '1e3',
  '-1.5e-3', '1.', '.inf', '-.Inf', '+.INF', '.nan', '.NaN', 'true', 'True', 'TRUE', 'tRue', 'false', 'yes', 'no',
  'on', 'null', 'Null', 'NULL', '~', '2010-09-09', '2010-09-09T10:00:00Z', ':', '::', 'a:b', 'a: b', 'a:', 'a #b',
  'a#b', '#a', '- a', '-a', '-', '--', '---', '...', '?', '? a', '?a', '[a]', '[]', '{}', '{a: 1}', '[a, b]',
  '[a, [b, c]]', '{a: [1, 2], b: {c: d}}', '{a, b: }', '[a: b]', '[a, b', '{a: 1', '[a]]', '"x"', '""', "''",
  '"a\\nb"', '"\\u00e9\\x41\\U0001F600"', '"\\q"', '"\\t\\"\\\\ \\/"', '"a\\', "'it''s'", "'a", '"a', "'a' b",
  '"a" # c', "'a' # c", '|', '|-', '|+', '>', '>-', '|2', '&a x', '*a', '!!str 1', '!x y', '%x', '@x', '`x', 'a,b',
  'a]', 'a}', 'a ', 'http://x:80/y', 'a\tb', '<<', '=', 'é', '\u{1F600}', 'a\u2028b', '0x', '1:2', '12:30:00', '-0',
  '+.5', '0.0', '1e', 'e1', ' a', '{{x}}', '"a\nb"', 'a\n b', '[a,\nb]',
] as const;

// prettier-ignore
const KEYS = [
  'a', 'b', 'c', 'key', 'a b', 'a.b/c', '"q"', "'s'", '"a\\"b"', "'a''b'", '1', '1.0', 'true', 'null', '~', '<<',
  'a:b', '-a', '? x', 'x#y', '[a]', '{a}', '"a: b"', 'a ', '__proto__', 'é', '""', '*a', '&a b', '!t k',
] as const;

const COMMENTS = ['', '', '', ' # c', ' #', '  # c: d', '# not a comment', '\t# tab'];

/** What rendered manifests are made of, for texts that mostly stay valid. */
// prettier-ignore
const TAME_SCALARS = [
  'a', 'abc def', 'nginx:1.25', 'http://x:80/y', '1', '-1', '0', '1.5', '100m', '2Gi', 'true', 'false', 'null', '~',
  '"x"', '"a b"', '""', "'s'", "'it''s'", '"\\d+"', '"\u00e9"', '[]', '{}', '[a, b]', '{a: 1, b: "c"}', '2010-09-09',
  '0755', '0x1F', 'a-b_c.d', '/path/to', '"{{x}}"', 'a # c', '"a" # c', "'#x'", '"a: b"', 'key=value', '*', '.5',
] as const;
// prettier-ignore
const TAME_KEYS = [
  'a', 'b', 'name', 'image', 'app.kubernetes.io/name', '"quoted"', "'single'", 'x-y', 'a_b', '1',
] as const;

/** A generated text; `tame` ones use the scalars and keys of manifests only, and so are mostly valid. */
export function generatedYaml(random: () => number, tame = false): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const scalars: readonly string[] = tame ? TAME_SCALARS : SCALARS;
  const keys: readonly string[] = tame ? TAME_KEYS : KEYS;
  const chance = (p: number) => random() < p;
  const width = () => pick([1, 2, 2, 2, 3, 4]);

  /** A block scalar's header and body lines at `indent`. */
  const blockScalar = (indent: number): string[] => {
    const header = pick(['|', '|', '|-', '|+', '>', '>-', '|2', '| # c', '|-\t']);
    const lines: string[] = [header];
    const pad = ' '.repeat(Math.max(0, indent + (chance(0.1) ? 0 : width())));
    for (let i = Math.floor(random() * 4) + (chance(0.9) ? 1 : 0); i > 0; i--) {
      if (chance(0.2)) lines.push(pick(['', ' ', pad, `${pad}  `]));
      else
        lines.push(
          `${pad}${chance(0.2) ? '  ' : ''}${pick(['line', 'a: b', '# c', '- x', '"q"', '  deeper', 'x\ty'])}`,
        );
    }
    if (chance(0.3)) lines.push(pick(['', '', pad]));
    return lines;
  };

  /** A scalar written after `key: ` or `- `, maybe continued on more lines indented past `indent`. */
  const scalar = (indent: number): string[] => {
    if (chance(0.1)) return blockScalar(indent);
    const first = pick(scalars) + (tame ? '' : pick(COMMENTS));
    if (!chance(0.08))
      return first.split('\n').map((line, i) => (i ? ' '.repeat(Math.max(0, indent + 1)) + line : line));
    const pad = ' '.repeat(Math.max(0, indent + (chance(0.8) ? width() : 0)));
    const more = Array.from({ length: 1 + Math.floor(random() * 2) }, () =>
      pick(['', `${pad}more`, `${pad}x: y`, `${pad}# c`, `${pad}'`, `${pad}z'`, `${pad}b'' c`, `${pad}- d`]),
    );
    return [pick(["'start", 'plain', 'two words', '"dq']), ...more];
  };

  const node = (indent: number, depth: number): { inline?: string[]; block?: string[] } => {
    const r = random();
    if (depth <= 0 || r < 0.45) return { inline: scalar(indent) };
    if (r < 0.75) return { block: mapping(indent + width(), depth - 1) };
    return { block: sequence(indent + (chance(0.3) ? 0 : width()), depth - 1) };
  };

  const mapping = (indent: number, depth: number): string[] => {
    const pad = ' '.repeat(indent);
    const lines: string[] = [];
    for (let i = 1 + Math.floor(random() * 4); i > 0; i--) {
      if (chance(0.1)) lines.push(pick(['', `${pad}# comment`, '#', '  ', `${pad} # c`]));
      const key = `${pad}${pick(keys)}${chance(0.05) ? ' ' : ''}:`;
      const value = node(indent, depth);
      if (value.inline) lines.push(`${key} ${value.inline[0]}`, ...value.inline.slice(1));
      else lines.push(key + pick(COMMENTS), ...(value.block ?? []));
    }
    return lines;
  };

  const sequence = (indent: number, depth: number): string[] => {
    const pad = ' '.repeat(indent);
    const lines: string[] = [];
    for (let i = 1 + Math.floor(random() * 4); i > 0; i--) {
      const dash = `${pad}-${pick([' ', ' ', ' ', '  ', '   '])}`;
      if (chance(0.3) && depth > 0) {
        // An item that is a mapping starting on the dash's line.
        const inner = mapping(dash.length, depth - 1);
        lines.push(dash + inner[0].slice(dash.length), ...inner.slice(1));
        continue;
      }
      const value = node(indent, depth);
      if (value.inline) lines.push(dash + value.inline[0], ...value.inline.slice(1));
      else lines.push(`${pad}-${pick(COMMENTS)}`, ...(value.block ?? []));
    }
    return lines;
  };

  const documents: string[] = [];
  for (let d = chance(0.8) ? 1 : 1 + Math.floor(random() * 3); d > 0; d--) {
    const marker = documents.length > 0 || chance(0.3) ? [pick(['---', '---', '--- # c', '---  '])] : [];
    const root = chance(0.7) ? mapping(0, 3) : chance(0.7) ? sequence(0, 3) : scalar(-1);
    documents.push([...marker, ...root].join('\n'));
  }
  return documents.join('\n') + pick(['\n', '\n', '\n', '', '\n\n', '\n# end\n', '\n...\n', '\n---\n']);
}

/** `text` with one to three small edits: a character deleted or inserted, a line repeated, dropped or re-indented. */
export function mutatedYaml(text: string, random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  let result = text;
  for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
    const at = Math.floor(random() * (result.length + 1));
    const lines = result.split('\n');
    const line = Math.floor(random() * lines.length);
    switch (pick(['delete', 'insert', 'insert', 'repeat', 'drop', 'indent', 'dedent'])) {
      case 'delete':
        result = result.slice(0, at) + result.slice(at + 1);
        break;
      case 'insert':
        result =
          result.slice(0, at) +
          pick([
            ' ',
            ':',
            '-',
            '#',
            "'",
            '"',
            '\t',
            '[',
            ']',
            '{',
            '}',
            ',',
            '|',
            '>',
            '\n',
            '!',
            '&',
            '*',
            '?',
            '\\',
            'x',
            '0',
            '.',
            '\r',
            '\x01',
            '\uFEFF',
            '\x85',
          ]) +
          result.slice(at);
        break;
      case 'repeat':
        lines.splice(line, 0, lines[line]);
        result = lines.join('\n');
        break;
      case 'drop':
        lines.splice(line, 1);
        result = lines.join('\n');
        break;
      case 'indent':
        lines[line] = ` ${lines[line]}`;
        result = lines.join('\n');
        break;
      case 'dedent':
        lines[line] = lines[line].replace(/^ /, '');
        result = lines.join('\n');
        break;
    }
  }
  return result;
}
