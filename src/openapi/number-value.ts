import type { Random } from '../core/random.js';

/** A schema that is an object (not `true`/`false`). */
type Schema = Record<string, unknown>;

const FORMAT_RANGES: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/**
 * The lowest and highest values a numeric schema admits: `minimum`/`maximum`, exclusive bounds in
 * 3.0 (booleans) and 3.1 (numbers) spelling, and the range of an `int32`/`int64` format.
 */
export function numericRange(schema: Schema): { low: number | undefined; high: number | undefined } {
  const integer = schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'));
  const step = integer ? 1 : 0.5;
  let low = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  let high = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  if (typeof schema.exclusiveMinimum === 'number') low = Math.max(low ?? -Infinity, schema.exclusiveMinimum + step);
  else if (schema.exclusiveMinimum === true && low !== undefined) low += step;
  if (typeof schema.exclusiveMaximum === 'number') high = Math.min(high ?? Infinity, schema.exclusiveMaximum - step);
  else if (schema.exclusiveMaximum === true && high !== undefined) high -= step;
  // A format's range only narrows documented bounds: an int64 without a minimum still starts at 1.
  const range = typeof schema.format === 'string' ? FORMAT_RANGES[schema.format] : undefined;
  if (range) {
    if (low !== undefined || (high !== undefined && high < 1)) low = Math.max(low ?? range[0], range[0]);
    if (high !== undefined || (low !== undefined && low > range[1] - 100)) high = Math.min(high ?? range[1], range[1]);
  }
  if (integer) {
    if (low !== undefined) low = Math.ceil(low);
    if (high !== undefined) high = Math.floor(high);
  }
  return { low, high };
}

/** True when `value` is a whole multiple of `multiple` as ajv judges it (the quotient an integer). */
function isMultiple(value: number, multiple: number): boolean {
  return Number.isInteger(value / multiple);
}

/**
 * `value` moved to the nearest multiple of `multipleOf` at or above it that stays within the
 * range; for fractional multiples (0.01) the value is built so that the quotient ajv computes is
 * exact. Unchanged when the schema has no `multipleOf`.
 */
export function aligned(value: number, schema: Schema): number {
  const multiple = schema.multipleOf;
  if (typeof multiple !== 'number' || multiple <= 0 || isMultiple(value, multiple)) return value;
  const { high } = numericRange(schema);
  for (let quotient = Math.ceil(value / multiple); quotient < Math.ceil(value / multiple) + 10; quotient += 1) {
    // Integer quotients of 1/multiple (0.01 → 100) avoid products like 0.07 * 3 = 0.21000000000000002.
    const inverse = 1 / multiple;
    const candidate = Number.isInteger(inverse) ? quotient / inverse : quotient * multiple;
    if (high !== undefined && candidate > high) break;
    if (isMultiple(candidate, multiple)) return candidate;
  }
  return Math.ceil(value / multiple) * multiple;
}

/** The simplest value of a numeric schema: its lowest bound, else 1 (or its highest bound when below 1), aligned. */
export function sampleNumber(schema: Schema): number {
  const { low, high } = numericRange(schema);
  return aligned(low ?? (high !== undefined && high < 1 ? high : 1), schema);
}

/** A seeded value of a numeric schema: within its bounds, at most 100 above the lowest, aligned. */
export function variedNumber(schema: Schema, random: Random): number {
  const { low, high } = numericRange(schema);
  const from = low ?? (high !== undefined && high < 1 ? high - 99 : 1);
  const to = Math.max(from, Math.min(high ?? from + 99, from + 99));
  const integer = schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'));
  const drawn = Number.isSafeInteger(from) && Number.isSafeInteger(to) ? random.int(from, to) : from;
  return aligned(integer || Number.isInteger(drawn) ? drawn : Math.round(drawn), schema);
}
