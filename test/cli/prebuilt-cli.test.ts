// The prebuilt CLI (bin/build-cli.mjs, bin/cli-bundle.mjs, bin/clm.mjs): `clm` runs the bundle when it is there and
// no source it was built from changed since, else the TypeScript sources with a one-line notice; the bundle itself
// works, and its start-up code loads none of the heavy packages (they are chunks loaded by the commands using them).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { buildCli } from '../../bin/build-cli.mjs';
import { CODE_CACHE_SUFFIX } from '../../bin/cli-bundle.mjs';

const ROOT = join(__dirname, '..', '..');
const BUILT_AT = Date.parse('2026-01-01T00:00:00Z');

/** A repository in miniature: the real launcher, a stand-in CLI source and a stand-in bundle, each naming itself. */
function layout(): string {
  const root = mkdtempSync(join(tmpdir(), 'clm-launcher-'));
  mkdirSync(join(root, 'bin'));
  for (const file of ['clm.mjs', 'cli-bundle.mjs']) copyFileSync(join(ROOT, 'bin', file), join(root, 'bin', file));
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  mkdirSync(join(root, 'lambdas', 'cli'), { recursive: true });
  writeFileSync(
    join(root, 'lambdas', 'cli', 'main.ts'),
    "export async function main(argv: string[]): Promise<number> { process.stdout.write(`sources ${argv.join(' ')}\\n`); return 3; }\n",
  );
  mkdirSync(join(root, '.build', 'cli'), { recursive: true });
  writeFileSync(
    join(root, '.build', 'cli', 'main.js'),
    "(function (exports) { exports.main = async (argv) => { process.stdout.write(`bundle ${argv.join(' ')}\\n`); return 4; }; })\n",
  );
  writeFileSync(
    join(root, '.build', 'cli', 'inputs.json'),
    JSON.stringify({ builtAt: BUILT_AT, files: ['lambdas/cli/main.ts'] }),
  );
  touch(root, 'lambdas/cli/main.ts', BUILT_AT - 60_000);
  return root;
}

function touch(root: string, file: string, at: number): void {
  utimesSync(join(root, file), new Date(at), new Date(at));
}

