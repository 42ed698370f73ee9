/**
 * How kennel reads a JSON number's text: integers stay exact (unsafe ones become bigint), and a
 * number that is not an integer stays one. `JSON.parse` reads `1.0e-400` as 0 and
 * `0.50000000000000001e1` as 5, so a validator would take a fraction for an integer; here such
 * a number becomes the nearest double that is not an integer, on the side of the true value.
 */

/** A decimal as written: sign, significant digits (no leading zeros; '' for zero) and a power of ten. */
interface Decimal {
  negative: boolean;
  digits: string;
  scale: number;
}

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Above this, every double is an integer, so a fraction cannot be kept apart from one. */
const FRACTIONS_END = 2 ** 52;

function readDecimal(source: string): Decimal | undefined {
  const match = NUMBER.exec(source);
  if (!match) return undefined;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  return { negative: sign === '-', digits, scale: Number(exponent) - fraction.length };
}

/** The decimal's exact integer value, or undefined when it has a fractional part. */
function exactInteger({ negative, digits, scale }: Decimal): bigint | undefined {
  if (digits === '') return 0n;
  const significant = digits.replace(/0+$/, '');
  const power = scale + (digits.length - significant.length);
  if (power < 0) return undefined;
  const magnitude = BigInt(significant) * 10n ** BigInt(power);
  return negative ? -magnitude : magnitude;
}

/** +1 when the decimal is above the integer `value`, -1 when below (it is never equal). */
function sideOf(decimal: Decimal, value: number): 1 | -1 {
  if (value === 0) return decimal.negative ? -1 : 1;
  const significant = BigInt(decimal.digits) * (decimal.negative ? -1n : 1n);
  // scale < 0 here (the decimal is not an integer) and |value| >= 1 bounds -scale by the digits' length.
  const scaled = BigInt(value) * 10n ** BigInt(-decimal.scale);
  return significant > scaled ? 1 : -1;
}

/** The next double after `value` towards `side`. */
function nextDouble(value: number, side: 1 | -1): number {
  if (value === 0) return side * Number.MIN_VALUE;
  const cell = new Float64Array([value]);
  const bits = new BigInt64Array(cell.buffer);
  bits[0]! += value > 0 === side > 0 ? 1n : -1n;
  return cell[0]!;
}

/** `JSON.parse` reviver (with source text access): see the module comment. */
export function reviveExactNumber(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || !Number.isInteger(value)) return value;
  const source = context?.source;
  if (source === undefined) return value;
  if (/^-?\d+$/.test(source)) return Number.isSafeInteger(value) ? value : BigInt(source);
  const decimal = readDecimal(source);
  if (!decimal) return value;
  const exact = exactInteger(decimal);
  if (exact !== undefined) return Number.isSafeInteger(value) ? value : exact;
  return Math.abs(value) < FRACTIONS_END ? nextDouble(value, sideOf(decimal, value)) : value;
}
