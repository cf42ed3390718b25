import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJsonStateFile } from '../../../lambdas/adapters/state-file/json-state-file';
import { ConfigError } from '../../../lambdas/shared/errors';

describe('openJsonStateFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'clm-state-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads what save wrote, and nothing when the file is absent', () => {
    expect(openJsonStateFile(dir, 'fleet.json').data).toBeUndefined();
    openJsonStateFile<{ a: number }>(dir, 'fleet.json').save({ a: 1 });

    expect(openJsonStateFile(dir, 'fleet.json').data).toEqual({ a: 1 });
  });

  it.each([
    ['{"a": 1', 'cannot read state: '],
    ['null', 'not state: expected a JSON object, got null'],
    ['[1]', 'not state: expected a JSON object, got a list'],
  ])('refuses a file holding %s with a message naming it, and leaves it alone', (text, message) => {
    const file = join(dir, 'fleet.json');
    writeFileSync(file, text);

    expect(() => openJsonStateFile(dir, 'fleet.json')).toThrow(ConfigError);
    expect(() => openJsonStateFile(dir, 'fleet.json')).toThrow(`${file}: ${message}`);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
