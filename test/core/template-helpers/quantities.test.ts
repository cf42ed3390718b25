import {
  formatQuantity,
  kubernetesSizeToKiloBytes,
  memoryQuantityFromMiB,
  parseQuantity,
  scaleQuantity,
  sumQuantities,
} from '../../../lambdas/core/template-helpers/quantities';
import { TemplateRenderError } from '../../../lambdas/shared/errors';

/** Parse then print: Kubernetes' canonical form of a quantity string. */
const canonical = (text: string): string => formatQuantity(parseQuantity(text));

describe('parseQuantity', () => {
  it.each([
    ['1', 1_000_000_000n, 'DecimalSI'],
    ['250m', 250_000_000n, 'DecimalSI'],
    ['0.5', 500_000_000n, 'DecimalSI'],
    ['.5', 500_000_000n, 'DecimalSI'],
    ['1.', 1_000_000_000n, 'DecimalSI'],
    ['1k', 1_000_000_000_000n, 'DecimalSI'],
    ['2M', 2_000_000_000_000_000n, 'DecimalSI'],
    ['1u', 1_000n, 'DecimalSI'],
    ['1n', 1n, 'DecimalSI'],
    ['1Ki', 1024n * 1_000_000_000n, 'BinarySI'],
    ['1.5Gi', 1_610_612_736n * 1_000_000_000n, 'BinarySI'],
    ['1e3', 1_000_000_000_000n, 'DecimalExponent'],
    ['1E3', 1_000_000_000_000n, 'DecimalExponent'],
    ['5e-3', 5_000_000n, 'DecimalExponent'],
    ['1E', 10n ** 27n, 'DecimalSI'],
    ['-3', -3_000_000_000n, 'DecimalSI'],
    ['+3', 3_000_000_000n, 'DecimalSI'],
  ])('%s is %p nano-units, %s', (text, nanos, format) => {
    // Act
    const q = parseQuantity(text);
    // Assert
    expect(q).toEqual({ nanos, format });
  });

  it('rounds values finer than a nano-unit up, away from zero', () => {
    expect(parseQuantity('0.0000000001').nanos).toBe(1n);
    expect(parseQuantity('-0.0000000001').nanos).toBe(-1n);
    expect(parseQuantity('1.0000000001').nanos).toBe(1_000_000_001n);
  });

  it('treats binary values below 1 as decimal', () => {
    expect(parseQuantity('0.0001Ki').format).toBe('DecimalSI');
    expect(parseQuantity('0.5Ki').format).toBe('BinarySI');
  });

  it.each(['', 'abc', '1.2.3', '1x', '1Kib', 'Ki', '.', '1e', '1 Ki', ' 1', '--1', '1,5'])('rejects %p', (text) => {
    expect(() => parseQuantity(text)).toThrow(TemplateRenderError);
  });
});

describe('formatQuantity (canonical form)', () => {
  it.each([
    ['0', '0'],
    ['0Gi', '0'],
    ['-0', '0'],
    ['1000', '1k'],
    ['1500', '1500'],
    ['1000000', '1M'],
    ['0.5', '500m'],
    ['0.001', '1m'],
    ['0.0001', '100u'],
    ['1500m', '1500m'],
    ['2000m', '2'],
    ['1024Mi', '1Gi'],
    ['1536Mi', '1536Mi'],
    ['1.5Gi', '1536Mi'],
    ['2048Ki', '2Mi'],
    ['1023Ki', '1023Ki'],
    ['0.5Ki', '512'],
    ['1Ki', '1Ki'],
    ['100Mi', '100Mi'],
    ['1024', '1024'],
    ['1e3', '1e3'],
    ['1000e3', '1e6'],
    ['12e2', '1200'],
    ['5e-3', '5e-3'],
    ['1E', '1E'],
    ['1000E', '1000E'],
    ['-1500m', '-1500m'],
    ['-2Gi', '-2Gi'],
    ['01', '1'],
    ['1.0Gi', '1Gi'],
  ])('%s prints as %s', (text, expected) => {
    expect(canonical(text)).toBe(expected);
  });

  it('prints a binary value that is not a whole number of bytes in decimal', () => {
    // 1.0000001Ki = 1024.0001024 bytes
    expect(canonical('1.0000001Ki')).toBe('1024000102400n');
  });
});