function clm(root: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [join(root, 'bin', 'clm.mjs'), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

describe('bin/clm.mjs', () => {
  let root: string;
  beforeEach(() => {
    root = layout();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('runs the bundle when no input changed after the build, saying nothing', () => {
    expect(clm(root, 'render', '--help')).toEqual({ code: 4, out: 'bundle render --help\n', err: '' });
  });

  it('runs the sources, with a one-line notice naming the file, when an input changed after the build', () => {
    // Arrange
    touch(root, 'lambdas/cli/main.ts', BUILT_AT + 1000);

    // Act
    const run = clm(root, 'status');

    // Assert
    expect(run.code).toBe(3);
    expect(run.out).toBe('sources status\n');
    expect(run.err).toMatch(/^clm: lambdas\/cli\/main\.ts changed after the prebuilt CLI was built; .*build:cli.*\n$/);
  });

  it('runs the sources when there is no bundle, or an input is gone', () => {
    // Arrange
    const gone = layout();
    writeFileSync(
      join(gone, '.build', 'cli', 'inputs.json'),
      JSON.stringify({ builtAt: BUILT_AT, files: ['lambdas/cli/main.ts', 'lambdas/cli/removed.ts'] }),
    );
    rmSync(join(root, '.build'), { recursive: true });

    // Act
    const missing = clm(root);
    const removed = clm(gone);
    rmSync(gone, { recursive: true, force: true });

    // Assert
    expect([missing.out, missing.err]).toEqual(['sources \n', expect.stringMatching(/^clm: no prebuilt CLI in /)]);
    expect([removed.out, removed.err]).toEqual([
      'sources \n',
      expect.stringMatching(/^clm: lambdas\/cli\/removed\.ts was removed after the prebuilt CLI was built/),
    ]);
  });
});

describe('bin/build-cli.mjs', () => {
  let out: string;
  let metafile: Metafile;
  beforeAll(async () => {
    // Two levels below a scratch directory, as .build/cli is below the repository: the bundle finds package.json
    // (the version) as `../..` of its own directory.
    const scratch = mkdtempSync(join(tmpdir(), 'clm-cli-build-'));
    copyFileSync(join(ROOT, 'package.json'), join(scratch, 'package.json'));
    out = join(scratch, 'a', 'b');
    metafile = await buildCli(ROOT, out);
  }, 120_000);
  afterAll(() => rmSync(join(out, '..', '..'), { recursive: true, force: true }));

  it('builds a CLI that runs, and lists its sources and the lock files as inputs', () => {
    // Act
    const help = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { loadBundle } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'bin', 'cli-bundle.mjs')).href)}); const { main } = loadBundle(${JSON.stringify(join(out, 'main.js'))}); process.exitCode = await main(['--help']); process.stdout.write(process.moduleLoadList.includes('NativeModule child_process') ? 'child_process loaded' : '');`,
      ],
      { encoding: 'utf8' },
    );
    const inputs = JSON.parse(execFileSync('cat', [join(out, 'inputs.json')], { encoding: 'utf8' })) as {
      files: string[];
    };

    // Assert
    expect(help).toMatch(/^Usage: clm \[options\] \[command\]/);
    expect(help).toMatch(/\n {2}render \[options\]/);
    // commander's child_process (and the net and stream modules it pulls in) only when it spawns, which clm never has it do
    expect(help).not.toMatch(/child_process loaded$/);
    expect(inputs.files).toEqual(
      expect.arrayContaining(['lambdas/cli/main.ts', 'lambdas/core/render/render-cluster.ts', 'package-lock.json']),
    );
    // Dependencies count through the lock files, not file by file.
    expect(inputs.files.filter((file) => file.includes('node_modules/'))).toEqual(
      existsSync(join(ROOT, 'node_modules', '.package-lock.json')) ? ['node_modules/.package-lock.json'] : [],
    );
  });

  it('starts without the heavy packages: they are in chunks only the commands using them load', () => {
    // Arrange: the files main.js loads by static imports, and the packages in them
    const outputs = metafile.outputs;
    const entry = Object.keys(outputs).find((file) => file.endsWith('/main.js'))!;
    const loaded = new Set([entry]);
    for (const file of loaded) {
      for (const i of outputs[file].imports) if (i.kind === 'import-statement' && outputs[i.path]) loaded.add(i.path);
    }
    const packages = new Set(
      [...loaded].flatMap((file) =>
        Object.keys(outputs[file].inputs).map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1]),
      ),
    );
    const heavy = [
      '@aws-sdk/client-dynamodb',
      '@aws-sdk/client-cloudformation',
      '@aws-sdk/client-ec2',
      '@aws-sdk/client-s3',
      '@aws-sdk/client-sfn',
      '@smithy/core',
      '@kubernetes/client-node',
      'isomorphic-git',
      'aws-local-stepfunctions',
      'aws-cdk-lib',
      // what rendering and the stores use: `clm --help` and each command's declaration load none of it
      'zod',
      'js-yaml',
      'handlebars',
    ];

    // Assert: they are in the bundle, and none is loaded at start
    const bundled = new Set(
      Object.values(outputs).flatMap((o) =>
        Object.keys(o.inputs).map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1]),
      ),
    );
    expect(heavy.filter((p) => p !== 'aws-cdk-lib' && !bundled.has(p))).toEqual([]);
    expect([...loaded].filter((file) => file.includes('-run-'))).toEqual([]);
    expect(heavy.filter((p) => packages.has(p))).toEqual([]);
    expect(packages.has('commander')).toBe(true);
  });

  it('gives every chunk the start-up and render load a V8 code cache this Node accepts, and runs without one', () => {
    // Arrange: the chunks `clm render` loads (the run of examples/clm-config in the build)
    const chunks = readdirSync(out).filter((file) => file.endsWith('.js'));
    const cached = chunks.filter((file) => existsSync(join(out, `${file}${CODE_CACHE_SUFFIX}`)));
    const render = chunks.find((file) => file.startsWith('render-run-'))!;

    // Act: compiled as the loader compiles them (under its flags, which V8's check of a cache includes)
    const check = [
      "import { readFileSync } from 'node:fs'; import v8 from 'node:v8'; import vm from 'node:vm';",
      `import { CODE_CACHE_SUFFIX, SHORT_RUN_FLAGS } from ${JSON.stringify(pathToFileURL(join(ROOT, 'bin', 'cli-bundle.mjs')).href)};`,
      'v8.setFlagsFromString(SHORT_RUN_FLAGS);',
      `const dir = ${JSON.stringify(out)};`,
      `const rejected = ${JSON.stringify(cached)}.filter((f) => new vm.Script(readFileSync(dir + '/' + f, 'utf8'),`,
      "  { filename: dir + '/' + f, cachedData: readFileSync(dir + '/' + f + CODE_CACHE_SUFFIX) }).cachedDataRejected !== false);",
      'process.stdout.write(JSON.stringify(rejected));',
    ].join('\n');
    const rejected = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', check], { encoding: 'utf8' }),
    ) as string[];
    // A cache V8 refuses (another Node, a damaged file) is not used: the chunk is compiled from its source.
    writeFileSync(join(out, `main.js${CODE_CACHE_SUFFIX}`), 'not a code cache');
    const help = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { loadBundle } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'bin', 'cli-bundle.mjs')).href)}); const { main } = loadBundle(${JSON.stringify(join(out, 'main.js'))}); process.exitCode = await main(['--help']); process.stdout.write(process.moduleLoadList.includes('NativeModule child_process') ? 'child_process loaded' : '');`,
      ],
      { encoding: 'utf8' },
    );

    // Assert
    expect(cached).toEqual(expect.arrayContaining(['main.js', render]));
    expect(cached.length).toBeGreaterThan(10);
    expect(rejected).toEqual([]);
    expect(help).toMatch(/^Usage: clm \[options\] \[command\]/);
  });
});
