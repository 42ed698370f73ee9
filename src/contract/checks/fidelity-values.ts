import type { JsonSchema } from '../../openapi/openapi-types.js';
import { isReference } from '../../openapi/generate.js';
import { integerBounds, isFreeText, objectShape, typesOf } from '../../openapi/schema-shape.js';
import type { Severity } from '../types.js';
import { sameJson } from './same-json.js';
import { show } from './failure.js';

/** A body whose values a deployment must store exactly; `refusal` is how wrong it is to refuse it (undefined: fair). */
export interface FidelityCase {
  label: string;
  value: Record<string, unknown>;
  /** The properties set to the tricky value. */
  probed: string[];
  refusal: Severity | undefined;
}

interface TrickyText {
  label: string;
  text: (prefix: string) => string;
  /** Undocumented limits on control characters and length are common: refusing those is only a warning. */
  refusal: Severity;
}

const LONG_UNIT = 'Ωmega-犬-🐕 ';

/** Strings that storage layers, encoders and sanitisers are known to alter. */
const TRICKY_TEXTS: readonly TrickyText[] = [
  { label: 'Greek', text: (p) => `${p}Κέρβερος ο φύλακας`, refusal: 'error' },
  { label: 'CJK', text: (p) => `${p}小狗ポチ 강아지 𠮷野家`, refusal: 'error' },
  { label: 'Arabic', text: (p) => `${p}كلب صغير ١٢٣`, refusal: 'error' },
  { label: 'Devanagari', text: (p) => `${p}कुत्ता शेरू`, refusal: 'error' },
  { label: 'emoji and astral characters', text: (p) => `${p}🐕‍🦺 🐈‍⬛ 👍🏽 🇳🇴 𝔘𝔫𝔦`, refusal: 'error' },
  // Decomposed and precomposed forms side by side: normalising to either form changes the text.
  { label: 'combining marks', text: (p) => `${p}Cafe\u0301 Zoe\u0308 A\u030a café`, refusal: 'error' },
  { label: 'quotes and markup', text: (p) => `${p}O'Brien "Rex" <b>&amp;</b> <script>`, refusal: 'error' },
  // Only backslashes before valid JSON escape letters: a double unescape still yields valid JSON.
  { label: 'backslashes', text: (p) => `${p}C:\\new\\table \\\\server\\files \\u00e9 \\/`, refusal: 'error' },
  { label: 'surrounding whitespace', text: (p) => `  ${p}double  spaces\u00a0\u2028  `, refusal: 'error' },
  {
    label: 'tab, newline and control characters',
    text: (p) => `${p}\ttab\nnewline\r\nbell\u0007 escape\u001b delete\u007f c1\u0085`,
    refusal: 'warning',
  },
  { label: 'a NUL character', text: (p) => `${p}nul\u0000byte`, refusal: 'warning' },
  { label: 'a long string (600 characters)', text: (p) => `${p}${LONG_UNIT.repeat(60)}`, refusal: 'warning' },
];

const INT64_EXTREMES = [
  2n ** 63n - 1n,
  -(2n ** 63n),
  -(2n ** 63n - 1n),
  2n ** 53n + 1n,
  2n ** 53n - 1n,
  -(2n ** 53n + 1n),
  0n,
  -1n,
];
const INT32_EXTREMES = [2n ** 31n - 1n, -(2n ** 31n), 0n, -1n];

/** Code points, so that clipping never splits a surrogate pair (JSON Schema counts code points too). */
function fitted(text: string, schema: JsonSchema): string {
  if (typeof schema !== 'object') return text;
  const points = Array.from(text);
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const clipped = points.slice(0, max);
  while (clipped.length < min) clipped.push('x');
  return clipped.join('');
}

/** The run's prefix (so leftovers can be found) when the schema leaves room for it and the tricky part. */
function prefixFor(prefix: string, schema: JsonSchema): string {
  const max = typeof schema === 'object' && typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return max >= prefix.length + 32 ? `${prefix} ` : '';
}

/** String properties free text may go in: no enum, const or format, and not a reference to something else. */
function freeTextProperties(properties: Record<string, JsonSchema>): [string, JsonSchema][] {
  return Object.entries(properties).filter(([name, schema]) => isFreeText(schema) && !isReference(name));
}

