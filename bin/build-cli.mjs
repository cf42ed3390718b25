#!/usr/bin/env node
// `npm run build:cli` (also run by `npm ci`/`npm install` through `prepare`): bundles the CLI (lambdas/cli/main.ts and
// everything it imports, dependencies included) into .build/cli/ with esbuild, so `clm` starts without transpiling
// TypeScript. Code split: what a command loads with `import()` (the AWS SDK clients, the Kubernetes client, git, the
// local Step Functions runner) is a chunk of its own that only the commands using it load.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_DIR, BUNDLE_INPUTS, BUNDLE_MAIN, cliBundle } from './cli-bundle.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join('lambdas', 'cli', 'main.ts');
/** Files outside the import graph whose change makes the bundle stale: the dependencies as installed, and this build. */
const EXTRA_INPUTS = [
  'package.json',
  'package-lock.json',
  join('node_modules', '.package-lock.json'),
  join('bin', 'build-cli.mjs'),
];

/**
 * Build the CLI bundle of the sources under `root` and return esbuild's metafile. `inputs.json` is written last, so an
 * interrupted build leaves no bundle that bin/clm.mjs would run.
 *
 * @param {string} root the repository root
 * @param {string} outdir where to write it (the tests build elsewhere, leaving the repository's bundle alone)
 */
export async function buildCli(root = ROOT, outdir = join(root, BUNDLE_DIR)) {
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
  for (const extra of EXTRA_INPUTS) if (existsSync(join(root, extra))) files.push(extra);
  writeFileSync(join(outdir, BUNDLE_INPUTS), `${JSON.stringify({ builtAt, files: files.sort() }, null, 1)}\n`);
  return result.metafile;
}

// Run as a script (not when imported by the tests): build, then say what was built. `--if-stale`: only when bin/clm.mjs
// would not run the bundle as it is (the e2e tier's global setup, so the end-to-end runs exercise the bundle).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  if (process.argv.includes('--if-stale') && 'file' in cliBundle(ROOT)) process.exit(0);
  buildCli().then((metafile) => {
    const files = Object.keys(metafile.outputs).filter((f) => f.endsWith('.mjs'));
    const bytes = files.reduce((sum, file) => sum + metafile.outputs[file].bytes, 0);
    process.stdout.write(
      `built ${relative(process.cwd(), join(ROOT, BUNDLE_DIR)) || '.'}/${BUNDLE_MAIN}: ${files.length} files, ` +
        `${(bytes / 1024 / 1024).toFixed(1)} MB, in ${Math.round(performance.now() - started)} ms\n`,
    );
  });
}