describe('sumQuantities', () => {
  it.each([
    [['2', '0'], '2'],
    [['2', '3'], '5'],
    [['5', '-3'], '2'],
    [['256m', '0'], '256m'],
    [['2', '256m'], '2256m'],
    [['2', '256m', '-1'], '1256m'],
    [['2', '-256m', '-1'], '744m'],
    [['2Gi', '-512Mi'], '1536Mi'],
    [['2Gi', '-1024Ki'], '2047Mi'],
    [['1Gi', '1Gi'], '2Gi'],
    [['500m', '500m'], '1'],
    [['1e3', '1e3'], '2e3'],
    [[], '0'],
    [['1', '-1'], '0'],
  ])('%p sums to %s', (args, expected) => {
    expect(sumQuantities(...args)).toBe(expected);
  });

  it('takes the format of the first addend (decimal + binary stays decimal)', () => {
    expect(sumQuantities('1000', '1Ki')).toBe('2024');
    expect(sumQuantities('1Ki', '1000')).toBe('2024');
    expect(sumQuantities('1Mi', '1Ki')).toBe('1025Ki');
  });

  it('takes the format of the addend that follows a zero sum', () => {
    expect(sumQuantities('1', '-1', '2Gi')).toBe('2Gi');
  });

  it('fails on a quantity that does not parse, naming it', () => {
    expect(() => sumQuantities('1', 'lots')).toThrow('"lots"');
  });

  it('fails on a non-string argument', () => {
    expect(() => sumQuantities('1', 2)).toThrow('quantity 2 must be a string, got number 2');
  });
});

describe('scaleQuantity', () => {
  it.each([
    ['1', 2.0, '2'],
    ['10', 0.5, '5'],
    ['256m', 2.0, '512m'],
    ['256m', 0.5, '128m'],
    ['1Gi', 2.0, '2Gi'],
    ['1Gi', 0.5, '512Mi'],
    ['2.5Gi', 1.0, '2560Mi'],
    ['1.0Gi', 1.5, '1536Mi'],
    // float32 arithmetic, as CLM: 16Gi × 0.1f is 1717986944 bytes, not 1717986918
    ['16Gi', 0.1, '1717986944'],
    ['8Gi', 0.3, '2576980480'],
    // CPU: 4 × 0.3 = 1200m (not 1333m), 4 × 0.1 = 400m
    ['4', 0.3, '1200m'],
    ['4', 0.1, '400m'],
    // decimal at or above 1024 is scaled as whole units
    ['2000', 0.5, '1k'],
    ['1e3', 0.5, '500'],
    ['1', '0.5', '500m'],
  ])('%s × %p = %s', (quantity, factor, expected) => {
    expect(scaleQuantity(quantity, factor)).toBe(expected);
  });

  it.each([0, -1, '-0.5'])('fails for factor %p', (factor) => {
    expect(() => scaleQuantity('1', factor)).toThrow('scaling factor must be greater than 0.0');
  });

  it('fails for an invalid quantity, naming it', () => {
    expect(() => scaleQuantity('InvalidQuantity', 1)).toThrow(
      'failed to parse InvalidQuantity as k8sresource.Quantity',
    );
  });

  it('fails for a factor that is not a number', () => {
    expect(() => scaleQuantity('1', 'half')).toThrow('scaling factor must be a number');
  });
});

describe('kubernetesSizeToKiloBytes', () => {
  it.each([
    ['1Ki', 1, '1KB'],
    ['1Gi', 0.5, '524288KB'],
    ['4Gi', 0.8, '3355444KB'],
    ['1000', 1, '1KB'],
    ['1M', 1, '977KB'],
  ])('%s × %p → %s', (quantity, scale, expected) => {
    expect(kubernetesSizeToKiloBytes(quantity, scale)).toBe(expected);
  });

  it('fails for a fractional number of bytes', () => {
    expect(() => kubernetesSizeToKiloBytes('1.5', 1)).toThrow('unexpected size for quantity: 1.5');
  });
});

describe('memoryQuantityFromMiB', () => {
  it.each([
    [16384, '16Gi'],
    [8192, '8Gi'],
    [15616, '15616Mi'],
    [512, '512Mi'],
    [1024 * 1024, '1Ti'],
  ])('%p MiB is %s', (mib, expected) => {
    expect(memoryQuantityFromMiB(mib)).toBe(expected);
  });
});
