import { parse as parseTolerant, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { reviveExactNumber } from './json-number.js';

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

/** A parsed value, and whether it may hold bigints (only then does a validator need `exactNumbers`). */
export type JsonParseResult = { ok: true; value: unknown; mayHoldBigInt: boolean } | { ok: false; message: string };

/** How deeply JSON may nest before it is refused: deeper text would overflow the stack of any recursive walk. */
export const MAX_JSON_DEPTH = 100;

/**
 * Parses JSON text; a syntax error, or nesting deeper than `maxDepth`, becomes a message naming
 * what is wrong and where (line, column, offset).
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): JsonParseResult {
  const scan = scanText(text, maxDepth);
  if (scan.tooDeepAt !== undefined) {
    return { ok: false, message: `nesting deeper than ${maxDepth} levels at ${position(text, scan.tooDeepAt)}` };
  }
  try {
    // The reviver costs a call per value; only numbers JavaScript may misread need it.
    const value: unknown = scan.delicateNumbers ? JSON.parse(text, reviveExactNumber) : JSON.parse(text);
    return { ok: true, value, mayHoldBigInt: scan.delicateNumbers };
  } catch (error) {
    return { ok: false, message: locateSyntaxError(text) ?? (error as Error).message };
  }
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
/** A number with fewer digits and no exponent is read exactly enough by JSON.parse (below 2^53, fractions stay fractions). */
const DELICATE_DIGITS = 16;

interface TextScan {
  /** The offset of the first bracket that opens level `maxDepth + 1`, outside strings. */
  tooDeepAt: number | undefined;
  /** Some number has an exponent or 16 digits or more: `JSON.parse` alone may misread it. */
  delicateNumbers: boolean;
}

/** One pass over the text, outside strings: how deep it nests, and whether any number is delicate. */
function scanText(text: string, maxDepth: number): TextScan {
  let depth = 0;
  let inString = false;
  let digits = 0;
  let delicateNumbers = false;
  for (let offset = 0; offset < text.length; offset += 1) {
    const code = text.charCodeAt(offset);
    if (inString) {
      if (code === BACKSLASH) offset += 1;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (code >= DIGIT_0 && code <= DIGIT_9) {
      digits += 1;
      if (digits >= DELICATE_DIGITS) delicateNumbers = true;
      continue;
    }
    if (code === DOT && digits > 0) continue;
    if ((code === LOWER_E || code === UPPER_E) && digits > 0) delicateNumbers = true;
    digits = 0;
    if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > maxDepth) return { tooDeepAt: offset, delicateNumbers };
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return { tooDeepAt: undefined, delicateNumbers };
}

function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column} (offset ${offset})`;
}

/**
 * The JSON pointer of the first `__proto__` key in a parsed value, or undefined. `JSON.parse` keeps
 * such a key as an own property, but any later copy by assignment turns it into the object's
 * prototype, so fields would appear that the client never sent at that place.
 */
export function findPrototypeKey(value: unknown, pointer = ''): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findPrototypeKey(value[index], `${pointer}/${index}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (key === '__proto__') return at;
    const found = findPrototypeKey((value as Record<string, unknown>)[key], at);
    if (found !== undefined) return found;
  }
  return undefined;
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
  const what = printParseErrorCode(first.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return `${what} at ${position(text, first.offset)}`;
}

function writeBigInt(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? JSON.rawJSON(value.toString()) : value;
}

/** `JSON.stringify` that also writes bigint values as exact JSON integers. */
export function stringifyJson(value: unknown): string {
  try {
    // A replacer costs a call per value and V8's fast path (380 ns against 140 ns for a pet);
    // only a bigint needs it, and JSON.stringify refuses one with a TypeError.
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(value, writeBigInt);
  }
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
    for (const [key, item] of Object.entries(value)) {
      // Defined, not assigned: assigning "__proto__" would replace the copy's prototype.
      if (key === '__proto__') define(out, key, exactNumbers(item));
      else out[key] = exactNumbers(item);
    }
    return out;
  }
  return value;
}

function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** True when text may hold a `__proto__` key once parsed (plainly, or spelt with escapes). */
export function mayHoldPrototypeKey(text: string): boolean {
  return text.includes('__proto__') || text.includes('\\u');
}
