#!/usr/bin/env node
// `npm run build:cli` (also run by `npm ci`/`npm install` through `prepare`): bundles the CLI (lambdas/cli/main.ts and
// everything it imports, dependencies included) into .build/cli/ with esbuild, so `clm` starts without transpiling
// TypeScript. Code split: what a command loads with `import()` (the AWS SDK clients, the Kubernetes client, git, the
// local Step Functions runner) is a chunk of its own that only the commands using it load.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_DIR, BUNDLE_INPUTS, BUNDLE_MAIN } from './cli-bundle.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join('lambdas', 'cli', 'main.ts');
/** Files outside the import graph whose change makes the bundle stale: the dependencies as installed. */
const LOCK_FILES = ['package.json', 'package-lock.json', join('node_modules', '.package-lock.json')];

/**
 * Build the CLI bundle under `root` and return esbuild's metafile. `inputs.json` is written last, so an interrupted
 * build leaves no bundle that bin/clm.mjs would run.
 *
 * @param {string} root the repository root
 */
export async function buildCli(root = ROOT) {
  const outdir = join(root, BUNDLE_DIR);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const builtAt = Date.now();
  const result = await build({
    entryPoints: { [BUNDLE_MAIN.replace(/\.mjs$/, '')]: join(root, ENTRY) },
    absWorkingDir: root,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    // One directory for every chunk: code that finds the repository root from its own file works in any chunk.
    chunkNames: '[name]-[hash]',
    // Smaller files parse faster; names kept so a bug's stack trace still reads.
    minify: true,
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    // Bundled CommonJS packages call `require` for Node's built-ins; an ES module has none of its own.
    banner: {
      js: "import { createRequire as __clmCreateRequire } from 'node:module'; const require = __clmCreateRequire(import.meta.url);",
    },
    loader: { '.hbs': 'text' },
    metafile: true,
    logLevel: 'warning',
  });
  const files = Object.keys(result.metafile.inputs)
    .filter((input) => !input.includes('node_modules/') && existsSync(join(root, input)))
    .map((input) => input.split('/').join(sep));
  for (const lock of LOCK_FILES) if (existsSync(join(root, lock))) files.push(lock);
  writeFileSync(join(outdir, BUNDLE_INPUTS), `${JSON.stringify({ builtAt, files: files.sort() }, null, 1)}\n`);
  return result.metafile;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  const metafile = await buildCli();
  const bytes = Object.values(metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  process.stdout.write(
    `built ${relative(process.cwd(), join(ROOT, BUNDLE_DIR)) || '.'}/${BUNDLE_MAIN} ` +
      `(${Object.keys(metafile.outputs).filter((f) => f.endsWith('.mjs')).length} files, ` +
      `${(bytes / 1024 / 1024).toFixed(1)} MB with source maps) in ${Math.round(performance.now() - started)} ms\n`,
  );
}
