import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LAYER_MODULES,
  cachedSdkLayer,
  ec2ApiExports,
  layerRootPackages,
  pureSchemaKeys,
} from '../../infra/sdk-layer/build-sdk-layer';
import { REPO_ROOT } from './synth';

const LAYER = join(cachedSdkLayer(REPO_ROOT), LAYER_MODULES);
const PROBE = join(__dirname, 'fixtures', 'ec2-probe.cjs');
let outside: string;

beforeAll(() => {
  // Scripts run from a directory outside the project: walking up from it finds no node_modules, only NODE_PATH.
  outside = mkdtempSync(join(tmpdir(), 'clm-sdk-layer-test-'));
  copyFileSync(PROBE, join(outside, 'ec2-probe.cjs'));
});
afterAll(() => rmSync(outside, { recursive: true, force: true }));

function run(modules: string, args: string[]): string {
  return execFileSync(process.execPath, args, {
    cwd: outside,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', NODE_PATH: modules, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
}

describe('the AWS SDK layer', () => {
  it('loads every SDK package a bundle may require from the layer alone', () => {
    const script = `
      const roots = JSON.parse(process.argv[1]);
      for (const name of roots) require(name);
      const outside = Object.keys(require.cache).filter((file) => !file.startsWith(process.argv[2]));
      process.stdout.write(JSON.stringify({ loaded: roots.length, outside }));`;
    const roots = layerRootPackages(REPO_ROOT);
    expect(roots).toEqual(expect.arrayContaining(['@aws-sdk/client-ec2', '@aws-sdk/lib-dynamodb']));
    const result = JSON.parse(run(LAYER, ['-e', script, JSON.stringify(roots), LAYER])) as {
      loaded: number;
      outside: string[];
    };
    expect(result).toEqual({ loaded: roots.length, outside: [] });
  });

  it('has an EC2 client with exactly the operations of ec2-api.ts', () => {
    const names = ec2ApiExports(REPO_ROOT);
    expect(names).toEqual(expect.arrayContaining(['EC2Client', 'paginateDescribeInstances']));
    const script = `process.stdout.write(JSON.stringify(Object.keys(require('@aws-sdk/client-ec2')).sort()))`;
    expect(JSON.parse(run(LAYER, ['-e', script]))).toEqual(names);
  });

  it('has an EC2 client that sends and reads exactly what the full package does (paging, lists, errors)', () => {
    const layer = JSON.parse(run(LAYER, ['ec2-probe.cjs'])) as { exports: number; sent: unknown[]; read: unknown[] };
    const full = JSON.parse(run(join(REPO_ROOT, 'node_modules'), ['ec2-probe.cjs'])) as typeof layer;
    expect(layer.exports).toBeLessThan(full.exports); // really the subset, not the package
    expect(layer.sent).toHaveLength(6);
    expect(layer.sent).toEqual(full.sent);
    expect(layer.read).toEqual(full.read);
    expect(layer.read).toContainEqual(expect.objectContaining({ errorName: 'InvalidVolume.NotFound', status: 400 }));
  });

  it('keeps the EC2 client small: the unused schemas are gone', () => {
    const size = statSync(join(LAYER, '@aws-sdk', 'client-ec2', 'dist-cjs', 'index.js')).size;
    const full = statSync(join(REPO_ROOT, 'node_modules', '@aws-sdk', 'client-ec2', 'dist-cjs', 'index.js')).size;
    expect(size).toBeLessThan(full / 5);
  });
});

describe('pureSchemaKeys', () => {
  it('writes computed keys naming a string constant as literals, and nothing else', () => {
    const source = [
      'const _xN = "xmlName";',
      'const _n = `not a plain string`;',
      'export var A$ = [3, n0, _A, 0, [_B], [[0, { [_xN]: "B" }]]];',
      'export var C$ = [3, n0, _C, 0, [_D], [[0, { [_n]: "D", [other]: 1 }]]];',
    ].join('\n');
    const out = pureSchemaKeys(source);
    expect(out).toContain('{ "xmlName": "B" }');
    expect(out).toContain('{ [_n]: "D", [other]: 1 }');
    expect(out.split('\n')[0]).toBe('const _xN = "xmlName";');
  });
});