/** The extremes of an int32/int64 property within its bounds, and the bounds themselves. */
function integerExtremes(schema: JsonSchema): bigint[] {
  const { minimum, maximum, format } = integerBounds(schema);
  const pool = format === 'int64' ? INT64_EXTREMES : format === 'int32' ? INT32_EXTREMES : [];
  if (pool.length === 0) return [];
  const low = minimum === undefined ? undefined : BigInt(Math.ceil(minimum));
  const high = maximum === undefined ? undefined : BigInt(Math.floor(maximum));
  const inside = pool.filter((value) => (low === undefined || value >= low) && (high === undefined || value <= high));
  const bounds = [low, high].filter((value): value is bigint => value !== undefined && !inside.includes(value));
  return [...inside, ...bounds];
}

/** Properties a client writes and reads back: not readOnly (the server's), not writeOnly (never shown). */
function writable(schema: JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(objectShape(schema).properties).filter(
      ([, property]) => !(typeof property === 'object' && (property.readOnly === true || property.writeOnly === true)),
    ),
  );
}

/** Fractions that rounding, truncation to integers or to one decimal all alter (12.75 is exact in float32 too). */
const FRACTIONS = [12.75, 0.75, 1234.5625, -0.75];

/** A date-time with seconds, milliseconds and an offset other than `Z`: storage at minute or second precision loses part of it. */
const PRECISE_DATE_TIME = '2030-12-05T09:30:15.250+02:00';

function isNumberNotInteger(schema: JsonSchema): boolean {
  const types = typesOf(schema);
  return types.includes('number') && !types.includes('integer');
}

function formatOf(schema: JsonSchema | undefined): string | undefined {
  return typeof schema === 'object' && typeof schema.format === 'string' ? schema.format : undefined;
}

/** Three distinct items of a scalar item schema, or none when kennel cannot tell them apart safely. */
function distinctItems(items: JsonSchema | undefined, prefix: string): unknown[] {
  if (typeof items !== 'object') return [];
  if (Array.isArray(items.enum)) return items.enum.length >= 3 ? items.enum.slice(0, 3) : [];
  const types = typesOf(items);
  const format = formatOf(items);
  if (types.includes('string')) {
    if (format === 'date') return ['2030-01-15', '2030-02-20', '2030-03-25'];
    if (format === 'date-time') return ['2030-01-15T08:00:00Z', '2030-02-20T12:30:00Z', '2030-03-25T18:45:30Z'];
    if (isFreeText(items)) return [1, 2, 3].map((n) => fitted(`${prefix}item ${n}`, items));
    return [];
  }
  if (types.includes('integer') || types.includes('number')) {
    const { minimum } = integerBounds(items);
    const low = minimum === undefined ? 1 : Math.ceil(minimum);
    return [low, low + 1, low + 2];
  }
  return [];
}

/**
 * Values whose precision or length storage layers lose: fractional numbers, arrays of several
 * items (a server keeping one), date-times with seconds, milliseconds and an offset. Refusing
 * them is only a warning: the point is what an accepted value becomes.
 */
function shapeCases(
  properties: Record<string, JsonSchema>,
  base: Record<string, unknown>,
  prefix: string,
  isValid: (body: Record<string, unknown>) => boolean,
): FidelityCase[] {
  const cases: FidelityCase[] = [];
  const attempt = (label: string, pick: (name: string, schema: JsonSchema) => unknown[]): void => {
    const value = { ...base };
    const probed: string[] = [];
    for (const [name, property] of Object.entries(properties)) {
      const candidate = pick(name, property).find((option) => isValid({ ...value, [name]: option }));
      if (candidate === undefined) continue;
      value[name] = candidate;
      probed.push(name);
    }
    if (probed.length > 0) cases.push({ label, value, probed, refusal: 'warning' });
  };
  attempt('fractional numbers', (_name, schema) => (isNumberNotInteger(schema) ? FRACTIONS : []));
  attempt('arrays of three items', (_name, schema) => {
    if (typeof schema !== 'object' || !typesOf(schema).includes('array')) return [];
    const items = distinctItems(schema.items as JsonSchema | undefined, prefix);
    return items.length === 3 ? [items] : [];
  });
  attempt('date-times with seconds, milliseconds and an offset', (_name, schema) =>
    typesOf(schema).includes('string') && formatOf(schema) === 'date-time' ? [PRECISE_DATE_TIME] : [],
  );
  return cases;
}

