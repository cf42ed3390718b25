import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LAYER_MODULES,
  cachedSdkLayer,
  ec2ApiExports,
  layerRootPackages,
  pureSchemaKeys,
  sdkLayerHash,
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

  it('loads every package it holds, nested ones included (none lacks the files its entry needs)', () => {
    const script = `
      const fs = require('node:fs'), path = require('node:path');
      const found = [], failed = [];
      const walk = (dir) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (!e.isDirectory()) continue; const p = path.join(dir, e.name);
        if (e.name.startsWith('@')) { walk(p); continue; }
        if (!fs.existsSync(path.join(p, 'package.json'))) continue;
        found.push(p); if (fs.existsSync(path.join(p, 'node_modules'))) walk(path.join(p, 'node_modules')); } };
      walk(process.argv[1]);
      for (const dir of found) { try { require(dir); } catch (e) { failed.push(path.relative(process.argv[1], dir) + ': ' + e.message.split('\\n')[0]); } }
      process.stdout.write(JSON.stringify({ packages: found.length, failed }));`;
    const result = JSON.parse(run(LAYER, ['-e', script, LAYER])) as { packages: number; failed: string[] };
    expect(result.failed).toEqual([]);
    expect(result.packages).toBeGreaterThan(layerRootPackages(REPO_ROOT).length);
  });

  it('resolves the default credential chain and region from the environment, as Lambda sets them, from the layer alone', () => {
    const script = `
      const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');
      const client = new DynamoDBClient({});
      (async () => {
        const credentials = await client.config.credentials();
        const outside = Object.keys(require.cache).filter((file) => !file.startsWith(process.argv[1]));
        process.stdout.write(JSON.stringify({ key: credentials.accessKeyId, region: await client.config.region(), outside }));
      })();`;
    const out = execFileSync(process.execPath, ['-e', script, LAYER], {
      cwd: outside,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        NODE_PATH: LAYER,
        AWS_ACCESS_KEY_ID: 'AKIDLAMBDA',
        AWS_SECRET_ACCESS_KEY: 'secret',
        AWS_SESSION_TOKEN: 'token',
        AWS_REGION: 'eu-west-1',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    });
    expect(JSON.parse(out)).toEqual({ key: 'AKIDLAMBDA', region: 'eu-west-1', outside: [] });
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

describe('cachedSdkLayer', () => {
  it('builds once per content hash, and removes layers nobody used for a day', () => {
    const parent = mkdtempSync(join(tmpdir(), 'clm-layer-cache-'));
    try {
      const old = join(parent, 'old-lock-file');
      const recent = join(parent, 'other-checkout');
      mkdirSync(old);
      mkdirSync(recent);
      const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
      utimesSync(old, twoDaysAgo, twoDaysAgo);

      const dir = cachedSdkLayer(REPO_ROOT, parent);
      expect(dir).toBe(join(parent, sdkLayerHash(REPO_ROOT)));
      expect(readdirSync(parent).sort()).toEqual([sdkLayerHash(REPO_ROOT), 'other-checkout'].sort());
      expect(readdirSync(join(dir, LAYER_MODULES, '@aws-sdk'))).toContain('client-ec2');
      expect(cachedSdkLayer(REPO_ROOT, parent)).toBe(dir); // the second call finds it
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
