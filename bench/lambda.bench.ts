/**
 * Lambda budgets (DESIGN.md §8): each handler bundle ≤ 1.5 MB minified, module init ≤ 300 ms on a 2-core machine.
 * Every handler of infra/state-machine-substitutions.ts is bundled with esbuild exactly as the TaskFunction bundles
 * it (TASK_BUNDLING), then required in a fresh `node --enable-source-maps` process (as NODE_OPTIONS sets it in
 * Lambda); init is the median of a few requires, measured inside the child so Node's own start-up is excluded.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Metafile } from 'esbuild';
import { TASK_BUNDLING } from '../infra/constructs/task-function';
import { TASK_FUNCTIONS, TASK_FUNCTION_NAMES } from '../infra/state-machine-substitutions';
import type { BenchResult } from './bench-result';
import { median, withBudget } from './bench-result';

export const name = 'lambda';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1024 * 1024;
const SIZE_BUDGET_MB = 1.5;
const INIT_BUDGET_MS = 300;
const INIT_RUNS = 5;

/** Bundle one handler as the TaskFunction does; returns the bundle path and esbuild's metafile. */
export async function bundleHandler(entry: string, outdir: string): Promise<{ file: string; metafile: Metafile }> {
  const file = join(outdir, 'index.js');
  const result = await build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    format: TASK_BUNDLING.format,
    minify: TASK_BUNDLING.minify,
    sourcemap: TASK_BUNDLING.sourcemap,
    sourcesContent: TASK_BUNDLING.sourcesContent,
    target: TASK_BUNDLING.target,
    platform: TASK_BUNDLING.platform,
    mainFields: [...TASK_BUNDLING.mainFields],
    external: [...TASK_BUNDLING.external],
    define: { ...TASK_BUNDLING.define },
    banner: { js: TASK_BUNDLING.banner },
    loader: { ...TASK_BUNDLING.loader },
    metafile: true,
    logLevel: 'silent',
  });
  return { file, metafile: result.metafile };
}

/**
 * Wall and CPU milliseconds to `require` the bundle in a fresh process, measured inside that process. CPU time is
 * reported too because wall time on a busy machine says more about the neighbours than about the bundle.
 */
function initMs(file: string): { wall: number; cpu: number } {
  const script = `const c=process.cpuUsage();const t=process.hrtime.bigint();const m=require(${JSON.stringify(file)});const ms=Number(process.hrtime.bigint()-t)/1e6;const u=process.cpuUsage(c);if(typeof m.handler!=='function')throw new Error('no handler export');process.stdout.write(ms+' '+(u.user+u.system)/1e3);`;
  const out = execFileSync(process.execPath, ['--enable-source-maps', '-e', script], {
    cwd: dirname(file),
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      AWS_REGION: 'eu-central-1',
      AWS_EC2_METADATA_DISABLED: 'true',
      POWERTOOLS_SERVICE_NAME: 'clm',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      CLM_TABLE_NAME: 'clm-bench',
      CLM_ARTIFACT_BUCKET: 'clm-bench',
    },
  });
  const [wall, cpu] = out.trim().split(' ').map(Number);
  return { wall, cpu };
}

/** The three largest inputs of the bundle, for the note ("@aws-sdk 410 KB, ..."). */
function heaviest(metafile: Metafile): string {
  const inputs = Object.entries(metafile.outputs).find(([path]) => path.endsWith('.js'))?.[1].inputs ?? {};
  const byPackage = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const key = match ? match[1] : 'own code';
    byPackage.set(key, (byPackage.get(key) ?? 0) + bytesInOutput);
  }
  return [...byPackage.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([pkg, bytes]) => `${pkg} ${Math.round(bytes / 1024)} KB`).join(', ');
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const workdir = mkdtempSync(join(tmpdir(), 'clm-lambda-bench-'));
  try {
    for (const task of TASK_FUNCTION_NAMES) {
      const handler = TASK_FUNCTIONS[task].handler;
      const entry = join(ROOT, 'lambdas', 'handlers', `${handler}.ts`);
      const outdir = join(workdir, handler);
      let bundled: { file: string; metafile: Metafile };
      try {
        bundled = await bundleHandler(entry, outdir);
      } catch (error) {
        const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
        results.push({ name: `${handler} bundle`, value: Number.NaN, unit: 'MB', budget: SIZE_BUDGET_MB, ok: false, note: `bundling failed: ${message}` });
        continue;
      }
      const size = statSync(bundled.file).size / MB;
      results.push(withBudget({ name: `${handler} bundle`, value: size, unit: 'MB', budget: SIZE_BUDGET_MB, note: `largest: ${heaviest(bundled.metafile)}` }));
      try {
        const runs = Array.from({ length: INIT_RUNS }, () => initMs(bundled.file));
        const cpu = median(runs.map((r) => r.cpu));
        results.push(withBudget({
          name: `${handler} init`, value: median(runs.map((r) => r.wall)), unit: 'ms', budget: INIT_BUDGET_MS,
          note: `median of ${INIT_RUNS} requires (CPU ${Math.round(cpu)} ms), node ${process.version} ${process.arch}, --enable-source-maps`,
        }));
      } catch (error) {
        const message = error instanceof Error ? error.message.split('\n').find((l) => l.includes('Error')) ?? error.message : String(error);
        results.push({ name: `${handler} init`, value: Number.NaN, unit: 'ms', budget: INIT_BUDGET_MS, ok: false, note: `require failed: ${message}` });
      }
    }
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
  return results;
}
