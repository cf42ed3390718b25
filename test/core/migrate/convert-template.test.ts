/** The converter's output for each construct, what it refuses (with line and reason), and its helpers. */
import { convertGoTemplate } from '../../../lambdas/core/migrate/convert-template';
import { SUPPORTED_FUNCTIONS } from '../../../lambdas/core/migrate/go-functions';
import { variableNamesFor } from '../../../lambdas/core/migrate/hbs-names';
import { joinPieces, stringLiteral, tag, text } from '../../../lambdas/core/migrate/hbs-text';
import { GO_SEMANTICS_HEADER } from '../../../lambdas/core/render/go-semantics-pragma';
import { CLM_HELPERS } from '../../../lambdas/adapters/templating/helpers';

function body(source: string): string {
  const result = convertGoTemplate(source, 't.yaml');
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  expect(result.output.startsWith(`${GO_SEMANTICS_HEADER}\n`)).toBe(true);
  return result.output.slice(GO_SEMANTICS_HEADER.length + 1);
}

describe('convertGoTemplate: constructs', () => {
  it.each([
    ['{{ .Cluster.ConfigItems.x }}', '{{Cluster.ConfigItems.x}}'],
    ['{{ $.Cluster.ID }} {{ . }}', '{{@root.Cluster.ID}} {{this}}'],
    ['{{ if eq .A "x" }}a{{ else if .B }}b{{ else }}c{{ end }}', '{{#if (eq A "x")}}a{{else if B}}b{{else}}c{{/if}}'],
    ['{{ range $i, $e := .L }}{{ $i }}{{ $e }}{{ end }}', '{{#each L as |e i|}}{{i}}{{e}}{{/each}}'],
    ['{{ range .L }}x{{ else }}none{{ end }}', '{{#each L}}x{{else}}none{{/each}}'],
    ['{{ with $v := .A }}{{ $v }}{{ else with .B }}b{{ end }}', '{{#with A as |v|}}{{v}}{{else with B}}b{{/with}}'],
    ['{{ $x := .A }}{{ $x = printf "%s!" $x }}{{ $x }}', '{{let x=A}}{{set x=(printf "%s!" x)}}{{x}}'],
    ['{{ .A | f2 | printf "%s-%s" "p" }}'.replace('f2', 'base64'), '{{printf "%s-%s" "p" (base64 A)}}'],
    ['{{ (index .L 0).Name }}', '{{lookup (index L 0) "Name"}}'],
    ['{{ .Values.InstanceInfo.MemoryFraction 50 }}', '{{Values.InstanceInfo.MemoryFraction 50}}'],
    ['{{ .index }} {{ $index := 1 }}{{ $index }}', '{{this.index}} {{let index_=1}}{{index_}}'],
    [
      '{{ define "a-b" }}{{ $.X }}{{ end }}{{ template "a-b" .Y }}',
      '{{#*inline "a-b"}}{{let root=this}}{{root.X}}{{/inline}}{{> a-b Y}}',
    ],
    ['{{ block "my block" . }}B{{ end }}', '{{#*inline "my block"}}B{{/inline}}{{> "my block" this}}'],
    ['{{ template "t" }}', '{{> t null}}'],
    ['{{/* note */}}', '{{!-- note --}}'],
    ['a  {{- .X -}}  b', 'a{{X}}b'],
    ['{{ and .A (or .B .C) }}', '{{and A (or B C)}}'],
    ["{{ 0x10 }} {{ 1_000 }} {{ 'a' }} {{ print nil }} {{ true }}", '{{16}} {{1000}} {{97}} {{print null}} {{true}}'],
  ])('%p', (source, want) => {
    expect(body(source)).toBe(want);
  });

  it('keeps text exactly, escaping what handlebars would read as syntax', () => {
    expect(body('{a: {{ .X }}}')).toBe('{a: {{X}}{{"}"}}');
    expect(body('{{"{"}}x{{ .Y }}')).toBe('{{"{"}}x{{Y}}');
    expect(body('a{{ "" }}{{ .X }}')).toBe('a{{""}}{{X}}');
    expect(body('C:\\{{ .X }}')).toBe('C:\\\\{{X}}');
  });
});

describe('convertGoTemplate: refusals name the line and the reason', () => {
  it.each([
    ['ok\n{{ range .L }}{{ break }}{{ end }}', 2, '{{break}} inside range has no handlebars equivalent'],
    ['{{ html .X }}', 1, "Go's html escaping has no equivalent helper"],
    ['\n\n{{ custom .X }}', 3, 'function "custom" is not one of CLM\'s template functions'],
    [
      '{{ (index .L 0).Method 1 }}',
      1,
      'cannot give arguments to a method of a computed value (no handlebars equivalent)',
    ],
    [
      '{{ range $e := .L }}{{ else }}{{ $e }}{{ end }}',
      1,
      '$e is used in the {{else}} of its range, which has no handlebars equivalent',
    ],
    ['{{ print "C:\\\\" }}', 1, 'the string "C:\\\\" (ending in a backslash) cannot be written in handlebars'],
    ['{{ 1e-9 }}', 1, 'the number 1e-9 cannot be written exactly in handlebars'],
    ['{{ 0x1p-2 }}', 1, 'the number 0x1p-2 has no handlebars equivalent'],
    ['{{ .A | "x" }}', 1, 'non executable command in pipeline stage 2'],
    ['{{ if .A }}', 1, 'Go template syntax: unexpected end of file: {{if}} needs {{end}}'],
  ])('%p', (source, line, reason) => {
    expect(convertGoTemplate(source, 't.yaml')).toEqual({ ok: false, line, reason });
  });
});

describe('converter helpers', () => {
  it('offers exactly the engine helpers and built-ins for the Go functions it converts', () => {
    const builtIns = new Set(['and', 'or']);
    for (const name of SUPPORTED_FUNCTIONS) expect(builtIns.has(name) || name in CLM_HELPERS).toBe(true);
  });

  it('names variables so they neither collide with helpers nor with each other', () => {
    const names = variableNamesFor(['$index', '$index_', '$1', '$pool', '$each']);
    expect(Object.fromEntries(names.map)).toEqual({
      $1: 'v1',
      $each: 'each_',
      $index: 'index__',
      $index_: 'index_',
      $pool: 'pool',
    });
    expect(names.fresh('pool')).toBe('pool_');
  });

  it('writes string literals handlebars reads back exactly, or says it cannot', () => {
    expect(stringLiteral('plain')).toBe('"plain"');
    expect(stringLiteral('say "hi"')).toBe('\'say "hi"\'');
    expect(stringLiteral('both " and \'')).toBe('"both \\" and \'"');
    expect(stringLiteral('ends in \\')).toBeUndefined();
  });

  it('joins text and tags, moving braces next to tags into string literals', () => {
    expect(joinPieces([text('{'), tag('{{x}}'), text('}}'), text('!')], 'f')).toBe('{{"{"}}{{x}}{{"}}"}}!');
    expect(() => joinPieces([text('a\u0000')], 'f')).toThrow('text with a NUL character cannot be converted');
  });
});
