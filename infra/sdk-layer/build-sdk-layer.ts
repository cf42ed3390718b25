/**
 * The AWS SDK layer every TaskFunction runs with: the SDK packages the handler bundles leave out (TASK_EXTERNAL_MODULES)
 * at exactly the versions package-lock.json pins and the tests run against, laid out as Lambda wants a Node layer
 * (`nodejs/node_modules`, which comes before the runtime's own SDK on NODE_PATH).
 *
 * One package is not copied but rebuilt: `@aws-sdk/client-ec2`, whose single 2 MB module (every EC2 operation's schema)
 * costs a cold start ≈ 130 ms of CPU to load. The layer's copy is built from the operations the adapters use
 * (lambdas/adapters/aws/ec2-api.ts) with esbuild, keeping the package's own runtime dependencies external so they
 * resolve to the same pinned packages in the layer. Its schemas file is rewritten first so esbuild can drop the unused
 * ones (see `pureSchemaKeys`).
 */
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { buildSync } from 'esbuild';

/** Where Lambda looks for a Node layer's packages, relative to the layer root. */
export const LAYER_MODULES = join('nodejs', 'node_modules');
/** The EC2 subset the layer's client is built from, relative to the project root. */
export const EC2_API_ENTRY = join('lambdas', 'adapters', 'aws', 'ec2-api.ts');
const EC2_PACKAGE = '@aws-sdk/client-ec2';
/** Never needed at run time: type declarations and the ES module build (the bundles `require` the SDK). */
const SKIPPED_DIRS = new Set(['dist-types', 'dist-es', 'node_modules']);

/** The SDK packages the bundles may require: the project's `@aws-sdk/client-*` and `@aws-sdk/lib-*` dependencies. */
export function layerRootPackages(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return Object.keys(pkg.dependencies ?? {})
    .filter((name) => /^@aws-sdk\/(client|lib)-/.test(name))
    .sort();
}

/** The directory Node would load `name` from when required in `from` (walking up the node_modules folders). */
function packageDir(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`SDK layer: cannot find package ${name} (needed from ${from})`);
  }
}

/** Every package directory the roots need at run time (their `dependencies`, transitively), as Node resolves them. */
export function packageClosure(root: string, roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string, from: string): void => {
    const dir = packageDir(name, from);
    if (seen.has(dir)) return;
    seen.add(dir);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir);
  };
  for (const name of roots) visit(name, root);
  return [...seen].sort();
}

/**
 * The schemas file declares every shape as `export var X$ = [...]`, pure unless a trait object has a computed key
 * (`{ [_xN]: "Name" }`): esbuild cannot prove such a key side-effect free, so it keeps all 1.3 MB. The keys are
 * module constants (`const _xN = "xmlName"`); writing them as string literals makes the declarations pure.
 */
export function pureSchemaKeys(source: string): string {
  const constants = new Map<string, string>();
  for (const match of source.matchAll(/^const (_\w+) = ("[^"\\]*");$/gm)) constants.set(match[1], match[2]);
  return source.replace(/\[(_\w+)\]:/g, (whole, name: string) => {
    const literal = constants.get(name);
    return literal === undefined ? whole : `${literal}:`;
  });
}

/** The names lambdas/adapters/aws/ec2-api.ts exports (esbuild's metafile lists an ES module's exports). */
export function ec2ApiExports(root: string): string[] {
  const result = buildSync({
    entryPoints: [join(root, EC2_API_ENTRY)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    external: [EC2_PACKAGE],
    write: false,
    outdir: 'ec2-api',
    metafile: true,
    logLevel: 'silent',
  });
  return Object.values(result.metafile.outputs)[0].exports.slice().sort();
}

/** Builds the layer's EC2 client into `target` (the package directory in the layer). */
function buildEc2Subset(root: string, target: string, work: string): void {
  const source = packageDir(EC2_PACKAGE, root);
  const copy = join(work, 'client-ec2');
  cpSync(join(source, 'dist-es'), join(copy, 'dist-es'), { recursive: true });
  cpSync(join(source, 'package.json'), join(copy, 'package.json'));
  const schemas = join(copy, 'dist-es', 'schemas', 'schemas_0.js');
  writeFileSync(schemas, pureSchemaKeys(readFileSync(schemas, 'utf8')));
  const entry = join(work, 'ec2-api.mjs');
  writeFileSync(entry, `export { ${ec2ApiExports(root).join(', ')} } from './client-ec2/dist-es/index.js';\n`);
  buildSync({
    entryPoints: [entry],
    outfile: join(target, 'dist-cjs', 'index.js'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    minifySyntax: true,
    banner: { js: `// ${EC2_PACKAGE}, only the operations of ${EC2_API_ENTRY} (CLM's SDK layer).` },
    logLevel: 'silent',
  });
}

/** Writes the layer (`nodejs/node_modules/...`) into `outDir`, which must be empty or missing. */
export function buildSdkLayer(root: string, outDir: string): void {
  const modules = join(root, 'node_modules');
  const layerModules = join(outDir, LAYER_MODULES);
  for (const dir of packageClosure(root, layerRootPackages(root))) {
    const target = join(layerModules, relative(modules, dir));
    cpSync(dir, target, { recursive: true, filter: (path) => path === dir || !SKIPPED_DIRS.has(basename(path)) });
  }
  const ec2 = join(layerModules, EC2_PACKAGE);
  rmSync(join(ec2, 'dist-cjs'), { recursive: true, force: true });
  const work = join(outDir, '.ec2-build');
  try {
    buildEc2Subset(root, ec2, work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** What the layer is made of: the pinned versions, the EC2 subset and this build. Same hash, same layer. */
export function sdkLayerHash(root: string): string {
  const hash = createHash('sha256');
  for (const file of ['package-lock.json', EC2_API_ENTRY, join('infra', 'sdk-layer', 'build-sdk-layer.ts')]) {
    hash.update(file).update(readFileSync(join(root, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The layer built once per content hash under the system's temp directory, outside the project (so nothing in it can
 * resolve a package from the project's node_modules by walking up). For the bench and the tests; `cdk synth` builds
 * into the asset directory CDK gives it (infra/constructs/sdk-layer.ts). A layer no caller used for a day (an older
 * lock file's) is removed when a new one is built.
 */
export function cachedSdkLayer(root: string, parent = join(tmpdir(), 'clm-sdk-layer')): string {
  const dir = join(parent, sdkLayerHash(root));
  if (existsSync(join(dir, LAYER_MODULES))) {
    const now = new Date();
    utimesSync(dir, now, now); // in use: not stale
    return dir;
  }
  pruneStale(parent);
  const staging = `${dir}.${process.pid}.${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  buildSdkLayer(root, staging);
  try {
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(dir, LAYER_MODULES))) throw error;
  }
  return dir;
}

/** Removes the layers (of other hashes: older lock files) no bench or test has used for a day. */
function pruneStale(parent: string): void {
  if (!existsSync(parent)) return;
  const dayAgo = Date.now() - 86_400_000;
  for (const name of readdirSync(parent)) {
    const path = join(parent, name);
    if (statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
  }
}