/**
 * Bodies for a create: one per tricky text (every free-text property set to it, clipped to what
 * its schema allows) and one per integer extreme (every int32/int64 property set to it, within its
 * bounds). A value the schema would refuse (a pattern, say) is left out. A refused extreme of a
 * reference (`categoryId`) is fair: the deployment may check that the referenced thing exists.
 */
export function fidelityCases(
  schema: JsonSchema,
  base: Record<string, unknown>,
  prefix: string,
  isValid: (body: Record<string, unknown>) => boolean,
  identities: readonly string[] = [],
): FidelityCase[] {
  const required = objectShape(schema).required;
  // A server may assign an identity whatever is sent: only a required one (a handle) is probed.
  const properties = Object.fromEntries(
    Object.entries(writable(schema)).filter(([name]) => !identities.includes(name) || required.includes(name)),
  );
  const cases: FidelityCase[] = [];
  const texts = freeTextProperties(properties);
  for (const tricky of TRICKY_TEXTS) {
    const value = { ...base };
    const probed: string[] = [];
    for (const [name, property] of texts) {
      const candidate = fitted(tricky.text(prefixFor(prefix, property)), property);
      if (!isValid({ ...value, [name]: candidate })) continue;
      value[name] = candidate;
      probed.push(name);
    }
    if (probed.length > 0) cases.push({ label: tricky.label, value, probed, refusal: tricky.refusal });
  }
  const integers = Object.entries(properties).map(([name, property]) => [name, integerExtremes(property)] as const);
  const rounds = Math.max(0, ...integers.map(([, values]) => values.length));
  for (let round = 0; round < rounds; round += 1) {
    const value = { ...base };
    const probed: string[] = [];
    for (const [name, values] of integers) {
      const extreme = values[round];
      if (extreme === undefined || !isValid({ ...value, [name]: extreme })) continue;
      value[name] = extreme;
      probed.push(name);
    }
    if (probed.length === 0) continue;
    const refusal = probed.every(isReference) ? undefined : 'warning';
    cases.push({ label: probed.map((name) => `${name}=${value[name]}`).join(', '), value, probed, refusal });
  }
  cases.push(...shapeCases(properties, base, prefix ? `${prefix} ` : '', isValid));
  return cases;
}

function codePoints(text: string): string {
  return Array.from(text)
    .map((char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)
    .join(' ');
}

/** How `got` differs from `sent`, in words: where two strings first differ, by code point. */
export function describeChange(sent: unknown, got: unknown): string {
  if (got === undefined) return 'absent';
  if (typeof sent !== 'string' || typeof got !== 'string') return `${show(got, 120)} instead of ${show(sent, 120)}`;
  const a = Array.from(sent);
  const b = Array.from(got);
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index += 1;
  const around = (points: string[]): string =>
    index >= points.length ? '(end)' : codePoints(points.slice(index, index + 3).join(''));
  return (
    `${b.length} characters instead of ${a.length}; from character ${index + 1}: ` +
    `got ${around(b)}, sent ${around(a)}`
  );
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * Kept exactly, a date-time read as the instant it names: a server may answer
 * `09:30:15.250+02:00` as `07:30:15.25Z` (same instant), but not as `09:30:00Z`.
 */
export function keptExactly(sent: unknown, got: unknown): boolean {
  if (typeof sent === 'string' && typeof got === 'string' && DATE_TIME.test(sent) && DATE_TIME.test(got))
    return Date.parse(sent) === Date.parse(got);
  if (Array.isArray(sent) && Array.isArray(got))
    return sent.length === got.length && sent.every((item, index) => keptExactly(item, got[index]));
  return sameJson(sent, got);
}

/** Properties of `sent` that `got` does not hold exactly, each with how it changed. */
export function changedFields(sent: Record<string, unknown>, got: unknown): { name: string; change: string }[] {
  if (got === null || typeof got !== 'object' || Array.isArray(got)) return [{ name: '', change: 'not an object' }];
  const body = got as Record<string, unknown>;
  return Object.entries(sent)
    .filter(([name, value]) => !keptExactly(value, body[name]))
    .map(([name, value]) => ({ name, change: describeChange(value, body[name]) }));
}
