import type { JsonSchema } from '../../openapi/openapi-types.js';
import type { Severity } from '../types.js';

/** A text value a format must refuse, and how sure the format is about it. */
export interface MalformedValue {
  label: string;
  value: string;
  severity: Severity;
}

/**
 * Texts each format refuses. Errors for values no parser of the format reads (a uuid with a
 * letter beyond `f`, the 13th month); warnings for what lenient parsers commonly take (a
 * date-time without its offset: RFC 3339 requires one, many libraries assume UTC).
 */
const MALFORMED: Record<string, MalformedValue[]> = {
  uuid: [
    { label: 'not a uuid', value: 'not-a-uuid', severity: 'error' },
    { label: 'a uuid with a non-hex digit', value: '3fa85f64-5717-4562-b3fc-2c963f66afag', severity: 'error' },
    { label: 'a uuid one digit short', value: '3fa85f64-5717-4562-b3fc-2c963f66afa', severity: 'error' },
  ],
  date: [
    { label: 'not a date', value: 'not-a-date', severity: 'error' },
    { label: 'a date in the 13th month', value: '2030-13-05', severity: 'error' },
    { label: 'a date in day/month/year order', value: '05/12/2030', severity: 'error' },
  ],
  email: [
    { label: 'not an email address', value: 'not-an-email', severity: 'error' },
    { label: 'an email address without a domain', value: 'someone@', severity: 'error' },
  ],
  'date-time': [
    { label: 'not a date-time', value: 'not-a-date-time', severity: 'error' },
    { label: 'a date-time at hour 25', value: '2030-12-05T25:00:00Z', severity: 'error' },
    { label: 'a date without its time', value: '2030-12-05', severity: 'error' },
    { label: 'a date-time without an offset', value: '2030-12-05T10:00:00', severity: 'warning' },
  ],
};

/**
 * Valid spellings of a format that servers get wrong: RFC 3339 date-times with an offset other than
 * `Z` and with fractional seconds (§5.6), where the generator's own value is always `…T00:00:00Z`.
 */
const VARIANTS: Record<string, { label: string; value: string }[]> = {
  'date-time': [
    { label: 'a date-time with a +02:00 offset', value: '2030-12-05T09:30:00+02:00' },
    { label: 'a date-time with a -05:00 offset and fractional seconds', value: '2030-12-05T09:30:00.250-05:00' },
  ],
};

function formatOf(schema: JsonSchema | undefined): string | undefined {
  return typeof schema === 'object' && typeof schema.format === 'string' ? schema.format : undefined;
}

/** Malformed texts for a string schema's format (empty when kennel knows none for it). */
export function malformedValues(schema: JsonSchema | undefined): MalformedValue[] {
  const format = formatOf(schema);
  return format === undefined ? [] : (MALFORMED[format] ?? []);
}

/** Valid but less common spellings of a string schema's format. */
export function formatVariants(schema: JsonSchema | undefined): { label: string; value: string }[] {
  const format = formatOf(schema);
  return format === undefined ? [] : (VARIANTS[format] ?? []);
}

/** Texts tried, in turn, to break a pattern: punctuation and letters where most patterns want digits or codes. */
const PATTERN_BREAKERS = ['not matching!', '#!', 'zz', '0'];

/**
 * A text of a string schema's length that its `pattern` refuses (a card number with letters), or
 * undefined when none of kennel's tries breaks it (`.*`) or the pattern is not a JavaScript regex.
 */
export function patternBreaker(schema: JsonSchema | undefined): MalformedValue | undefined {
  if (typeof schema !== 'object' || typeof schema.pattern !== 'string') return undefined;
  let pattern: RegExp;
  try {
    pattern = new RegExp(schema.pattern, 'u');
  } catch {
    return undefined;
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  for (const seed of PATTERN_BREAKERS) {
    const value = seed.padEnd(min, '!').slice(0, max);
    if (value.length >= min && value.length > 0 && !pattern.test(value))
      return { label: `${JSON.stringify(value)}, against the pattern ${schema.pattern}`, value, severity: 'error' };
  }
  return undefined;
}
