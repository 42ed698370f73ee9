import { parse as parseTolerant, printParseErrorCode, type ParseError } from 'jsonc-parser';

/**
 * JSON parsing that keeps integers exact. `JSON.parse` turns 9007199254740993 into ...992, which
 * would make a mock echo a different int64 than the client sent; here unsafe integers become
 * bigint, and `stringifyJson` writes them back digit for digit (via `JSON.rawJSON`).
 */

declare global {
  interface JSON {
    /** ES2025 JSON.parse source text access (Node ≥ 21): emit `text` verbatim as a JSON value. */
    rawJSON(text: string): unknown;
  }
}

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; message: string };

interface SourceContext {
  source?: string;
}

function reviveExactInteger(this: unknown, _key: string, value: unknown, context?: SourceContext): unknown {
  if (typeof value !== 'number' || Number.isSafeInteger(value) || !Number.isInteger(value)) return value;
  const source = context?.source;
  return source !== undefined && /^-?\d+$/.test(source) ? BigInt(source) : BigInt(value);
}

/** Parses JSON text; a syntax error becomes a message naming what is wrong and where (line, column, offset). */
export function parseJson(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text, reviveExactInteger as (key: string, value: unknown) => unknown) };
  } catch (error) {
    return { ok: false, message: locateSyntaxError(text) ?? (error as Error).message };
  }
}

/**
 * V8's messages name a position only for some errors, so the first error is located with
 * jsonc-parser in strict mode (no comments, no trailing commas).
 */
function locateSyntaxError(text: string): string | undefined {
  const errors: ParseError[] = [];
  parseTolerant(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return undefined;
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - before.lastIndexOf('\n');
  const what = printParseErrorCode(first.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return `${what} at line ${line}, column ${column} (offset ${first.offset})`;
}

function writeBigInt(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? JSON.rawJSON(value.toString()) : value;
}

/** `JSON.stringify` that also writes bigint values as exact JSON integers. */
export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, writeBigInt);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const BEYOND_INT64 = 2 ** 64;

/**
 * The value as a validator should see it: exact integers become numbers, and integers outside
 * int64 become ±2^64 so that an int64 format check (which can only compare floats) rejects them.
 */
export function exactNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') {
    if (value < INT64_MIN) return -BEYOND_INT64;
    if (value > INT64_MAX) return BEYOND_INT64;
    return Number(value);
  }
  if (Array.isArray(value)) return value.map(exactNumbers);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = exactNumbers(item);
    return out;
  }
  return value;
}
