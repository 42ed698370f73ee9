import type { JsonSchema } from '../../openapi/openapi-types.js';
import { typesOf } from '../../openapi/schema-shape.js';

/** A value for one documented bound of a schema, and which bound it tests. */
export interface BoundCase {
  label: string;
  value: unknown;
}

/** Longest string or array kennel builds to test a bound: a larger bound is left untested. */
const LARGEST_BUILT = 10_000;

type Schema = Exclude<JsonSchema, boolean>;

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Inclusive and exclusive numeric bounds, in OpenAPI 3.0 (boolean) and 3.1 (numeric) spelling. */
function numericBounds(schema: Schema) {
  const minimum = numberOr(schema.minimum);
  const maximum = numberOr(schema.maximum);
  const exclusiveMinimum =
    numberOr(schema.exclusiveMinimum) ?? (schema.exclusiveMinimum === true ? minimum : undefined);
  const exclusiveMaximum =
    numberOr(schema.exclusiveMaximum) ?? (schema.exclusiveMaximum === true ? maximum : undefined);
  return {
    minimum: schema.exclusiveMinimum === true ? undefined : minimum,
    maximum: schema.exclusiveMaximum === true ? undefined : maximum,
    exclusiveMinimum,
    exclusiveMaximum,
  };
}

function numberCases(schema: Schema, side: 'at' | 'past'): BoundCase[] {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = numericBounds(schema);
  const step = typesOf(schema).includes('integer') ? 1 : 0.5;
  const cases: BoundCase[] = [];
  if (side === 'at') {
    if (minimum !== undefined) cases.push({ label: `at its minimum ${minimum}`, value: minimum });
    if (maximum !== undefined) cases.push({ label: `at its maximum ${maximum}`, value: maximum });
    if (exclusiveMinimum !== undefined)
      cases.push({ label: `just above its exclusive minimum ${exclusiveMinimum}`, value: exclusiveMinimum + step });
    if (exclusiveMaximum !== undefined)
      cases.push({ label: `just below its exclusive maximum ${exclusiveMaximum}`, value: exclusiveMaximum - step });
    return cases;
  }
  if (minimum !== undefined) cases.push({ label: `below its minimum ${minimum}`, value: minimum - step });
  if (maximum !== undefined) cases.push({ label: `above its maximum ${maximum}`, value: maximum + step });
  if (exclusiveMinimum !== undefined)
    cases.push({ label: `equal to its exclusive minimum ${exclusiveMinimum}`, value: exclusiveMinimum });
  if (exclusiveMaximum !== undefined)
    cases.push({ label: `equal to its exclusive maximum ${exclusiveMaximum}`, value: exclusiveMaximum });
  return cases;
}

/** Strings of an exact length: only for plain strings (a pattern or format decides more than the length). */
function stringCases(schema: Schema, side: 'at' | 'past'): BoundCase[] {
  const minLength = numberOr(schema.minLength);
  const maxLength = numberOr(schema.maxLength);
  const cases: BoundCase[] = [];
  const text = (length: number) => 'k'.repeat(length);
  if (side === 'past') {
    if (minLength !== undefined && minLength > 0)
      cases.push({ label: `shorter than ${minLength} characters`, value: text(minLength - 1) });
    if (maxLength !== undefined && maxLength < LARGEST_BUILT)
      cases.push({ label: `longer than ${maxLength} characters`, value: text(maxLength + 1) });
    return cases;
  }
  if (schema.pattern !== undefined || schema.format !== undefined || Array.isArray(schema.enum)) return cases;
  if (minLength !== undefined && minLength > 0)
    cases.push({ label: `exactly ${minLength} characters (its minLength)`, value: text(minLength) });
  if (maxLength !== undefined && maxLength <= LARGEST_BUILT)
    cases.push({ label: `exactly ${maxLength} characters (its maxLength)`, value: text(maxLength) });
  return cases;
}

/** A string that breaks the schema's pattern, when one of a few candidates does (checked by the caller's validator too). */
function patternBreaker(schema: Schema): BoundCase[] {
  if (typeof schema.pattern !== 'string') return [];
  let pattern: RegExp;
  try {
    pattern = new RegExp(schema.pattern, 'u');
  } catch {
    return [];
  }
  const candidate = ['!', '~kennel~', ' ', '0'].find((text) => !pattern.test(text));
  return candidate === undefined ? [] : [{ label: `not matching its pattern ${schema.pattern}`, value: candidate }];
}

function arrayCases(schema: Schema, side: 'at' | 'past', item: unknown): BoundCase[] {
  const minItems = numberOr(schema.minItems);
  const maxItems = numberOr(schema.maxItems);
  const items = (count: number) => Array.from({ length: count }, () => item);
  if (side === 'past') {
    const cases: BoundCase[] = [];
    if (minItems !== undefined && minItems > 0)
      cases.push({ label: `with fewer than ${minItems} items`, value: items(minItems - 1) });
    if (maxItems !== undefined && maxItems < LARGEST_BUILT)
      cases.push({ label: `with more than ${maxItems} items`, value: items(maxItems + 1) });
    return cases;
  }
  return [];
}

/**
 * Values just past each documented bound (minimum, maximum and their exclusive forms, minLength,
 * maxLength, pattern, minItems, maxItems). `item` fills arrays. Callers re-validate each value
 * against the schema and drop any it accepts.
 */
export function pastBounds(schema: JsonSchema | undefined, item: unknown = null): BoundCase[] {
  if (typeof schema !== 'object') return [];
  const types = typesOf(schema);
  const cases: BoundCase[] = [];
  if (types.includes('integer') || types.includes('number')) cases.push(...numberCases(schema, 'past'));
  if (types.includes('string')) cases.push(...stringCases(schema, 'past'), ...patternBreaker(schema));
  if (types.includes('array')) cases.push(...arrayCases(schema, 'past', item));
  return cases;
}

/** Values exactly at each documented bound: a deployment must accept every one. Callers re-validate them. */
export function atBounds(schema: JsonSchema | undefined): BoundCase[] {
  if (typeof schema !== 'object') return [];
  const types = typesOf(schema);
  const cases: BoundCase[] = [];
  if (types.includes('integer') || types.includes('number')) cases.push(...numberCases(schema, 'at'));
  if (types.includes('string')) cases.push(...stringCases(schema, 'at'));
  return cases;
}
