// handlebars-parser.ts gives handlebars' own AST (locations, strip flags, whitespace control included) or handlebars'
// own error, for every template of the repository's examples, for hand-picked forms, and for generated templates
// (seeded: the same on every run).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import Handlebars from 'handlebars';
import { parseHandlebars, parseWithoutProcessing } from '../../../lambdas/adapters/templating/handlebars-parser';

const ROOT = join(__dirname, '..', '..', '..');
const OPTIONS = [{}, { ignoreStandalone: true }];

type Outcome = { ast: unknown } | { error: string };

function outcome(parse: () => unknown): Outcome {
  try {
    return { ast: parse() };
  } catch (error) {
    return { error: String(error) };
  }
}

/** Both parsers on `input`: the same AST (prototypes included) or the same error, with either option. */
function sameAsHandlebars(input: string): boolean {
  return OPTIONS.every((options) =>
    isDeepStrictEqual(
      outcome(() => parseHandlebars(input, options)),
      outcome(() => Handlebars.parse(input, options)),
    ),
  );
}

function templatesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ya?ml|tmpl|hbs)$/.test(entry.name))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}

describe('parseHandlebars: the AST of Handlebars.parse', () => {
  it('on every template of the examples and the migration fixtures, the valid ones all by this parser', () => {
    // examples/clm-config and the fixtures are Go templates: handlebars refuses most, and so must this parser.
    const templates = [...templatesUnder('examples'), ...templatesUnder('test/core/migrate/fixtures')];
    const valid = templates.filter((t) => 'ast' in outcome(() => Handlebars.parse(t)));
    expect(templates.length).toBeGreaterThan(60);
    expect(valid.length).toBeGreaterThan(40);
    expect(templates.filter((t) => !sameAsHandlebars(t))).toEqual([]);
    expect(valid.filter((t) => parseWithoutProcessing(t) === undefined)).toEqual([]);
  });

  it.each([
    ['plain text', 'kind: ConfigMap\nmetadata: {name: x}\n'],
    ['paths', '{{a}} {{a.b.c}} {{a/b}} {{this}} {{this.a}} {{../a}} {{../../a.b}} {{.}} {{@root.a}} {{@index}}'],
    ['bracket segments', '{{[a b]}} {{a.[b.c]}} {{a.[this]}} {{[a\\]b]}}'],
    ['literals', '{{f "s" \'t\' "q\\"x" 1 -2 3.5 true false null undefined}}'],
    ['hash and subexpressions', '{{f a b=(g c d=1) e="x" f=(h (i j))}}'],
    ['unescaped', '{{{a}}} {{&b}} {{~{c}~}}'],
    ['whitespace control', 'a  {{~b~}}  c\n  {{~#if x~}}\n  y\n  {{~else~}}\n  z\n  {{~/if~}}\n'],
    ['standalone blocks', 'a:\n  {{#each items}}\n  - {{this}}\n  {{/each}}\nb: 1\n'],
    ['else chains', '{{#if a}}1{{else if b}}2{{else if c}}3{{else}}4{{/if}}'],
    ['strip on chains', '{{#if a~}} 1 {{~else if b~}} 2 {{~^~}} 3 {{~/if}}'],
    ['inverse blocks', '{{^a}}x{{/a}}{{^a}}x{{else}}y{{/a}}{{#a}}x{{^}}y{{/a}}'],
    ['comments', '{{! short }}{{!-- long }} with }} inside --}}{{~!-- strip --~}}\n{{!}}'],
    ['block parameters', '{{#each items as |item index|}}{{item}}{{index}}{{/each}}'],
    ['partials and partial blocks', '{{> p}}{{> p a b=c}}{{> (f)}}{{#> layout}}x{{/layout}}'],
    ['decorators', '{{#*inline "name"}}x{{/inline}}{{* d}}'],
    ['line endings', 'a\r\nb{{x}}\rc\n{{#if y}}\r\n  z\r\n{{/if}}\r\n'],
    ['else as a word', '{{else-x}}{{elsewhere}}{{# else}}{{/ else}}'],
    ['raw blocks (handlebars parses them)', '{{{{raw}}}}{{x}}{{{{/raw}}}}'],
    ['escaped mustaches (handlebars parses them)', 'a \\{{b}} \\\\{{c}}'],
    ['unclosed block', '{{#if a}}x'],
    ['mismatched close', '{{#if a}}x{{/each}}'],
    ['stray close', 'a}}b{{/if}}'],
    ['unterminated mustache', '{{a'],
    ['invalid path', '{{a/../b}}'],
    ['inverse on a decorator', '{{#*d}}x{{else}}y{{/d}}'],
    ['bracket block parameter', '{{#each a as |[b]|}}{{/each}}'],
  ])('on %s', (what, input) => {
    expect(sameAsHandlebars(input)).toBe(true);
    // Valid input is parsed here; only what handlebars must parse, and errors, are handed to it.
    const handedOver = what.includes('(handlebars parses them)') || 'error' in outcome(() => Handlebars.parse(input));
    expect(parseWithoutProcessing(input) === undefined).toBe(handedOver);
  });

  it('on 1,500 generated templates', () => {
    const random = seeded(31);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const names = ['a', 'b.c', '../d', 'this', '@root.e', '[f g]', '@index', 'else', 'true', '1', '"s"', "'t'", 'null'];
    const expression = (depth: number): string => {
      const parts = [pick(names)];
      for (let i = Math.floor(random() * 3); i > 0; i--)
        parts.push(depth > 0 && random() < 0.3 ? `(${expression(depth - 1)})` : pick(names));
      if (random() < 0.3) parts.push(`k=${depth > 0 && random() < 0.3 ? `(${expression(depth - 1)})` : pick(names)}`);
      return parts.join(pick([' ', '  ', '\n']));
    };
    const tilde = () => (random() < 0.2 ? '~' : '');
    const text = () => pick(['', 'x', ' ', '\n', '  y: 1\n', '\r\n', '- ', '{', '}', '\\', '|']);
    const template = (depth: number): string => {
      let out = '';
      for (let i = Math.floor(random() * 5); i > 0; i--) {
        out += text();
        const block = pick(['if', 'each', 'with', 'unless']);
        const r = random();
        if (r < 0.45) out += `{{${tilde()}${pick(['', '&', '{'])}${expression(2)}${pick(['', '}'])}${tilde()}}}`;
        else if (r < 0.6 && depth > 0)
          out +=
            `{{${tilde()}#${block} ${expression(1)}${random() < 0.2 ? ' as |x y|' : ''}${tilde()}}}${template(depth - 1)}` +
            (random() < 0.4
              ? `{{${tilde()}else${random() < 0.5 ? ` if ${expression(1)}` : ''}${tilde()}}}${template(depth - 1)}`
              : '') +
            `{{${tilde()}/${random() < 0.95 ? block : 'other'}${tilde()}}}`;
        else if (r < 0.7) out += `{{${tilde()}!${pick(['', '--'])} c }${pick(['', '--'])}}}`;
        else if (r < 0.75) out += `{{${tilde()}^${tilde()}}}`;
        else if (r < 0.8) out += `{{> ${expression(0)}}}`;
        else out += text();
      }
      return out;
    };
    const generated = Array.from({ length: 1500 }, () => template(3));
    expect(generated.filter((t) => !sameAsHandlebars(t))).toEqual([]);
    // Most are valid and parsed here, not handed to handlebars.
    expect(generated.filter((t) => parseWithoutProcessing(t) !== undefined).length).toBeGreaterThan(500);
  });
});

/** A small deterministic generator (mulberry32). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
