// JSON, by hand, for the reference Pet Store: integers are bigint so that int64 values survive
// exactly in both directions.

export type Json =
  null | boolean | number | bigint | string | readonly Json[] | { readonly [key: string]: Json | undefined };

export function toJson(value: Json): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (isJsonArray(value)) return `[${value.map(toJson).join(',')}]`;
  const members = Object.entries(value).flatMap(([key, member]) =>
    member === undefined ? [] : [`${JSON.stringify(key)}:${toJson(member)}`],
  );
  return `{${members.join(',')}}`;
}

function isJsonArray(value: Json): value is readonly Json[] {
  return Array.isArray(value);
}

/** JSON.parse where every integer-valued number literal becomes an exact bigint; other numbers stay numbers. */
export function parseJsonExact(text: string): unknown {
  const reviver = (_key: string, value: unknown, context?: { source?: string }): unknown =>
    typeof value === 'number' && context?.source !== undefined ? (exactInteger(context.source) ?? value) : value;
  return JSON.parse(text, reviver);
}

/** The exact integer a JSON number literal denotes (1, 1.0, 1e3...), or undefined when it is fractional or huge. */
function exactInteger(literal: string): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return 0n;
  let scale = Number(exponent) - fraction.length;
  while (scale < 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale += 1;
  }
  if (scale < 0 || scale > 40) return undefined;
  const magnitude = BigInt(digits) * 10n ** BigInt(scale);
  return sign === '-' ? -magnitude : magnitude;
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const isInt64 = (value: bigint): boolean => value >= INT64_MIN && value <= INT64_MAX;

/** A decimal integer string in the int64 range, or undefined. */
export function parseInt64(text: string): bigint | undefined {
  if (!/^-?\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  return isInt64(value) ? value : undefined;
}
