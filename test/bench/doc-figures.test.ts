// The figures README.md and docs/ quote are those of the bench run recorded in docs/benchmarks.json
// (`npm run bench -- --json docs/benchmarks.json`): a rerun that changes a figure fails here until the pages say so.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchRun } from '../../bench/bench-run-record';
import { checkFigures, documentedFigures } from '../../bench/doc-figures';

const ROOT = join(__dirname, '..', '..');

describe('documentedFigures', () => {
  it('reads each marker with the number before it, several on a line, thousands separators and tolerances', () => {
    const markdown =
      'intro\n| x | **0.93×**<!-- bench: vs-clm "clm render / Zalando CLM, synthetic" ±0.1 --> / 1,204 ms' +
      '<!-- bench: simulation "largest history" exact --> and 41 %<!-- bench: lambda "init" ±10% --> |\n';
    expect(documentedFigures(markdown, 'R.md')).toEqual([
      {
        file: 'R.md',
        line: 2,
        module: 'vs-clm',
        figure: 'clm render / Zalando CLM, synthetic',
        quoted: 0.93,
        decimals: 2,
        tolerance: { absolute: 0.1 },
      },
      {
        file: 'R.md',
        line: 2,
        module: 'simulation',
        figure: 'largest history',
        quoted: 1204,
        decimals: 0,
        tolerance: { absolute: 0 },
      },
      {
        file: 'R.md',
        line: 2,
        module: 'lambda',
        figure: 'init',
        quoted: 41,
        decimals: 0,
        tolerance: { relative: 0.1 },
      },
    ]);
  });

  it('refuses a marker with no figure before it', () => {
    expect(() => documentedFigures('<!-- bench: a "b" exact -->', 'R.md')).toThrow(/R\.md:1: no figure/);
  });
});

describe('checkFigures', () => {
  const quote = (quoted: string, tolerance: { absolute: number } | { relative: number }, figure = 'render') => ({
    file: 'R.md',
    line: 3,
    module: 'm',
    figure,
    quoted: Number(quoted),
    decimals: quoted.split('.')[1]?.length ?? 0,
    tolerance,
  });
  const run = [
    { module: 'm', name: 'render, whole process', value: 0.934 },
    { module: 'm', name: 'koa', value: null },
  ];

  it('accepts a quote within its tolerance or its rounding, and names each one that is not', () => {
    const result = checkFigures(
      [
        quote('0.93', { absolute: 0 }),
        quote('0.9', { absolute: 0 }),
        quote('1.0', { relative: 0.05 }),
        quote('1.00', { relative: 0.05 }),
        quote('0.7', { absolute: 0.1 }),
      ],
      run,
    );
    expect(result.checked).toBe(5);
    expect(result.wrong).toEqual([
      'R.md:3: m "render": quoted 1, the run printed 0.934',
      'R.md:3: m "render": quoted 0.7, the run printed 0.934',
    ]);
  });

  it('refuses a figure the module did not print or did not measure, and leaves other modules unchecked', () => {
    const other = { ...quote('1', { absolute: 0 }), module: 'other' };
    const result = checkFigures(
      [quote('1', { absolute: 0 }, 'nothing'), quote('1', { absolute: 0 }, 'koa'), other],
      run,
    );
    expect(result.wrong).toEqual([
      'R.md:3: m "nothing": the run printed no such figure',
      'R.md:3: m "koa": not measured in the run',
    ]);
    expect(result.unchecked).toEqual([other]);
  });
});

describe('the repository', () => {
  it('quotes in README.md and docs/ the figures of the run recorded in docs/benchmarks.json', () => {
    const run = JSON.parse(readFileSync(join(ROOT, 'docs', 'benchmarks.json'), 'utf8')) as BenchRun;
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const documented = pages.flatMap((page) => documentedFigures(readFileSync(join(ROOT, page), 'utf8'), page));
    const { wrong, unchecked, checked } = checkFigures(documented, run.rows);
    expect(wrong).toEqual([]);
    expect(unchecked).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(10);
  });
});
