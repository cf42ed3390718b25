/**
 * `npm run bench`: runs every `bench/*.bench.ts` module and prints a table of figures. Not a test: it
 * reports, it does not fail the build (the exit code is 1 only when a module crashed).
 *
 *   npm run bench              all modules
 *   npm run bench -- render    only modules whose name contains "render"
 *   npm run bench -- --json F  also write the figures to F with when, where and how they were taken, for
 *                              `npm run bench:check-docs -- F` (doc-figures.ts: do README.md and docs/ quote them?)
 *
 * To add a benchmark, create `bench/<topic>.bench.ts` exporting `name` and `run(): Promise<BenchResult[]>`
 * (see bench-result.ts), and `epilogue()` for lines to print after the table; it is picked up automatically.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchModule, BenchResult } from './bench-result';
import { benchRun } from './bench-run-record';

const here = dirname(fileURLToPath(import.meta.url));

async function main(args: string[]): Promise<number> {
  const json = args.indexOf('--json');
  const jsonFile = json >= 0 ? args[json + 1] : undefined;
  if (json >= 0 && !jsonFile) throw new Error('--json needs a file name');
  const filters = json < 0 ? args : args.filter((_, i) => i !== json && i !== json + 1);
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort();
  const rows: (BenchResult & { module: string })[] = [];
  const after: string[] = [];
  let crashed = 0;
  for (const file of files) {
    const module = (await import(pathToFileURL(join(here, file)).href)) as BenchModule;
    if (filters.length && !filters.some((f) => module.name.includes(f) || file.includes(f))) continue;
    process.stderr.write(`running ${module.name} (${file})...\n`);
    try {
      for (const result of await module.run()) rows.push({ ...result, module: module.name });
      after.push(...(module.epilogue?.() ?? []));
    } catch (error) {
      crashed++;
      process.stderr.write(`  ${module.name} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    }
  }
  process.stdout.write(table(rows));
  if (after.length) process.stdout.write(`\n${after.join('\n')}\n`);
  if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify(benchRun(args, rows), null, 1)}\n`);
  return crashed ? 1 : 0;
}

function table(rows: readonly (BenchResult & { module: string })[]): string {
  const header = ['module', 'figure', 'value', 'budget', 'ok', 'note'];
  const lines = rows.map((r) => [
    r.module,
    r.name,
    Number.isFinite(r.value) ? `${format(r.value)} ${r.unit}` : '—',
    r.budget === undefined ? '' : `${format(r.budget)} ${r.unit}`,
    r.ok === undefined ? '' : r.ok ? 'yes' : 'NO',
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const render = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return `${[render(header), render(widths.map((w) => '-'.repeat(w))), ...lines.map(render)].join('\n')}\n`;
}

function format(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 1);
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
