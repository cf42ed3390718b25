/** Handlebars semantics the interpreter must keep (handlebars 4.7 in strict mode, no escaping). */
import Handlebars from 'handlebars';
import { interpret } from '../../../lambdas/adapters/templating/template-interpreter';
import type { InlineHelper } from '../../../lambdas/adapters/templating/template-interpreter';
import { TemplateRenderError } from '../../../lambdas/shared/errors';

const DATA = {
  name: 'kube-1',
  zero: 0,
  empty: '',
  emptyList: [],
  emptyMap: {},
  pools: [
    { Name: 'a', Zones: ['1a', '1b'] },
    { Name: 'b', Zones: [] },
  ],
  items: { x: '1', y: '2' },
  nested: { inner: { value: 'deep' } },
  flag: true,
};

const helpers: Record<string, InlineHelper> = {
  upper: (args) => String(args[0]).toUpperCase(),
  pair: (args, hash) => `${String(args[0])}/${String(hash.sep ?? '')}`,
  list: (args) => args,
};

function render(template: string, data: unknown = DATA): string {
  return interpret(Handlebars.parse(template), data, { file: 't.yaml', helper: (name) => helpers[name] });
}

function renderError(template: string): TemplateRenderError {
  try {
    render(template);
  } catch (error) {
    if (error instanceof TemplateRenderError) return error;
    throw error;
  }
  throw new Error(`expected ${template} to fail`);
}

describe('template interpreter: output', () => {
  it('prints values without escaping, null as nothing, lists joined with commas', () => {
    expect(render('{{name}} <&> {{nested.inner.value}} [{{list "a" "b"}}]')).toBe('kube-1 <&> deep [a,b]');
    expect(render('{{{name}}} {{this.name}} {{./name}}')).toBe('kube-1 kube-1 kube-1');
    expect(render('[{{lookup items "missing"}}]{{lookup items "x"}}')).toBe('[]1');
  });

  it('keeps comments out and applies whitespace control and standalone lines as handlebars does', () => {
    expect(render('a {{! note }}b {{!-- {{x}} --}}c')).toBe('a b c');
    expect(render('a\n{{#if flag}}\nyes\n{{/if}}\nb')).toBe('a\nyes\nb');
    expect(render('a   {{~name~}}   b')).toBe('akube-1b');
  });
});

describe('template interpreter: blocks', () => {
  it('if / else if / else, unless, includeZero', () => {
    expect(render('{{#if zero}}z{{else if empty}}e{{else if flag}}f{{else}}n{{/if}}')).toBe('f');
    expect(render('{{#unless emptyList}}none{{/unless}}{{#unless flag}}x{{else}}y{{/unless}}')).toBe('noney');
    expect(render('{{#if zero includeZero=true}}zero counts{{/if}}')).toBe('zero counts');
    // handlebars truth: an empty map is true, an empty list is false
    expect(render('{{#if emptyMap}}map{{/if}}{{#if emptyList}}list{{/if}}')).toBe('map');
  });

  it('each over lists and maps, with @index @key @first @last, else, and block params', () => {
    expect(render('{{#each pools}}{{@index}}:{{Name}}{{#if @first}}^{{/if}}{{#if @last}}${{/if}} {{/each}}')).toBe(
      '0:a^ 1:b$ ',
    );
    expect(render('{{#each items}}{{@key}}={{this}};{{/each}}')).toBe('x=1;y=2;');
    expect(render('{{#each emptyList}}x{{else}}nothing{{/each}}')).toBe('nothing');
    expect(
      render('{{#each pools as |pool i|}}{{#each pool.Zones as |zone|}}{{i}}{{pool.Name}}{{zone}} {{/each}}{{/each}}'),
    ).toBe('0a1a 0a1b ');
  });

  it('each reaches outer contexts with ../ and @root, and outer loop data with @../index', () => {
    expect(
      render('{{#each pools}}{{#each Zones}}{{../Name}}-{{this}}-{{@root.name}}-{{@../index}} {{/each}}{{/each}}'),
    ).toBe('a-1a-kube-1-0 a-1b-kube-1-0 ');
  });

  it('if does not add a context level: ../ inside if inside each is the outer context', () => {
    expect(render('{{#each pools}}{{#if Name}}{{../name}}{{/if}}{{/each}}')).toBe('kube-1kube-1');
  });

  it('with enters a map, or runs else when empty', () => {
    expect(
      render(
        '{{#with nested.inner}}{{value}}{{/with}}{{#with empty}}x{{else}}none{{/with}}{{#with nested as |n|}}{{n.inner.value}}{{/with}}',
      ),
    ).toBe('deepnonedeep');
  });

  it('mustache sections loop over lists, enter maps, and skip false values', () => {
    expect(
      render(
        '{{#pools}}{{Name}}{{/pools}}|{{#nested}}{{inner.value}}{{/nested}}|{{#emptyList}}x{{/emptyList}}{{^emptyList}}inverted{{/emptyList}}',
      ),
    ).toBe('ab|deep|inverted');
  });

  it('passes key=value arguments to helpers', () => {
    expect(render('{{pair "a" sep="-"}} {{upper (pair name sep=":")}}')).toBe('a/- KUBE-1/:');
  });
});

describe('template interpreter: errors name the file, the line and the path', () => {
  it.each([
    ['{{missing}}', 't.yaml:1: "missing" is not defined'],
    ['\n{{nested.inner.nope}}', 't.yaml:2: "nested.inner.nope" is not defined'],
    ['\n\n{{upper nested.nope}}', 't.yaml:3: "nested.nope" is not defined'],
    ['{{#if nope}}{{/if}}', 't.yaml:1: "nope" is not defined'],
    ['{{#each pools}}\n{{Nope}}{{/each}}', 't.yaml:2: "Nope" is not defined'],
    ['{{#each pools}}{{../../name}}{{/each}}', 't.yaml:1: "../../name" is not defined'],
    ['{{@index}}', 't.yaml:1: "@index" is not defined'],
    ['{{name.length}}', 't.yaml:1: "name.length" is not defined'],
    ['{{frobnicate name}}', 't.yaml:1: "frobnicate" is neither a helper nor defined'],
    ['{{#frobnicate name}}{{/frobnicate}}', 't.yaml:1: "frobnicate" is neither a helper nor defined'],
    ['{{#upper name}}{{/upper}}', 't.yaml:1: upper: is not a block helper; call it as {{upper …}} or (upper …)'],
    ['{{#if flag name}}{{/if}}', 't.yaml:1: #if needs exactly one argument, got 2'],
    ['{{if flag}}', 't.yaml:1: if is a block helper: use {{#if …}}…{{/if}}'],
    ['{{nested.inner "x"}}', 't.yaml:1: "nested.inner" cannot be called: only helpers can'],
    ['{{> partial}}', 't.yaml:1: partial is not supported (partials and decorators are not)'],
  ])('%p', (template, message) => {
    const error = renderError(template);
    expect(error.message).toBe(message);
  });

  it('does not let templates reach prototype properties', () => {
    expect(renderError('{{items.constructor}}').message).toBe('t.yaml:1: "items.constructor" is not defined');
    expect(renderError('{{name.__proto__}}').message).toBe('t.yaml:1: "name.__proto__" is not defined');
  });

  it('has list lengths and indexes', () => {
    expect(render('{{pools.length}} {{pools.[1].Name}} {{pools.0.Name}}')).toBe('2 b a');
  });
});
