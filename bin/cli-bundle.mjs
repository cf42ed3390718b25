// The prebuilt CLI: where `npm run build:cli` (bin/build-cli.mjs) writes it, whether bin/clm.mjs may run it, and how
// it is loaded. Plain JavaScript on purpose: deciding must cost nothing, so no TypeScript is loaded to decide.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

/** The bundle's directory, relative to the repository root. Two levels deep, like lambdas/cli/ and lambdas/runtime/:
 * code that finds the repository root as `<its own directory>/../..` (package.json, statemachines/) works unchanged. */
export const BUNDLE_DIR = join('.build', 'cli');
/** The entry chunk; it exports `main(argv)` as lambdas/cli/main.ts does. */
export const BUNDLE_MAIN = 'main.js';
/** Written last by the build: when it started and the repository files the bundle was built from. */
export const BUNDLE_INPUTS = 'inputs.json';
/**
 * V8 flags for a process that lives a second: no optimizing compiler (TurboFan), whose background compilations cost
 * a short command more CPU than its faster code saves (`clm render` of 300 manifests: about a tenth less CPU without).
 * Set before any chunk is compiled, in the build's runs too, because V8 accepts a code cache only under the flags it
 * was made with. Commands that run for long (provision, serve…) turn the optimizing compiler back on once loaded.
 */
export const SHORT_RUN_FLAGS = '--no-turbofan';
/** Next to each chunk: V8's code cache of it (`<chunk>.cache`), written by the build (see loadBundle). */
export const CODE_CACHE_SUFFIX = '.cache';

/**
 * The bundle to run, or why not: it must exist and no file it was built from may have changed since the build
 * started (esbuild's list of inputs from our own sources, plus the lock files, so a dependency upgrade counts too).
 * A few hundred `stat` calls: about a millisecond.
 *
 * @param {string} root the repository root
 * @returns {{ file: string } | { reason: string }}
 */
export function cliBundle(root) {
  const dir = join(root, BUNDLE_DIR);
  /** @type {{ builtAt: number, files: string[] }} */
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(join(dir, BUNDLE_INPUTS), 'utf8'));
    statSync(join(dir, BUNDLE_MAIN));
  } catch {
    return { reason: `no prebuilt CLI in ${BUNDLE_DIR}` };
  }
  for (const file of inputs.files) {
    let changed;
    try {
      changed = statSync(join(root, file)).mtimeMs;
    } catch {
      return { reason: `${file} was removed after the prebuilt CLI was built` };
    }
    if (changed > inputs.builtAt) return { reason: `${file} changed after the prebuilt CLI was built` };
  }
  return { file: join(dir, BUNDLE_MAIN) };
}

/**
 * Runs the bundle's entry chunk and returns its exports. Each chunk is a script,
 * `(function (exports, require, module, __clmImportMetaUrl) { … })`, run once on its first `require('./<chunk>')`
 * (what the chunk's `import` and `import()` of another chunk became); any other `require` is Node's, from the bundle's
 * directory. A chunk is compiled with its V8 code cache when there is one that this Node accepts (the same V8 and
 * flags as the build's): V8 then neither parses the chunk nor compiles the functions the build's runs compiled.
 * Without one, or when V8 rejects it, the chunk is compiled from its source, as fast as before code caches.
 *
 * @param {string} file the entry chunk (cliBundle's `file`)
 * @param {{ writeCodeCache?: boolean }} [options] writeCodeCache: at exit, write each loaded chunk's code cache with
 *   the functions compiled so far (the build runs a few commands this way; successive runs add to the caches)
 * @returns {Record<string, unknown>}
 */
export function loadBundle(file, options = {}) {
  v8.setFlagsFromString(SHORT_RUN_FLAGS);
  const dir = dirname(file);
  const nodeRequire = createRequire(file);
  /** @type {Map<string, { exports: Record<string, unknown> }>} */
  const modules = new Map();
  /** @type {[string, vm.Script][]} */
  const loaded = [];
  const load = (path) => {
    const known = modules.get(path);
    if (known) return known.exports;
    let cachedData;
    try {
      cachedData = readFileSync(path + CODE_CACHE_SUFFIX);
    } catch {
      // none: compiled from the source
    }
    const script = new vm.Script(readFileSync(path, 'utf8'), { filename: path, cachedData });
    const module = { exports: {} };
    modules.set(path, module);
    loaded.push([path, script]);
    const require = (specifier) => (specifier.startsWith('./') ? load(join(dir, specifier)) : nodeRequire(specifier));
    script.runInThisContext()(module.exports, require, module, pathToFileURL(path).href);
    return module.exports;
  };
  if (options.writeCodeCache)
    process.on('exit', () => {
      for (const [path, script] of loaded) writeFileSync(path + CODE_CACHE_SUFFIX, script.createCachedData());
    });
  return load(file);
}
