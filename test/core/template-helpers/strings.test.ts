import { append, dict, index, len } from '../../../lambdas/core/template-helpers/collections';
import { base64, base64Decode, sha256Hex } from '../../../lambdas/core/template-helpers/encoding';
import { goString, print, printf } from '../../../lambdas/core/template-helpers/format';
import { and, eq, ge, gt, le, lt, ne, not, or, truth } from '../../../lambdas/core/template-helpers/logic';
import {
  accountID,
  getAWSAccountID,
  indent,
  join,
  parseInt64,
  split,
} from '../../../lambdas/core/template-helpers/strings';

describe('strings', () => {
  it('split: empty gives no items, an empty separator gives characters', () => {
    expect(split('', ',')).toEqual([]);
    expect(split('a,,b', ',')).toEqual(['a', '', 'b']);
    expect(split('aü', '')).toEqual(['a', 'ü']);
  });

  it('join drops nil items and prints others Go-style', () => {
    expect(join('-', ['a', null, 1, undefined, ['x', 'y']])).toBe('a-1-[x y]');
    expect(join(',', null)).toBe('');
  });

  it('indent pads every line, the first included', () => {
    expect(indent(4, 'a\n\nb')).toBe('    a\n    \n    b');
  });

  it('accountID wants exactly type:id; getAWSAccountID takes the second part of anything', () => {
    expect(accountID('aws:123')).toBe('123');
    expect(() => accountID('aws:123:x')).toThrow('invalid account (expected type:id): aws:123:x');
    expect(getAWSAccountID('aws:123:x')).toBe('123');
  });

  it('parseInt64 takes a sign, refuses spaces, decimals and values beyond 2^53', () => {
    expect(parseInt64('+5')).toBe(5);
    expect(parseInt64('-0')).toBe(0);
    expect(() => parseInt64('1.5')).toThrow('invalid syntax');
    expect(() => parseInt64(' 1')).toThrow('invalid syntax');
    expect(() => parseInt64('9007199254740993')).toThrow('beyond ±2^53');
    expect(parseInt64('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('encoding', () => {
  it('round-trips UTF-8 through base64', () => {
    expect(base64Decode(base64('grüße\n'))).toBe('grüße\n');
  });

  it('refuses URL-safe alphabet, missing padding and spaces, as Go StdEncoding does', () => {
    expect(() => base64Decode('a-_b')).toThrow('illegal base64 data');
    expect(() => base64Decode('YQ')).toThrow('illegal base64 data');
    expect(() => base64Decode('YQ== ')).toThrow('illegal base64 data');
  });

  it('hashes UTF-8 bytes', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('format', () => {
  it('prints lists and maps as Go does', () => {
    expect(goString({ b: 1, a: [true, null] })).toBe('map[a:[true <nil>] b:1]');
  });

  it('print adds spaces only between two non-strings', () => {
    expect(print(1, 2, 'a', 3, 'b', 'c')).toBe('1 2a3bc');
  });

  it('printf pads, signs and quotes', () => {
    expect(printf('%5s|%-5d|%+d|%03d|%q|%X|%x', 'ab', 42, 7, -5, 'a"b', 255, 'hi')).toBe(
      '   ab|42   |+7|-05|"a\\"b"|FF|6869',
    );
  });
});

describe('logic', () => {
  it('truth is Go truth', () => {
    expect([0, '', null, undefined, false, [], {}].map(truth)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect([1, 'x', true, [0], { a: 1 }, -1].map(truth)).toEqual([true, true, true, true, true, true]);
  });

  it('compares like kinds only', () => {
    expect(eq(1, 1n)).toBe(true);
    expect(eq(null, undefined)).toBe(true);
    expect(eq('a', null)).toBe(false);
    expect(ne('a', 'b')).toBe(true);
    expect(lt('a', 'b') && le(1, 1) && gt(2, 1) && ge('b', 'b')).toBe(true);
    expect(() => eq(true, 1)).toThrow('incompatible types for comparison: boolean true and number 1');
  });

  it('and / or return an argument, not a boolean', () => {
    expect(and('a', 0, 'b')).toBe(0);
    expect(and('a', 'b')).toBe('b');
    expect(or(0, 'x', 'y')).toBe('x');
    expect(or(0, '')).toBe('');
    expect(not([])).toBe(true);
  });
});

describe('collections', () => {
  it('dict builds a map, index walks several keys', () => {
    const d = dict('a', dict('b', ['x', 'y']));
    expect(index(d, 'a', 'b', 1)).toBe('y');
    expect(index(d, 'a', 'missing')).toBe('');
    expect(index(null, 'a')).toBe('');
    expect(index(d)).toBe(d);
  });

  it('index of a string gives the byte, as Go does', () => {
    expect(index('AB', 1)).toBe(66);
  });

  it('append does not modify its input', () => {
    const base = ['a'];
    expect(append(base, 'b', 'c')).toEqual(['a', 'b', 'c']);
    expect(base).toEqual(['a']);
    expect(append(null, 'x')).toEqual(['x']);
  });

  it('len counts bytes of strings, items, keys', () => {
    expect([len('ü'), len([1, 2]), len({ a: 1 })]).toEqual([2, 2, 1]);
  });
});
