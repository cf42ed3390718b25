// The stand-ins the Lambda bundles use instead of some packages (TASK_BUNDLING.alias): each behaves as the package
// does for what the bundled code asks of it.
import { join } from 'node:path';
import type Handlebars from 'handlebars';
import { TASK_BUNDLING } from '../../../infra/constructs/task-function';

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
});
