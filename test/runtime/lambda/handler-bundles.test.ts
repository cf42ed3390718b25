// Every task's generated Lambda entry bundled exactly as the TaskFunction bundles it (bench/lambda.bench.ts
// bundleHandler, TASK_BUNDLING): within the 0.8 MB budget (the rehearsal twin is a file of its own beside the handlers
// that rehearse: rehearsal-engine-bundle.test.ts), leaving out only packages the SDK layer provides, carrying
// only the adapters and AWS SDK clients of its own task's ports, loading no AWS SDK package at module init (the
// port modules load them on the first invocation), and formatting no stack by the end of the first call.
import { execFileSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { bundleHandler, lambdaLikeEnv } from '../../../bench/lambda.bench';
import { SDK_OF_PORT } from '../../../bench/sdk-of-port';
import { writeHandlerEntry } from '../../../infra/handler-entries';
import { layerRootPackages } from '../../../infra/sdk-layer/build-sdk-layer';
import { TASK_CATALOGUE } from '../../../lambdas/tasks/catalogue';
import { taskFileName, type AnyTask, type PortName } from '../../../lambdas/tasks/define-task';

const ROOT = join(__dirname, '..', '..', '..');
/** Decimal units, as issue 14 states its 0.8 MB (0.8 MiB would allow 38,861 bytes more). */
const BUDGET_BYTES = 800_000;
const NAMES = TASK_CATALOGUE.map((task) => task.name);

const LAYER_PACKAGES = layerRootPackages(ROOT);

/**
 * What a TaskFunction has besides its bundle: Node's built-ins and the SDK layer's packages (the project's AWS SDK v3
 * clients and document client, infra/sdk-layer/build-sdk-layer.ts). ws and node-fetch also `require` bufferutil,
 * utf-8-validate and encoding, inside try/catch, as optional speed-ups; esbuild leaves such requires alone and they
 * fail harmlessly at run time.
 */
function providedToTheBundle(path: string): boolean {
  return (
    builtinModules.includes(path.replace(/^node:/, '')) ||
    LAYER_PACKAGES.includes(path) ||
    ['bufferutil', 'utf-8-validate', 'encoding'].includes(path)
  );
}

function bundledPackages(metafile: Metafile): Set<string> {
  const inputs = Object.keys(Object.values(metafile.outputs).find((o) => o.entryPoint)?.inputs ?? {});
  return new Set(
    inputs
      .map((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1])
      .filter((p): p is string => p !== undefined),
  );
}

/** The AWS SDK packages the bundle's code imports (left to the runtime, so listed as the bundle's externals). */
function sdkImports(metafile: Metafile): string[] {
  return externals(metafile)
    .filter((path) => path.startsWith('@aws-sdk/'))
    .map((path) => path.slice('@aws-sdk/'.length));
}

function externals(metafile: Metafile): string[] {
  const output = Object.values(metafile.outputs).find((o) => o.entryPoint);
  return [...new Set((output?.imports ?? []).filter((i) => i.external).map((i) => i.path))].sort();
}

/** The AWS SDK packages in require.cache right after requiring the bundle, resolved through NODE_PATH as in Lambda. */
function sdkLoadedAtInit(file: string): string[] {
  const script = `require(${JSON.stringify(file)});process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((p)=>p.includes('/node_modules/@aws-sdk/'))))`;
  const out = execFileSync(process.execPath, ['-e', script], {
    encoding: 'utf8',
    env: lambdaLikeEnv('clm-test'),
  });
  return JSON.parse(out) as string[];
}

/**
 * The first call of the bundle with an empty payload, as in Lambda (SDK through NODE_PATH only, `--enable-source-maps`
 * as NODE_OPTIONS sets it): it loads the task's port modules and their SDK clients, then rejects the payload. Returns
 * the error's name and message, and how many stacks were formatted from the start of the process to the end of the call
 * (counted by an `Error.prepareStackTrace`, which Node calls when a stack is first read): the first stack formatted
 * under --enable-source-maps parses the bundle's whole source map.
 */
function firstCall(file: string): { error: string; stacksFormatted: number } {
  const script = [
    'let formatted = 0;',
    "Error.prepareStackTrace = (error, frames) => { formatted++; return [String(error), ...frames].join('\\n    at '); };",
    `require(${JSON.stringify(file)}).handler({})`,
    "  .then(() => 'no error', (e) => e.name + ': ' + e.message.split('\\n')[0])",
    '  .then((error) => process.stdout.write(JSON.stringify({ error, stacksFormatted: formatted })));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--enable-source-maps', '-e', script], {
    encoding: 'utf8',
    env: lambdaLikeEnv('clm-test'),
  });
  return JSON.parse(out) as { error: string; stacksFormatted: number };
}

