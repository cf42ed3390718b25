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
  calc: {
    double: (n: number) => n * 2,
    fails: () => {
      throw new Error('no');
    },
  },
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
    ['{{nested.inner "x"}}', 't.yaml:1: "nested.inner" cannot be called: only helpers and methods can'],
    ['{{> partial}}', 't.yaml:1: partial "partial" is not defined in this template (defined: none)'],
    ['{{#*inline "a"}}A{{/inline}}\n{{> b}}', 't.yaml:2: partial "b" is not defined in this template (defined: "a")'],
    [
      '{{#if flag}}{{#*inline "a"}}A{{/inline}}{{/if}}',
      't.yaml:1: {{#*inline}} partials must be defined at the top level of the template',
    ],
    ['{{set x=1}}', 't.yaml:1: set x: no variable x (declare it with {{let x=…}})'],
    ['{{let "x"}}', 't.yaml:1: let takes name=value pairs only, e.g. {{let replicas=(parseInt64 x)}}'],
    ['{{calc.double}}', 't.yaml:1: a method needs its arguments: call it as {{path.Method arg…}}'],
    ['{{calc.fails 1}}', 't.yaml:1: calc.fails: no'],
    ['{{and}}', 't.yaml:1: and: wants at least 1 argument, got 0'],
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

function renderGo(template: string, data: unknown = DATA): string {
  return interpret(Handlebars.parse(template, { ignoreStandalone: true }), data, {
    file: 't.yaml',
    helper: (name) => helpers[name],
    goSemantics: true,
  });
}

describe('template interpreter: variables', () => {
  it('let lasts until the end of its block; set changes the nearest variable, also from inside a loop', () => {
    expect(render('{{let v="a"}}{{v}}{{#if flag}}{{let v="b"}}{{v}}{{/if}}{{v}}')).toBe('aba');
    expect(render('{{let n=""}}{{#each pools}}{{set n=Name}}{{/each}}{{n}}')).toBe('b');
    expect(render('{{let a=name b=a}}{{b}}')).toBe('kube-1');
    expect(renderError('{{#if flag}}{{let v=1}}{{/if}}{{v}}').message).toBe('t.yaml:1: "v" is not defined');
  });

  it('a variable wins over a helper or a field of the same name', () => {
    expect(render('{{let upper="u" name="n"}}{{upper}}{{name}}{{this.name}}')).toBe('unkube-1');
  });

  it('if and with bind their block parameter in both branches', () => {
    expect(render('{{#if empty as |v|}}y{{else}}[{{v}}]{{/if}}{{#with name as |n|}}{{n}}{{/with}}')).toBe('[]kube-1');
    expect(render('{{#with empty as |v|}}y{{else}}<{{v}}>{{/with}}')).toBe('<>');
  });
});

describe('template interpreter: calls', () => {
  it('calls a function found on a path with its arguments (Go methods)', () => {
    expect(render('{{calc.double 4}} {{upper (calc.double 2)}}')).toBe('8 4');
  });

  it('and / or return one of their arguments and stop at the first that decides', () => {
    expect(render('[{{and flag empty}}][{{or empty zero name}}][{{and zero missing}}][{{or name missing}}]')).toBe(
      '[][kube-1][0][kube-1]',
    );
    // and returns the empty map itself: handlebars' #if finds a map true, Go's if does not
    expect(render('{{#if (and emptyMap flag)}}y{{else}}n{{/if}}')).toBe('y');
    expect(renderGo('{{#if (and emptyMap flag)}}y{{else}}n{{/if}}')).toBe('n');
  });
});

describe('template interpreter: partials', () => {
  it('renders a top-level inline partial, defined before or after its use, with the given context', () => {
    const template =
      '{{> item nested.inner}}|{{#each pools}}{{> "pool-line"}}{{/each}}{{#*inline "item"}}<{{value}}>{{/inline}}{{#*inline "pool-line"}}{{Name}};{{/inline}}';
    expect(render(template)).toBe('<deep>|a;b;');
  });

  it("does not see the caller's variables, but sees @root", () => {
    expect(renderError('{{let v=1}}{{> p}}{{#*inline "p"}}{{v}}{{/inline}}').message).toBe(
      't.yaml:1: "v" is not defined',
    );
    expect(render('{{> p nested}}{{#*inline "p"}}{{@root.name}}{{/inline}}')).toBe('kube-1');
  });

  it('indents a standalone partial as handlebars does, and not under Go semantics', () => {
    const template = '{{#*inline "p"}}a\nb\n{{/inline}}\nx:\n  {{> p}}\n';
    expect(render(template)).toBe('x:\n  a\n  b\n');
    expect(renderGo(template)).toBe('\nx:\n  a\nb\n\n');
  });

  it('stops a runaway recursion with an error', () => {
    expect(renderError('{{> r}}{{#*inline "r"}}{{> r}}{{/inline}}').message).toMatch(
      /partial r nested more than \d+ deep/,
    );
  });
});

describe('template interpreter: Go semantics', () => {
  it('keeps standalone lines and prints as Go does', () => {
    expect(renderGo('a\n{{#if flag}}\n  b\n{{/if}}\n')).toBe('a\n\n  b\n\n');
    expect(renderGo('{{list "a" "b"}} {{items}} {{nested.missing}}'.replace(' {{nested.missing}}', ''))).toBe(
      '[a b] map[x:1 y:2]',
    );
    expect(renderGo('{{lookup items "nope"}}')).toBe('<no value>');
  });

  it('tests Go truth in if, unless and with: an empty map and 0 are false', () => {
    expect(
      renderGo('{{#if emptyMap}}y{{else}}n{{/if}}{{#with zero}}y{{else}}n{{/with}}{{#unless emptyMap}}u{{/unless}}'),
    ).toBe('nnu');
    expect(render('{{#if emptyMap}}y{{else}}n{{/if}}{{#with zero}}y{{else}}n{{/with}}')).toBe('yy');
  });

  it('walks maps in sorted key order', () => {
    const data = { m: { b: 2, a: 1, '10': 'x', '9': 'y' } };
    expect(renderGo('{{#each m as |v k|}}{{k}}={{v}};{{/each}}', data)).toBe('10=x;9=y;a=1;b=2;');
  });
});
