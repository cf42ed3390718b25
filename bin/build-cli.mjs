#!/usr/bin/env node
// `npm run build:cli` (also run by `npm ci`/`npm install` through `prepare`): bundles the CLI (lambdas/cli/main.ts and
// everything it imports, dependencies included) into .build/cli/ with esbuild, so `clm` starts without transpiling
// TypeScript. Code split: what a command loads with `import()` (each command's implementation, the AWS SDK clients,
// the Kubernetes client, git, the local Step Functions runner) is a chunk of its own that only the commands using it
// load. Each chunk is then a script for bin/cli-bundle.mjs's loader, with a V8 code cache made by running a few
// commands on the examples.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, transform } from 'esbuild';
import { BUNDLE_DIR, BUNDLE_INPUTS, BUNDLE_MAIN, CODE_CACHE_SUFFIX, cliBundle } from './cli-bundle.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join('lambdas', 'cli', 'main.ts');
/** Files outside the import graph whose change makes the bundle stale: the dependencies as installed, and this build. */
const EXTRA_INPUTS = [
  'package.json',
  'package-lock.json',
  join('node_modules', '.package-lock.json'),
  join('bin', 'build-cli.mjs'),
  join('bin', 'cli-bundle.mjs'),
];
/**
 * The commands whose runs make the code caches (in the repository root, on its examples; `{tmp}` is a scratch
 * directory): start-up and help, render (summary, JSON, files), migrate, render of the migrated config with values.
 * A function they compile is in the cache; one they never run is compiled when a command first calls it.
 */
const TRAINING = [
  ['--help'],
  ['render', '--help'],
  ['render', '--registry', 'examples/clusters.yaml', '--directory', 'examples/config'],
  [
    'render',
    '--registry',
    'examples/clusters.yaml',
    '--directory',
    'examples/config',
    '-o',
    'json',
    '--out',
    '{tmp}/out',
  ],
  ['migrate', '--from', 'examples/clm-config', '--to', '{tmp}/migrated'],
  [
    'render',
    '--registry',
    'examples/clm-clusters.yaml',
    '--directory',
    '{tmp}/migrated',
    '--values',
    'examples/clm-values.yaml',
  ],
];

/**
 * commander requires `node:child_process` when it loads, for subcommands that are executables of their own (clm has
 * none): it gets a stand-in that requires the module at its first use. Loading it pulls in net, dgram and Node's
 * stream machinery, ≈ 6 ms of CPU at every start (`clm --help` is ≈ 60 ms more than `node -e 0`).
 * @type {import('esbuild').Plugin}
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(on) {
    on.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'child_process', namespace: 'lazy-builtin' }
        : args.namespace === 'lazy-builtin'
          ? { path: 'node:child_process', external: true }
          : undefined,
    );
    on.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

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
    entryPoints: { [BUNDLE_MAIN.replace(/\.js$/, '')]: join(root, ENTRY) },
    absWorkingDir: root,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // One directory for every chunk: code that finds the repository root from its own file works in any chunk.
    chunkNames: '[name]-[hash]',
    // Smaller files parse faster; names kept so a bug's stack trace still reads.
    minify: true,
    keepNames: true,
    legalComments: 'none',
    loader: { '.hbs': 'text' },
    metafile: true,
    write: false,
    logLevel: 'warning',
    plugins: [lazyChildProcess],
  });
  for (const output of result.outputFiles) writeFileSync(output.path, await asScript(output.text));
  train(root, join(outdir, BUNDLE_MAIN));
  const files = Object.keys(result.metafile.inputs)
    .filter((input) => !input.includes('node_modules/') && existsSync(join(root, input)))
    .map((input) => input.split('/').join(sep));
  for (const extra of EXTRA_INPUTS) if (existsSync(join(root, extra))) files.push(extra);
  writeFileSync(join(outdir, BUNDLE_INPUTS), `${JSON.stringify({ builtAt, files: files.sort() }, null, 1)}\n`);
  return result.metafile;
}

/**
 * An ES-module chunk as the loader's script: its imports of other chunks, static and `import()`, become `require`
 * (esbuild, told that dynamic import is unsupported, writes `Promise.resolve().then(() => require(…))`), its
 * exports `module.exports`, `import.meta.url` the chunk's URL; then it is wrapped in the loader's function.
 *
 * @param {string} code
 */
async function asScript(code) {
  const { code: cjs } = await transform(code, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__clmImportMetaUrl' },
    minifyWhitespace: true,
    logLevel: 'error',
  });
  return `(function (exports, require, module, __clmImportMetaUrl) {${cjs}\n})`;
}

/**
 * The code caches: each TRAINING command run on the new bundle, every chunk it loaded writing its cache at exit.
 *
 * @param {string} root
 * @param {string} entry
 */
function train(root, entry) {
  const tmp = mkdtempSync(join(tmpdir(), 'clm-cli-train-'));
  const run = [
    `import { loadBundle } from ${JSON.stringify(new URL('./cli-bundle.mjs', import.meta.url).href)};`,
    `const { main } = loadBundle(${JSON.stringify(entry)}, { writeCodeCache: true });`,
    'process.exitCode = await main(process.argv.slice(1));',
  ].join('\n');
  try {
    for (const command of TRAINING) {
      const args = command.map((arg) => arg.replace('{tmp}', tmp));
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', run, ...args], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      });
      if (child.status !== 0)
        throw new Error(`build-cli: clm ${args.join(' ')} failed (${child.status}):\n${child.stderr}${child.stdout}`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Bytes of the chunks and of their code caches. */
function sizes(dir) {
  let chunks = 0;
  let caches = 0;
  let count = 0;
  for (const file of readdirSync(dir)) {
    if (file.endsWith('.js')) {
      count++;
      chunks += statSync(join(dir, file)).size;
    } else if (file.endsWith(CODE_CACHE_SUFFIX)) caches += statSync(join(dir, file)).size;
  }
  return { count, chunks, caches };
}

// Run as a script (not when imported by the tests): build, then say what was built. `--if-stale`: only when bin/clm.mjs
// would not run the bundle as it is (the e2e tier's global setup, so the end-to-end runs exercise the bundle).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  if (process.argv.includes('--if-stale') && 'file' in cliBundle(ROOT)) process.exit(0);
  buildCli().then(() => {
    const dir = join(ROOT, BUNDLE_DIR);
    const { count, chunks, caches } = sizes(dir);
    const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
    process.stdout.write(
      `built ${relative(process.cwd(), dir) || '.'}/${BUNDLE_MAIN}: ${count} chunks, ${mb(chunks)} MB, ` +
        `code caches ${mb(caches)} MB, in ${Math.round(performance.now() - started)} ms\n`,
    );
  });
}