describe('handler bundles', () => {
  let dir: string;
  const bundles = new Map<string, { file: string; metafile: Metafile }>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'clm-handler-bundles-'));
    for (const task of TASK_CATALOGUE) {
      const entry = writeHandlerEntry(task, ROOT);
      bundles.set(task.name, await bundleHandler(entry, join(dir, taskFileName(task.name))));
    }
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stay within 0.8 MB minified, every one of them, none carrying the simulator', () => {
    const sizes = TASK_CATALOGUE.map((task) => [task.name, statSync(bundles.get(task.name)!.file).size] as const);
    expect(sizes.filter(([, bytes]) => bytes > BUDGET_BYTES)).toEqual([]);
    const simulating = NAMES.filter((task) =>
      Object.keys(bundles.get(task)!.metafile.inputs).some((f) => f.includes('lambdas/sim/')),
    );
    expect(simulating).toEqual([]);
  });

  it('leave out only what the SDK layer provides (no SDK-internal package such as @aws-sdk/util-* or @smithy/*)', () => {
    const foreign = Object.fromEntries(
      NAMES.map((task) => [task, externals(bundles.get(task)!.metafile).filter((p) => !providedToTheBundle(p))]),
    );
    expect(foreign).toEqual(Object.fromEntries(NAMES.map((task) => [task, []])));
  });

  it("carry the heavy adapters only of the ports their task declares (the task's ports)", () => {
    // Arrange: the package behind each port that costs bundle size
    const expected = (name: string) => {
      const ports = (TASK_CATALOGUE.find((t) => t.name === name) as AnyTask).ports;
      return {
        // the API servers are reached over Node's https (adapters/kube/kube-server-transport.ts), never client-node
        '@kubernetes/client-node': false,
        'isomorphic-git': ports.sources !== undefined,
        handlebars: ports.templates !== undefined,
        tr46: false,
      };
    };

    // Act
    const found = Object.fromEntries(
      NAMES.map((task) => {
        const packages = bundledPackages(bundles.get(task)!.metafile);
        return [task, Object.fromEntries(Object.keys(expected(task)).map((p) => [p, packages.has(p)]))];
      }),
    );

    // Assert
    expect(found).toEqual(Object.fromEntries(NAMES.map((task) => [task, expected(task)])));
  });

  it('import only the AWS SDK clients of their own ports', () => {
    // Arrange
    const expected = (name: string) => {
      const ports = Object.keys((TASK_CATALOGUE.find((t) => t.name === name) as AnyTask).ports) as PortName[];
      return [...new Set(ports.flatMap((port) => SDK_OF_PORT[port]))].sort();
    };

    // Act
    const found = Object.fromEntries(NAMES.map((task) => [task, sdkImports(bundles.get(task)!.metafile)]));

    // Assert
    expect(found).toEqual(Object.fromEntries(NAMES.map((task) => [task, expected(task)])));
  });

  it('load their port modules on the first call (the SDK through NODE_PATH, as in Lambda), formatting no stack', () => {
    // A stack read by the time the first call ends (redacting its error, say) would parse the bundle's source map:
    // the cold start would pay it (50-170 ms of CPU, `npm run bench -- lambda`) though the caller never reads it.
    const calls = Object.fromEntries(NAMES.map((task) => [task, firstCall(bundles.get(task)!.file)]));
    expect(calls).toEqual(
      Object.fromEntries(
        NAMES.map((task) => [task, { error: expect.stringMatching(/^InvalidTaskInputError: /), stacksFormatted: 0 }]),
      ),
    );
  }, 120_000);

  it('load no AWS SDK package at module init', () => {
    const loaded = Object.fromEntries(NAMES.map((task) => [task, sdkLoadedAtInit(bundles.get(task)!.file)]));
    expect(loaded).toEqual(Object.fromEntries(NAMES.map((task) => [task, []])));
  }, 60_000);
});
