/**
 * What a `clm` process costs from start to exit (issue 14's targets): `clm --help` ≤ 0.3 s of CPU, and a whole
 * `clm render` of the 300-manifest cluster of the examples' dialect (render-example.ts). Each figure is the median over
 * a few processes of user + system CPU and the largest resident set, from GNU time (`/usr/bin/time`), so Node's own
 * start-up counts. CPU, not wall time: a loaded machine stretches the wall clock of a process that does not use more
 * CPU. The comparison with Zalando's CLM is vs-clm.bench.ts's: it builds CLM and runs both side by side.
 *
 * The processes run `node bin/clm.mjs` as a user does: from the prebuilt CLI (.build/cli), built first if a source
 * changed since (as `npm run build:cli`); the size of what it loads at start is reported too.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { buildCli } from '../bin/build-cli.mjs';
import { cliBundle } from '../bin/cli-bundle.mjs';
import type { BenchResult } from './bench-result';
import { median, withBudget } from './bench-result';
import { renderExampleFiles, writeConfig } from './render-example';

export const name = 'cli-start';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 5;
const TIME = '/usr/bin/time';
const HELP_BUDGET_S = 0.3;
const TEST_CLUSTER = 'aws:123456789012:eu-central-1:kube-test';

interface ProcessCost {
  readonly cpu: number;
  readonly maxRssMb: number;
}

/** One `node bin/clm.mjs …` under GNU time: user + system seconds and the largest resident set. */
function clmProcess(args: readonly string[]): ProcessCost {
  const run = spawnSync(TIME, ['-f', 'CLM_TIME %U %S %M', process.execPath, join(ROOT, 'bin', 'clm.mjs'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const line = run.stderr.split('\n').find((l) => l.startsWith('CLM_TIME '));
  if (run.status !== 0 || !line) throw new Error(`clm ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  const [user, system, rssKb] = line.split(' ').slice(1).map(Number);
  return { cpu: user + system, maxRssMb: rssKb / 1024 };
}

function runs(args: readonly string[]): ProcessCost {
  const all = Array.from({ length: RUNS }, () => clmProcess(args));
  return { cpu: median(all.map((r) => r.cpu)), maxRssMb: median(all.map((r) => r.maxRssMb)) };
}

/** The files main.mjs loads by static imports (what every command pays) and all files, in bytes. */
function startupBytes(metafile: Metafile): { startup: number; total: number } {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((file) => file.endsWith('/main.js'));
  const loaded = new Set(entry ? [entry] : []);
  for (const file of loaded) {
    for (const i of outputs[file].imports) if (i.kind === 'import-statement' && outputs[i.path]) loaded.add(i.path);
  }
  const js = Object.keys(outputs).filter((file) => file.endsWith('.js'));
  const sum = (files: Iterable<string>) => [...files].reduce((total, file) => total + outputs[file].bytes, 0);
  return { startup: sum(loaded), total: sum(js) };
}

export async function run(): Promise<BenchResult[]> {
  if (!existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed to measure whole processes`);
  // Build as `npm run build:cli` does when stale; otherwise measure the bundle as it is (built in a scratch place
  // only to read its metafile, which the build does not keep).
  if (!('file' in cliBundle(ROOT))) await buildCli(ROOT);
  const scratch = mkdtempSync(join(tmpdir(), 'clm-cli-bench-'));
  try {
    // The bundle reads its version from ../../package.json, in the build's training runs too.
    copyFileSync(join(ROOT, 'package.json'), join(scratch, 'package.json'));
    const sizes = startupBytes(await buildCli(ROOT, join(scratch, 'a', 'b')));
    const config = join(scratch, 'config');
    writeConfig(config, renderExampleFiles());
    const help = runs(['--help']);
    const render = runs([
      'render',
      '--registry',
      'examples/clusters.yaml',
      '--directory',
      config,
      '--cluster',
      TEST_CLUSTER,
    ]);
    const MB = 1024 * 1024;
    return [
      withBudget({
        name: 'clm --help, whole process',
        value: help.cpu,
        unit: 's CPU',
        budget: HELP_BUDGET_S,
        note: `median of ${RUNS}, ${Math.round(help.maxRssMb)} MB max RSS, node ${process.version}; prebuilt CLI`,
      }),
      {
        name: 'clm render 300 manifests, whole process',
        value: render.cpu,
        unit: 's CPU',
        note: `median of ${RUNS}, ${Math.round(render.maxRssMb)} MB max RSS; against Zalando CLM: npm run bench -- vs-clm`,
      },
      {
        name: 'prebuilt CLI, loaded at start / all files',
        value: sizes.startup / MB,
        unit: 'MB',
        note: `of ${(sizes.total / MB).toFixed(2)} MB in all (minified ESM, dependencies included); the rest loads with the commands using it`,
      },
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
