/**
 * Kubernetes resource quantities (k8s.io/apimachinery `resource.Quantity`), exactly enough for CLM's helpers:
 * parsing (binary Ki..Ei, decimal n/u/m/""/k..E, exponents `1e3`), canonical printing (`1536Mi`, `2256m`,
 * `1k`), and the helpers `sumQuantities`, `scaleQuantity`, `kubernetesSizeToKiloBytes` and the formats of
 * `instanceTypeCPUQuantity` / `instanceTypeMemoryQuantity`.
 *
 * A value is held exactly as an integer count of nano-units (bigint), like Kubernetes, which rounds anything
 * finer up (away from zero) to 1n.
 */
import { expectNumber, expectString, helperError } from './args';

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value in units of 10^-9. */
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

const NANO = 1_000_000_000n;
const MAX_INT64 = 2n ** 63n - 1n;

const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_SUFFIXES: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIXES).map(([suffix, exp]) => [exp, suffix]));
const BINARY_BY_EXPONENT = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

const SHAPE = /^([+-]?)(\d*)(?:\.(\d*))?([a-zA-Z]*(?:[-+]?\d+)?)$/;

/** Integer division rounding away from zero. */
function divUp(value: bigint, divisor: bigint): bigint {
  const q = value / divisor;
  return value % divisor === 0n ? q : value < 0n ? q - 1n : q + 1n;
}

function pow10(exp: number): bigint {
  return 10n ** BigInt(exp);
}

/** resource.ParseQuantity. */
export function parseQuantity(text: string): Quantity {
  const shape = SHAPE.exec(text);
  if (!shape || (shape[2] === '' && (shape[3] ?? '') === '')) {
    throw helperError(
      `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': ${JSON.stringify(text)}`,
    );
  }
  const negative = shape[1] === '-';
  const whole = shape[2] ?? '';
  const fraction = shape[3] ?? '';
  const suffix = shape[4] ?? '';
  let format: QuantityFormat;
  let decimalExp = 0;
  let binaryExp = 0;
  if (suffix in DECIMAL_SUFFIXES) {
    format = 'DecimalSI';
    decimalExp = DECIMAL_SUFFIXES[suffix] ?? 0;
  } else if (suffix in BINARY_SUFFIXES) {
    format = 'BinarySI';
    binaryExp = BINARY_SUFFIXES[suffix] ?? 0;
  } else if (/^[eE][-+]?\d{1,4}$/.test(suffix)) {
    format = 'DecimalExponent';
    decimalExp = Number(suffix.slice(1));
  } else {
    throw helperError(`unable to parse quantity's suffix: ${JSON.stringify(text)}`);
  }
  // value = digits × 10^(decimalExp − fraction digits) × 2^binaryExp, expressed in nano-units, rounded up.
  const digits = BigInt(`${whole}${fraction}` || '0') * 2n ** BigInt(binaryExp);
  const shift = decimalExp - fraction.length + 9;
  let nanos = shift >= 0 ? digits * pow10(shift) : divUp(digits, pow10(-shift));
  if (format === 'BinarySI' && nanos > MAX_INT64 * NANO) nanos = MAX_INT64 * NANO;
  if (format === 'BinarySI' && nanos < NANO) format = 'DecimalSI';
  return { nanos: negative ? -nanos : nanos, format };
}

/** Quantity.String(): Kubernetes' canonical form. */
export function formatQuantity(quantity: Quantity): string {
  const { nanos } = quantity;
  if (nanos === 0n) return '0';
  const sign = nanos < 0n ? '-' : '';
  const abs = nanos < 0n ? -nanos : nanos;
  let format = quantity.format;
  if (format === 'BinarySI' && (abs < 1024n * NANO || abs % NANO !== 0n)) format = 'DecimalSI';
  if (format === 'BinarySI') {
    let value = abs / NANO;
    let exp = 0;
    while (exp < BINARY_BY_EXPONENT.length - 1 && value % 1024n === 0n) {
      value /= 1024n;
      exp++;
    }
    return `${sign}${value}${BINARY_BY_EXPONENT[exp]}`;
  }
  let mantissa = abs;
  let exp = -9;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exp++;
  }
  while (((exp % 3) + 3) % 3 !== 0) {
    mantissa *= 10n;
    exp--;
  }
  if (format === 'DecimalExponent') return `${sign}${mantissa}${exp === 0 ? '' : `e${exp}`}`;
  while (exp > 18) {
    mantissa *= 1000n;
    exp -= 3;
  }
  return `${sign}${mantissa}${DECIMAL_BY_EXPONENT.get(exp) ?? ''}`;
}

function parseArgument(value: unknown, what: string): Quantity {
  return parseQuantity(expectString(value, what));
}

/** Sum of quantities; the result takes the format of the addend that was added while the sum was zero. */
export function sumQuantities(...quantities: unknown[]): string {
  let total = 0n;
  let format: QuantityFormat = 'DecimalSI';
  quantities.forEach((value, i) => {
    const q = parseArgument(value, `quantity ${i + 1}`);
    if (total === 0n) format = q.format;
    total += q.nanos;
  });
  return formatQuantity({ nanos: total, format });
}

/**
 * Multiplies a quantity by factor > 0, in float32 arithmetic as CLM does. Decimal values below 1024 (CPU)
 * are scaled in milli-units; everything else (memory) as whole units, truncated.
 */
export function scaleQuantity(quantity: unknown, factor: unknown): string {
  const f = Math.fround(expectNumber(factor, 'scaling factor'));
  if (f <= 0) throw helperError('scaling factor must be greater than 0.0');
  const text = expectString(quantity, 'quantity');
  let q: Quantity;
  try {
    q = parseQuantity(text);
  } catch (error) {
    throw helperError(`failed to parse ${text} as k8sresource.Quantity: ${(error as Error).message}`, error);
  }
  const scale = (units: bigint): bigint => BigInt(Math.trunc(Math.fround(Math.fround(Number(units)) * f)));
  const value = divUp(q.nanos, NANO);
  if (value < 1024n && q.format === 'DecimalSI') {
    return formatQuantity({ nanos: scale(divUp(q.nanos, 1_000_000n)) * 1_000_000n, format: q.format });
  }
  return formatQuantity({ nanos: scale(value) * NANO, format: q.format });
}

/** A whole-byte quantity → `ceil(bytes / 1024 × scale)KB`. */
export function kubernetesSizeToKiloBytes(quantity: unknown, scale: unknown): string {
  const text = expectString(quantity, 'quantity');
  const factor = expectNumber(scale, 'scale');
  const q = parseQuantity(text);
  if (q.nanos % NANO !== 0n || q.nanos > MAX_INT64 * NANO || q.nanos < -MAX_INT64 * NANO) {
    throw helperError(`unexpected size for quantity: ${text}`);
  }
  return `${Math.ceil((Number(q.nanos / NANO) / 1024) * factor)}KB`;
}

/** The CPU quantity of `vcpu` cores: `4`. */
export function cpuQuantity(vcpu: number): string {
  return String(vcpu);
}

/** The memory quantity of `mib` MiB, as a binary quantity: 16384 → `16Gi`, 15616 → `15616Mi`. */
export function memoryQuantityFromMiB(mib: number): string {
  return formatQuantity({ nanos: BigInt(Math.trunc(mib)) * 1024n * 1024n * NANO, format: 'BinarySI' });
}
