// The prebuilt CLI: where `npm run build:cli` (bin/build-cli.mjs) writes it and whether bin/clm.mjs may run it.
// Plain JavaScript on purpose: deciding must cost nothing, so no TypeScript is loaded to decide.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The bundle's directory, relative to the repository root. Two levels deep, like lambdas/cli/ and lambdas/runtime/:
 * code that finds the repository root as `<its own directory>/../..` (package.json, statemachines/) works unchanged. */
export const BUNDLE_DIR = join('.build', 'cli');
/** The entry module; it exports `main(argv)` as lambdas/cli/main.ts does. */
export const BUNDLE_MAIN = 'main.mjs';
/** Written last by the build: when it started and the repository files the bundle was built from. */
export const BUNDLE_INPUTS = 'inputs.json';

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
