// The stand-ins the Lambda bundles use instead of some packages (TASK_BUNDLING.alias): each behaves as the package
// does for what the bundled code asks of it.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Handlebars from 'handlebars';
import { TASK_BUNDLING } from '../../../infra/constructs/task-function';
import type { GitSource as GitSourceClass } from '../../../lambdas/adapters/config-source/git-source';
import { createBareRepo, startGitServer } from '../../support/git-server';

const ROOT = join(__dirname, '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const stub = (name: keyof typeof TASK_BUNDLING.alias) => require(join(ROOT, TASK_BUNDLING.alias[name]));

describe('bundling stubs', () => {
  it('to-buffer: the same Buffer as the real package, or the same error, for every kind of input', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const real = require('to-buffer') as (data: unknown, encoding?: string) => Buffer;
    const toBuffer = stub('to-buffer') as typeof real;
    const bytes = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
    const inputs: [unknown, string?][] = [
      ['tree 12\0', undefined],
      ['68656c6c6f', 'hex'],
      ['aGVsbG8=', 'base64'],
      [Buffer.from('blob'), undefined],
      [bytes, undefined],
      [bytes.subarray(2, 5), undefined],
      [new DataView(bytes.buffer, 1, 3), undefined],
      [new Uint32Array([0xdeadbeef]), undefined],
      [new Uint8Array(0), undefined],
      [[0, 255, 7], undefined],
      [[256], undefined],
      [[1.5], undefined],
      [42, undefined],
      [{ length: 1 }, undefined],
      [null, undefined],
    ];
    const outcome = (f: typeof real, [data, encoding]: [unknown, string?]) => {
      try {
        return { hex: f(data, encoding).toString('hex') };
      } catch (error) {
        return { error: `${(error as Error).name}: ${(error as Error).message}` };
      }
    };
    for (const input of inputs)
      expect({ input, ...outcome(toBuffer, input) }).toEqual({ input, ...outcome(real, input) });
    // a Buffer comes back as it is, a view shares its memory (sha.js hashes it without a copy)
    const buffer = Buffer.from('x');
    expect(toBuffer(buffer)).toBe(buffer);
    expect(toBuffer(bytes.subarray(2)).buffer).toBe(bytes.buffer);
  });

  it('source-map: Handlebars compiles and renders templates without it (its own SourceNode stand-in)', () => {
    jest.isolateModules(() => {
      jest.doMock('source-map', () => stub('source-map'));
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const handlebars = require('handlebars') as typeof Handlebars;
      const template = handlebars.compile('{{#each pools}}{{name}}={{size}}{{#unless @last}}, {{/unless}}{{/each}}');
      expect(
        template({
          pools: [
            { name: 'a', size: 1 },
            { name: 'b<', size: 2 },
          ],
        }),
      ).toBe('a=1, b&lt;=2');
    });
  });

  it('semver: gte answers as the real package does, and refuses what it refuses', () => {
    // the one the X-Ray SDK resolves (its own, not the project's top-level semver)
    const xray = join(ROOT, 'node_modules/aws-xray-sdk-core/dist/lib/patchers');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const real = require(require.resolve('semver', { paths: [xray] })) as { gte(a: string, b: string): boolean };
    const gte = (stub('semver') as typeof real).gte;
    const versions = [
      '2.7.15',
      '2.7.9',
      '2.2.0',
      '10.0.0',
      '1.0.0-rc.1',
      '1.0.0-rc.10',
      '1.0.0-rc.1.1',
      '1.0.0-alpha',
      '1.0.0-alpha.beta',
      '1.0.0',
      'v1.0.0',
      '1.0.0+build.5',
      '3.0.0-1',
      '3.0.0-x',
      ' 2.1.0 ',
      '=2.1.0',
      '1.2.3-01',
    ];
    const outcome = (f: typeof gte, a: string, b: string) => {
      try {
        return f(a, b);
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
    };
    for (const a of versions)
      for (const b of versions) expect([a, b, outcome(gte, a, b)]).toEqual([a, b, outcome(real.gte, a, b)]);
    for (const bad of ['2.7', 'latest', '01.2.3'])
      expect([bad, outcome(gte, bad, '2.7.0')]).toEqual([bad, outcome(real.gte, bad, '2.7.0')]);
  });

  describe('pako', () => {
    interface Inflator {
      result?: Uint8Array;
      err: number;
      msg: string;
      strm: { avail_in: number };
      push(chunk: Uint8Array, end: boolean): boolean;
    }
    interface Pako {
      inflate(bytes: Uint8Array): Uint8Array;
      deflate(bytes: Uint8Array): Uint8Array;
      Inflate: new () => Inflator;
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const real = require('pako') as Pako;
    const pako = () => stub('pako') as Pako;
    const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
    const thrown = (f: () => unknown) => {
      try {
        return { hex: hex(f() as Uint8Array) };
      } catch (error) {
        return { thrown: typeof error, message: String(error) };
      }
    };
    const contents = [
      Buffer.alloc(0),
      Buffer.from('blob 5\0hello'),
      Buffer.from('x'.repeat(70_000)),
      randomBytes(9_000),
    ];

    it('inflate and deflate: what the real package gives, its error (a string) for corrupt data', () => {
      for (const content of contents) {
        expect(hex(pako().inflate(real.deflate(content)))).toBe(hex(content));
        expect(hex(real.inflate(pako().deflate(content)))).toBe(hex(content));
      }
      const garbage = Buffer.from('garbage!!');
      expect(thrown(() => pako().inflate(garbage))).toEqual(thrown(() => real.inflate(garbage)));
      // a truncated stream: the real package returns what it inflated so far, the stand-in refuses it
      const truncated = real.deflate(contents[2]).subarray(0, 40);
      expect(thrown(() => pako().inflate(truncated))).toEqual({ thrown: 'string', message: 'unexpected end of file' });
    });

    /** Read deflate streams one after another from chunks of `size` bytes, as isomorphic-git reads a packfile. */
    function readObjects(module: Pako, pack: Buffer, size: number) {
      const objects: { hex: string; availIn: number }[] = [];
      let offset = 0;
      while (offset < pack.length) {
        const inflator = new module.Inflate();
        let consumed = offset;
        while (!inflator.result) {
          const chunk = pack.subarray(consumed, consumed + size);
          if (chunk.length === 0) return { objects, ended: 'in the middle of a stream' };
          inflator.push(chunk, false);
          if (inflator.err) return { objects, error: [inflator.err, inflator.msg] };
          consumed += chunk.length;
        }
        objects.push({ hex: hex(inflator.result), availIn: inflator.strm.avail_in });
        offset = consumed - inflator.strm.avail_in;
      }
      return { objects };
    }

    it('Inflate: the same objects and unused input as the real package, whatever the chunk size', () => {
      const streams = contents.map((c) => real.deflate(c));
      const pack = Buffer.concat(streams);
      for (const size of [1, 7, 64, 4_096, pack.length]) {
        const ours = readObjects(pako(), pack, size);
        expect(ours).toEqual(readObjects(real, pack, size));
        expect(ours.objects.map((o) => o.hex)).toEqual(contents.map(hex));
      }
      const truncated = pack.subarray(0, pack.length - 3);
      expect(readObjects(pako(), truncated, 64)).toEqual(readObjects(real, truncated, 64));
      const corrupt = Buffer.concat([streams[0], Buffer.from('garbage!!')]);
      expect(readObjects(pako(), corrupt, 64)).toEqual(readObjects(real, corrupt, 64));
    });

    it('isomorphic-git fetches and checks out through it from git http-backend', async () => {
      const root = mkdtempSync(join(tmpdir(), 'clm-pako-'));
      const workdir = mkdtempSync(join(tmpdir(), 'clm-pako-work-'));
      const repo = createBareRepo(root, 'config');
      const big = Array.from({ length: 4_000 }, (_, i) => `line ${i}: ${randomBytes(12).toString('hex')}`);
      repo.commit({ 'cluster/big.yaml': big.join('\n'), 'cluster/small.yaml': 'a: 1\n' }, 'first');
      const edited = [...big.slice(0, 2_000), 'changed: true', ...big.slice(2_000)].join('\n');
      const second = repo.commit({ 'cluster/big.yaml': edited }, 'second (a delta of the first)');
      const server = await startGitServer({ projectRoot: root });
      let pushes = 0;
      try {
        let GitSource!: typeof GitSourceClass;
        jest.isolateModules(() => {
          jest.doMock('pako', () => {
            const { Inflate, ...rest } = pako();
            class Counted extends Inflate {
              override push(chunk: Uint8Array, end: boolean) {
                pushes++;
                return super.push(chunk, end);
              }
            }
            return { ...rest, Inflate: Counted };
          });
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          ({ GitSource } = require('../../../lambdas/adapters/config-source/git-source'));
        });
        const source = new GitSource({ name: 'main', url: `${server.url}/config.git`, workdir, fetchTtlMs: 0 });
        expect(await source.resolveVersion('main')).toBe(second);
        const files = (await source.checkout(second)).files;
        expect(files.get('cluster/big.yaml')).toBe(edited);
        expect(files.get('cluster/small.yaml')).toBe('a: 1\n');
        expect(pushes).toBeGreaterThan(0);
      } finally {
        await server.close();
        rmSync(root, { recursive: true, force: true });
        rmSync(workdir, { recursive: true, force: true });
      }
    });
  });
});
