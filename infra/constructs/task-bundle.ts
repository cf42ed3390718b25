/**
 * One file bundled exactly as TaskFunction bundles a handler (TASK_BUNDLING), through esbuild's API: the bench and the
 * bundle tests measure handlers with it, and TaskFunction builds the rehearsal engine beside the handlers of the
 * tasks that rehearse with it (TaskFunction's `rehearsalEngine`: this file run as a script,
 * `tsx infra/constructs/task-bundle.ts rehearsal-engine OUTDIR`).
 */
import { build, type Metafile } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REHEARSAL_ENGINE_FILE } from '../../lambdas/runtime/rehearsal/rehearsal-engine-file';
import { TASK_BUNDLING } from './task-function';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The rehearsal engine's entry (its bundle is REHEARSAL_ENGINE_FILE beside the handler). */
export const REHEARSAL_ENGINE_ENTRY = 'lambdas/runtime/rehearsal/rehearsal-engine.ts';

/** Bundles `entry` (relative to the project root, or absolute) into `outfile`; returns esbuild's metafile. */
export async function bundleTaskFile(entry: string, outfile: string): Promise<{ file: string; metafile: Metafile }> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: TASK_BUNDLING.format,
    minify: TASK_BUNDLING.minify,
    sourcemap: TASK_BUNDLING.sourcemap,
    sourcesContent: TASK_BUNDLING.sourcesContent,
    target: TASK_BUNDLING.target,
    platform: TASK_BUNDLING.platform,
    mainFields: [...TASK_BUNDLING.mainFields],
    external: [...TASK_BUNDLING.external],
    alias: { ...TASK_BUNDLING.alias },
    absWorkingDir: ROOT,
    define: { ...TASK_BUNDLING.define },
    banner: { js: TASK_BUNDLING.banner },
    loader: { ...TASK_BUNDLING.loader },
    supported: { ...TASK_BUNDLING.supported },
    metafile: true,
    logLevel: 'silent',
  });
  return { file: outfile, metafile: result.metafile };
}

/** The rehearsal engine bundled into `outdir`, beside a handler's index.js. */
export function bundleRehearsalEngine(outdir: string): Promise<{ file: string; metafile: Metafile }> {
  return bundleTaskFile(REHEARSAL_ENGINE_ENTRY, join(outdir, REHEARSAL_ENGINE_FILE));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [what, outdir] = process.argv.slice(2);
  if (what !== 'rehearsal-engine' || !outdir) {
    process.stderr.write('usage: tsx infra/constructs/task-bundle.ts rehearsal-engine OUTDIR\n');
    process.exit(2);
  }
  bundleRehearsalEngine(outdir).catch((error: unknown) => {
    process.stderr.write(`rehearsal engine bundle failed: ${String(error)}\n`);
    process.exit(1);
  });
}
