import { lineOfKey, mergeConfigDefaults, parseConfigDefaults } from '../../../lambdas/core/config/config-defaults';
import { ConfigError } from '../../../lambdas/shared/errors';

const FILE = 'main/cluster/config-defaults.yaml';

describe('parseConfigDefaults', () => {
  it('reads a flat map, keeping every scalar as its source text', () => {
    const items = parseConfigDefaults(
      'replicas: 3\nenabled: true\nzone_count: 007\nperiod: 6h\nempty:\nquoted: "x: y"\n',
      FILE,
    );
    expect(items).toEqual({
      replicas: '3',
      enabled: 'true',
      zone_count: '007',
      period: '6h',
      empty: '',
      quoted: 'x: y',
    });
  });

  it('gives no items for an empty render', () => {
    expect(parseConfigDefaults('\n# nothing here\n', FILE)).toEqual({});
  });

  it('fails naming the file, line and item for a value that is not a string', () => {
    const text = 'a: "1"\n# comment\nnested:\n  b: c\n';
    const act = () => parseConfigDefaults(text, FILE);
    expect(act).toThrow(ConfigError);
    expect(act).toThrow(`${FILE}:3, field nested: config item "nested" must be a string, found a mapping`);
  });

  it('fails for a list value and for a document that is not a mapping', () => {
    expect(() => parseConfigDefaults('zones: [a, b]\n', FILE)).toThrow(
      `${FILE}:1, field zones: config item "zones" must be a string, found a list`,
    );
    expect(() => parseConfigDefaults('- a\n', FILE)).toThrow(
      `${FILE}: config defaults must be a mapping of config item names to strings, found a list`,
    );
  });
});

describe('lineOfKey', () => {
  it('finds plain and quoted top-level keys, not nested ones', () => {
    const text = 'a: 1\n  b: 2\n"c d": 3\n\'e\': 4\nb: 5\n';
    expect(lineOfKey(text, 'a')).toBe(1);
    expect(lineOfKey(text, 'c d')).toBe(3);
    expect(lineOfKey(text, 'e')).toBe(4);
    expect(lineOfKey(text, 'b')).toBe(5);
    expect(lineOfKey(text, 'z')).toBeUndefined();
  });
});

describe('mergeConfigDefaults', () => {
  it('lets later sources override earlier ones', () => {
    expect(
      mergeConfigDefaults(
        [
          { a: 'main', b: 'main' },
          { b: 'extra', c: 'extra' },
        ],
        {},
      ),
    ).toEqual({ a: 'main', b: 'extra', c: 'extra' });
  });

  it('lets registry items always win, defaults only fill absent keys', () => {
    expect(
      mergeConfigDefaults([{ a: 'default', b: 'default' }, { a: 'later-default' }], { a: 'registry', z: 'registry' }),
    ).toEqual({ a: 'registry', b: 'default', z: 'registry' });
  });

  it('keeps an empty registry value (present is present)', () => {
    expect(mergeConfigDefaults([{ a: 'default' }], { a: '' })).toEqual({ a: '' });
  });
});
