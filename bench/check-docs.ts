/**
 * `npm run bench:check-docs -- FILE`: do README.md and docs/*.md quote the figures of the bench run in FILE
 * (`npm run bench -- --json FILE`)? Exit 1 when a marked quote is not what the run printed (doc-figures.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRun } from './bench-run-record';
import { checkFigures, documentedFigures } from './doc-figures';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: npm run bench:check-docs -- FILE   (FILE from npm run bench -- --json FILE)\n');
  process.exit(2);
}
const run = JSON.parse(readFileSync(file, 'utf8')) as BenchRun;
const pages = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(ROOT, 'docs', f)),
];
const documented = pages.flatMap((page) => documentedFigures(readFileSync(page, 'utf8'), relative(ROOT, page)));
const { wrong, unchecked, checked } = checkFigures(documented, run.rows);
process.stdout.write(`bench run ${run.date} (${run.commit}, ${run.machine}, node ${run.node}): ${run.command}\n`);
process.stdout.write(`${checked} quoted figures checked, ${unchecked.length} from modules the run left out\n`);
for (const line of wrong) process.stdout.write(`  ${line}\n`);
process.exitCode = wrong.length || checked === 0 ? 1 : 0;
