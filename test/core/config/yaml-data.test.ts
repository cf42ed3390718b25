/** YAML as data: dates stay strings, repeated keys keep the last value and are reported with their line. */
import { loadAllLastKeyWins } from '../../../lambdas/core/config/yaml-data';
import { ConfigError } from '../../../lambdas/shared/errors';

describe('loadAllLastKeyWins', () => {
  it('reads every document, keeping unquoted dates as strings and merges working', () => {
    const { documents, duplicates } = loadAllLastKeyWins('a: 2010-09-09\nb: {<<: {c: 1}, d: 2}\n---\ne: 3\n', 'f');
    expect(documents).toEqual([{ a: '2010-09-09', b: { c: 1, d: 2 } }, { e: 3 }]);
    expect(duplicates).toEqual([]);
  });

  it('keeps the last of repeated keys, in block and flow mappings and every document, and names each repetition', () => {
    const text = 'a: 1\nb:\n  c: 2\n  c: 3\na: 4\nf: {x: 1, x: 2}\n---\nk: 1\n\nk: 2\n';
    const { documents, duplicates } = loadAllLastKeyWins(text, 'f');
    expect(documents).toEqual([{ a: 4, b: { c: 3 }, f: { x: 2 } }, { k: 2 }]);
    expect(duplicates).toEqual([
      { key: 'c', line: 4 },
      { key: 'a', line: 5 },
      { key: 'x', line: 6 },
      { key: 'k', line: 10 },
    ]);
  });

  it('still reports syntax errors with the file and line', () => {
    expect(() => loadAllLastKeyWins('a: 1\n  b: 2\n', 'f.yaml')).toThrow(ConfigError);
    expect(() => loadAllLastKeyWins('a: 1\na: 2\nb: [\n', 'f.yaml')).toThrow(/^f\.yaml:4: invalid YAML/);
  });
});
