import type { Random } from '../core/random.js';
import { codePointLength } from '../core/text.js';
import { patternValue } from './pattern-value.js';

/** A schema that is an object (not `true`/`false`). */
type Schema = Record<string, unknown>;

/** One value per format a document may name, each valid for ajv-formats (and short). */
export const FORMAT_VALUES: Record<string, string> = {
  'date-time': '2030-12-05T00:00:00Z',
  'iso-date-time': '2030-12-05T00:00:00Z',
  date: '2030-12-05',
  time: '00:00:00Z',
  'iso-time': '00:00:00Z',
  duration: 'P1D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  iri: 'https://example.com/',
  'iri-reference': 'https://example.com/',
  'uri-template': 'https://example.com/{id}',
  url: 'https://example.com/',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '00000000-0000-4000-8000-000000000000',
  'json-pointer': '/a',
  'relative-json-pointer': '0',
  regex: '^a$',
  byte: 'a2VubmVs',
  binary: 'kennel',
  password: 'kennel-Passw0rd',
  int32: '1',
  int64: '1',
  float: '1.5',
  double: '1.5',
  decimal: '1.5',
};

/** The length bounds of a string schema (`minLength` 0 and no maximum when unset). */
export function lengthBounds(schema: Schema): { min: number; max: number } {
  return {
    min: typeof schema.minLength === 'number' ? schema.minLength : 0,
    max: typeof schema.maxLength === 'number' ? schema.maxLength : Infinity,
  };
}

/** True when `text` meets the schema's length bounds and pattern (the checks a format value may still fail). */
export function meetsStringRules(text: string, schema: Schema): boolean {
  const { min, max } = lengthBounds(schema);
  if (min > 0 || max !== Infinity) {
    const length = codePointLength(text);
    if (length < min || length > max) return false;
  }
  if (typeof schema.pattern !== 'string') return true;
  return patternRegExp(schema.pattern)?.test(text) ?? true; // an unreadable pattern is ignored by validation too
}

const compiled = new Map<string, RegExp | undefined>();

/** The pattern as ajv reads it (with the `u` flag where it parses so), compiled once. */
function patternRegExp(pattern: string): RegExp | undefined {
  if (!compiled.has(pattern)) {
    let regExp: RegExp | undefined;
    for (const flags of ['u', '']) {
      try {
        regExp = new RegExp(pattern, flags);
        break;
      } catch {
        // try the next flags
      }
    }
    compiled.set(pattern, regExp);
  }
  return compiled.get(pattern);
}

/** `text` cut to `maxLength` (64 when unset) and padded to `minLength`. */
export function sized(text: string, schema: Schema): string {
  const { min, max } = lengthBounds(schema);
  const limit = Number.isFinite(max) ? max : 64;
  const cut = codePointLength(text) > limit ? [...text].slice(0, Math.max(limit, min)).join('') : text;
  return cut.padEnd(min, 'x');
}

/** A string for the schema's `pattern` within its length bounds, if one can be made. */
export function patterned(schema: Schema, random: Random): string | undefined {
  if (typeof schema.pattern !== 'string') return undefined;
  const { min, max } = lengthBounds(schema);
  return patternValue(schema.pattern, random, { minLength: min, maxLength: max });
}

/**
 * A string for `schema`, trying in turn the candidates a caller offers (a format's value, a
 * documented example, a name-based text) and keeping the first that meets the length bounds and
 * the pattern; then a value drawn from the pattern; then the last candidate sized to the bounds.
 */
export function fittingString(schema: Schema, candidates: readonly (string | undefined)[], random: Random): string {
  for (const candidate of candidates)
    if (candidate !== undefined && meetsStringRules(candidate, schema)) return candidate;
  const matching = patterned(schema, random);
  if (matching !== undefined) return matching;
  const last = candidates.filter((candidate) => candidate !== undefined).at(-1) ?? 'string';
  return sized(last, schema);
}
