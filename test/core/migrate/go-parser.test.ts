/** The Go-template lexer and parser: tokens, trim markers, structure, and syntax errors with their line. */
import { lexGoTemplate } from '../../../lambdas/core/migrate/go-lexer';
import { parseGoTemplate } from '../../../lambdas/core/migrate/go-parser';
import { ConfigError } from '../../../lambdas/shared/errors';

const kinds = (source: string) => lexGoTemplate(source, 't').map((t) => `${t.kind}:${t.value}`);

describe('lexGoTemplate', () => {
  it('splits text and actions into tokens', () => {
    expect(kinds('a {{ $x := .A.B | f "s" `r` 1.5 \'c\' ( nil ) }} b')).toEqual([
      'text:a ',
      'open:{{',
      'space: ',
      'variable:$x',
      'space: ',
      'declare::=',
      'space: ',
      'field:.A',
      'field:.B',
      'space: ',
      'pipe:|',
      'space: ',
      'identifier:f',
      'space: ',
      'string:"s"',
      'space: ',
      'rawString:`r`',
      'space: ',
      'number:1.5',
      'space: ',
      "char:'c'",
      'space: ',
      'lparen:(',
      'space: ',
      'keyword:nil',
      'space: ',
      'rparen:)',
      'space: ',
      'close:}}',
      'text: b',
      'eof:',
    ]);
  });

  it('applies trim markers to the neighbouring text: spaces, tabs, CR and LF only', () => {
    expect(kinds('a \t\r\n {{- .X -}} \n b')).toEqual(['text:a', 'open:{{', 'field:.X', 'close:}}', 'text:b', 'eof:']);
    expect(kinds('a\u00a0{{- .X }}')).toEqual(['text:a\u00a0', 'open:{{', 'field:.X', 'space: ', 'close:}}', 'eof:']);
    // "-3" is a number, not a trim marker; "-}}" needs a space before it
    expect(kinds('{{-3}}')).toEqual(['open:{{', 'number:-3', 'close:}}', 'eof:']);
  });

  it('reads comments, trimmed or not, and counts lines', () => {
    const tokens = lexGoTemplate('a\n{{/* one\ntwo */}}\nb {{- /* x */ -}} c', 't');
    expect(tokens.map((t) => [t.kind, t.value, t.line])).toEqual([
      ['text', 'a\n', 1],
      ['comment', ' one\ntwo ', 2],
      ['text', '\nb', 3],
      ['comment', ' x ', 4],
      ['text', 'c', 4],
      ['eof', '', 4],
    ]);
  });

  it.each([
    ['a {{ .X', 'unclosed action', 1],
    ['\n{{/* x }}', 'unclosed comment', 2],
    ['{{/* x */ }}', 'comment ends before closing delimiter', 1],
    ['{{ "abc }}', 'unterminated quoted string', 1],
    ['{{ .A ) }}', 'unexpected right paren', 1],
    ['{{ a : b }}', 'expected :=', 1],
    ['{{ # }}', 'unrecognized character in action: "#"', 1],
  ])('refuses %p: %s', (source, message, line) => {
    expect(() => lexGoTemplate(source, 'f.yaml')).toThrow(
      new ConfigError(`Go template syntax: ${message}`, { location: { file: 'f.yaml', line } }),
    );
  });
});

describe('parseGoTemplate', () => {
  it('parses if / else if / else chains into one node closed by one end', () => {
    const [node] = parseGoTemplate('{{ if .A }}a{{ else if .B }}b{{ else }}c{{ end }}', 't');
    expect(node).toMatchObject({ kind: 'if', elseChain: true, list: [{ kind: 'text', text: 'a' }] });
    expect(node.kind === 'if' && node.elseList?.[0]).toMatchObject({
      kind: 'if',
      elseChain: false,
      elseList: [{ kind: 'text', text: 'c' }],
    });
  });

  it('parses range declarations, pipelines, chains and methods', () => {
    const [range] = parseGoTemplate('{{ range $i, $e := .L | f }}{{ (index $e 0).Name }}{{ end }}', 't');
    expect(range).toMatchObject({
      kind: 'range',
      pipe: {
        decl: ['$i', '$e'],
        isAssign: false,
        cmds: [{ args: [{ kind: 'field', path: ['L'] }] }, { args: [{ kind: 'identifier', name: 'f' }] }],
      },
      list: [{ kind: 'action', pipe: { cmds: [{ args: [{ kind: 'chain', path: ['Name'] }] }] } }],
    });
  });

  it('parses define, template, block, with, assignment and loop control', () => {
    const nodes = parseGoTemplate(
      '{{ define "d" }}{{ $ }}{{ end }}{{ template "d" . }}{{ block "b" .X }}B{{ end }}{{ with $v := .Y }}{{ $v = 1 }}{{ end }}{{ range .Z }}{{ break }}{{ continue }}{{ end }}',
      't',
    );
    expect(nodes.map((n) => n.kind)).toEqual(['define', 'template', 'block', 'with', 'range']);
    expect(nodes[3]).toMatchObject({ list: [{ kind: 'action', pipe: { decl: ['$v'], isAssign: true } }] });
    expect(nodes[4]).toMatchObject({ list: [{ kind: 'break' }, { kind: 'continue' }] });
  });

  it.each([
    ['{{ if .A }}', 'unexpected end of file: {{if}} needs {{end}}', 1],
    ['{{ end }}', 'unexpected {{end}}', 1],
    ['\n{{ break }}', '{{break}} outside {{range}}', 2],
    ['{{ if .A }}{{ define "x" }}{{ end }}{{ end }}', 'define is only allowed at the top level of a template', 1],
    ['{{ range .A }}{{ else if .B }}{{ end }}', 'unexpected "if" in else', 1],
    ['{{ $a, $b := .X }}', 'too many declarations in command', 1],
    ['{{ "a\\q" }}', 'unknown escape sequence \\q', 1],
    ['{{ "a".X }}', 'unexpected . after term string', 1],
    ['{{ }}', 'missing value for command', 1],
  ])('refuses %p: %s', (source, message, line) => {
    expect(() => parseGoTemplate(source, 'f.yaml')).toThrow(
      new ConfigError(`Go template syntax: ${message}`, { location: { file: 'f.yaml', line } }),
    );
  });

  it('unquotes strings and characters as Go does', () => {
    const [action] = parseGoTemplate('{{ print "\\t\\x41\\u00e9\\101\\"" `a\\n` \'\\n\' }}', 't');
    expect(action).toMatchObject({
      pipe: {
        cmds: [{ args: [{ name: 'print' }, { value: '\tAéA"' }, { value: 'a\\n' }, { kind: 'number', text: '10' }] }],
      },
    });
  });
});
