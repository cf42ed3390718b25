// fast-yaml.ts gives js-yaml's documents, or hands the text to js-yaml (and so gives its documents or its error), for
// every YAML file of the repository, kubernetes-on-aws's files when KOA_DIR names a checkout, hand-picked forms and
// generated texts (seeded: the same on every run), under each schema the project parses with.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import yaml from 'js-yaml';
import { fastLoadAll } from '../../../lambdas/core/config/fast-yaml';
import { DATA_SCHEMA, loadAllLastKeyWins } from '../../../lambdas/core/config/yaml-data';
import { loadYaml } from '../../../lambdas/core/config/yaml-error';
import { generatedYaml, mutatedYaml, seeded } from './yaml-cases';

const ROOT = join(__dirname, '..', '..', '..');
const SCHEMAS: readonly (readonly [string, yaml.Schema])[] = [
  ['data', DATA_SCHEMA],
  ['failsafe', yaml.FAILSAFE_SCHEMA],
  ['core', yaml.CORE_SCHEMA],
  ['default', yaml.DEFAULT_SCHEMA],
];

type Outcome = { documents: unknown[] } | { error: string };

function outcome(load: () => unknown[]): Outcome {
  try {
    return { documents: load() };
  } catch (error) {
    return { error: String(error) };
  }
}

/** The texts (with the schema's name) where the fast path answers differently from js-yaml, and how many it read. */
function compare(texts: readonly string[]): { differing: string[]; fast: number; total: number } {
  const differing: string[] = [];
  let fast = 0;
  for (const text of texts)
    for (const [name, schema] of SCHEMAS) {
      const expected = outcome(() => yaml.loadAll(text, undefined, { schema }));
      const answer = fastLoadAll(text, schema);
      if (answer !== undefined) fast++;
      const actual = outcome(() => answer ?? yaml.loadAll(text, undefined, { schema }));
      if (!isDeepStrictEqual(actual, expected)) differing.push(`${name}: ${JSON.stringify(text)}`);
    }
  return { differing, fast, total: texts.length * SCHEMAS.length };
}

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .filter((entry) => !/(^|\/)(node_modules|\.git|\.build|cdk\.out)(\/|$)/.test(entry.parentPath.slice(dir.length)))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}

describe('fastLoadAll: js-yaml loadAll, or nothing', () => {
  it('on every YAML file of the repository, many of them read here', () => {
    const texts = ['examples', 'test', 'statemachines', 'docs'].flatMap((dir) => yamlFilesUnder(join(ROOT, dir)));
    const { differing, fast, total } = compare(texts);
    expect(texts.length).toBeGreaterThan(150);
    expect(differing).toEqual([]);
    expect(fast).toBeGreaterThan(total / 3); // many are templates, most not YAML before rendering
  });

  const koa = process.env.KOA_DIR;
  (koa ? it : it.skip)('on every YAML file of kubernetes-on-aws (KOA_DIR), templates included', () => {
    const texts = yamlFilesUnder(koa as string);
    const { differing, fast } = compare(texts);
    expect(texts.length).toBeGreaterThan(250);
    expect(differing).toEqual([]);
    expect(fast).toBeGreaterThan(texts.length);
  });

  it.each([
    [
      'a manifest',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels: {app: x, "a/b": "1"}\ndata:\n  k: v\n',
    ],
    ['documents', '---\na: 1\n---\n---\n- b\n...\n--- # c\nc\n'],
    [
      'scalars of every type',
      'a: [1, -1, 0x1F, 0o17, 017, 1_000, 1.5, .inf, -.Inf, .nan, true, True, yes, null, ~, 2010-09-09]\n',
    ],
    ['quoted scalars', "a: \"x\\ty\\u00e9\\U0001F600\\x41\"\nb: 'it''s'\nc: \"a # b\"\nd: 'x\n  y'\n"],
    ['block scalars', 'a: |\n  x\n\n  y\n\nb: |-\n   z\nc: |+\n  w\n\n\nd: >\n  folded\n'],
    ['multi-line plain scalars', 'a: one\n  two\n\n  three\nb: x: y\n'],
    ['sequences', 'a:\n- 1\n-   - 2\n    - 3\n- k: v\n  l: w\n-\n- - -\n'],
    ['an empty item before a less indented one', '- - a\n  -\n- c\n'],
    ['a compact sequence with an empty item', '- -\n- c\n'],
    ['merges', 'a: {<<: {c: 1}, d: 2}\nb:\n  <<: {e: 3}\n'],
    ['anchors and tags', 'a: &x 1\nb: *x\nc: !!str 2\n'],
    ['__proto__', '__proto__: 1\n'],
    ['repeated keys', 'a: 1\na: 2\n'],
    ['flow mappings with empty keys', '{: 1, b: 2}\n---\n{a,: 1}\n'],
    ['a multi-line quoted key', "'s\ningle': 's'\n"],
    ['a document marker in a quoted scalar', "a: 'x\n---\n  y'\n"],
    ['a comment ending a plain scalar', '-- # c\n"d\n'],
    ['three dashes and more', '---{\n""\n'],
    ['Unicode spaces', 'a : a\u2028 #\nb: \u00a0x\n'],
    ['a byte-order mark', '\uFEFFa: 1\n'],
    ['CR LF', 'a: 1\r\nb: 2\r\n'],
    ['tabs', 'a:\t1\nb:\n\t- c\n'],
    ['control characters', 'a: "\x01"\n# \x02\n'],
    ['comments only', '# a\n\n# b\n'],
    ['nothing', ''],
    ['bad indentation', 'a: 1\n  b: 2\n'],
    ['an unclosed flow collection', 'a: [1, 2\n'],
  ])('on %s', (_, text) => {
    expect(compare([text]).differing).toEqual([]);
  });

  it('on 3,000 generated texts, half of them mutated, many of them read here', () => {
    const random = seeded(31);
    const texts = Array.from({ length: 3000 }, (_, i) => {
      const text = generatedYaml(random, i % 2 === 0);
      return i % 4 < 2 ? text : mutatedYaml(text, random);
    });
    const { differing, fast } = compare(texts);
    expect(differing).toEqual([]);
    expect(fast).toBeGreaterThan(800);
  });
});

describe('the fast path in the loaders', () => {
  it('gives loadAllLastKeyWins and loadYaml the same answers and errors as before', () => {
    const text = 'kind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: "1"\n';
    expect(fastLoadAll(text, DATA_SCHEMA)).toBeDefined();
    expect(loadAllLastKeyWins(text, 'f').documents).toEqual(yaml.loadAll(text, undefined, { schema: DATA_SCHEMA }));
    expect(loadYaml(text, 'f')).toEqual(yaml.load(text, { schema: DATA_SCHEMA }));
    expect(() => loadYaml('a: 1\n---\nb: 2\n', 'f.yaml')).toThrow(/^f\.yaml: invalid YAML: expected a single document/);
    expect(loadYaml('# nothing\n', 'f')).toBe(yaml.load('# nothing\n'));
    expect(loadAllLastKeyWins('a: 1\na: 2\n', 'f')).toEqual({
      documents: [{ a: 2 }],
      duplicates: [{ key: 'a', line: 2 }],
    });
  });
});
