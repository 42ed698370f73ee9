import type { JsonSchema } from './openapi-types.js';
import { quoteShort } from '../core/text.js';

/** A parameter value as read from a URL or header (strings), turned into the type its schema says. */
export type Coerced = { ok: true; value: unknown } | { ok: false; message: string };

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
/** An integer of at most this many digits is exact as a number: no bigint needed to read it. */
const SAFE_DIGITS = 15;
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** An integer's text as a number when it is a safe integer, else as a bigint (digit for digit). */
function integerOf(text: string): number | bigint {
  // Read on every request with an integer parameter: three bigints per id were the dearest part of it.
  if (text.length - (text.startsWith('-') ? 1 : 0) <= SAFE_DIGITS) return Number(text) + 0; // -0 reads as 0
  const big = BigInt(text);
  return big >= MIN_SAFE && big <= MAX_SAFE ? Number(big) : big;
}

function typesOf(schema: JsonSchema | undefined): string[] {
  if (typeof schema !== 'object') return [];
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((item): item is string => typeof item === 'string');
  if (Array.isArray(schema.enum) && schema.enum.every((item) => typeof item === 'string')) return ['string'];
  return [];
}

function scalar(text: string, schema: JsonSchema | undefined): Coerced {
  const types = typesOf(schema);
  if (types.length === 0 || types.includes('string')) return { ok: true, value: text };
  if (types.includes('integer') && INTEGER.test(text)) return { ok: true, value: integerOf(text) };
  if (types.includes('number') && NUMBER.test(text)) return { ok: true, value: Number(text) };
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return { ok: true, value: text === 'true' };
  if (types.includes('null') && text === '') return { ok: true, value: null };
  return { ok: false, message: `must be ${types.join(' or ')} (got ${quoteShort(text)})` };
}

/**
 * Coerces a raw parameter: `explode` arrays come as repeated keys, others comma-separated; a
 * repeated key for a non-array parameter is an error rather than a silent pick of one value.
 */
export function coerceParameter(raw: string | string[], schema: JsonSchema | undefined, explode: boolean): Coerced {
  const itemsSchema = typeof schema === 'object' ? (schema.items as JsonSchema | undefined) : undefined;
  if (typesOf(schema).includes('array')) {
    const parts = Array.isArray(raw) ? raw : explode ? [raw] : raw.split(',');
    const values: unknown[] = [];
    for (const part of parts) {
      const item = scalar(part, itemsSchema);
      if (!item.ok) return item;
      values.push(item.value);
    }
    return { ok: true, value: values };
  }
  if (Array.isArray(raw)) return { ok: false, message: `must be given once (got ${raw.length} values)` };
  return scalar(raw, schema);
}

/** The schema's `default`, if it declares one. */
export function defaultOf(schema: JsonSchema | undefined): { present: boolean; value?: unknown } {
  return typeof schema === 'object' && 'default' in schema
    ? { present: true, value: schema.default }
    : { present: false };
}

/**
 * A path segment in the `matrix` (`;id=5`, `;id=3,4`, `;id=3;id=4`) or `label` (`.5`, `.3.4`) style
 * reduced to what `coerceParameter` reads: the value, or one string per exploded item. Other
 * styles (`simple`) pass through; a segment without the style's prefix is an error.
 */
export function unstyledPathValue(
  raw: string,
  style: string | undefined,
  name: string,
  explode: boolean,
): { ok: true; value: string | string[] } | { ok: false; message: string } {
  if (style === 'label') {
    if (!raw.startsWith('.'))
      return { ok: false, message: `must be in label style, ".value" (got ${quoteShort(raw)})` };
    const parts = raw.slice(1).split('.');
    return { ok: true, value: explode && parts.length > 1 ? parts : raw.slice(1) };
  }
  if (style === 'matrix') {
    const prefix = `;${name}=`;
    const parts = raw.split(';').slice(1);
    if (!raw.startsWith(prefix) && raw !== `;${name}`)
      return { ok: false, message: `must be in matrix style, "${prefix}value" (got ${quoteShort(raw)})` };
    const values = parts.map((part) => (part.startsWith(`${name}=`) ? part.slice(name.length + 1) : undefined));
    if (values.some((value) => value === undefined) && raw !== `;${name}`)
      return { ok: false, message: `must be in matrix style, "${prefix}value" (got ${quoteShort(raw)})` };
    const defined = values.filter((value): value is string => value !== undefined);
    if (defined.length === 0) return { ok: true, value: '' };
    return { ok: true, value: explode && defined.length > 1 ? defined : defined[0]! };
  }
  return { ok: true, value: raw };
}

/**
 * Coerces what `styledRaw` read: an object's fields each by its property's schema (fields the
 * schema does not declare stay text, for validation to judge), anything else as `coerceParameter`.
 */
export function coerceStyled(
  raw: string | string[] | Record<string, string | string[]>,
  schema: JsonSchema | undefined,
  explode: boolean,
): Coerced {
  if (typeof raw === 'string' || Array.isArray(raw)) return coerceParameter(raw, schema, explode);
  const properties = (typeof schema === 'object' && (schema.properties as Record<string, JsonSchema>)) || {};
  const extra =
    typeof schema === 'object' && typeof schema.additionalProperties === 'object'
      ? schema.additionalProperties
      : undefined;
  const value: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(raw)) {
    const property = properties[name] ?? (extra as JsonSchema | undefined);
    const coerced = coerceParameter(text, property, true);
    if (!coerced.ok) return { ok: false, message: `field "${name}" ${coerced.message}` };
    Object.defineProperty(value, name, { value: coerced.value, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, value };
}
