import type { JsonSchema } from './openapi-types.js';
import type { ResolvedParameter } from './resource-list.js';
import { objectShape, typesOf } from './schema-shape.js';

/**
 * A query parameter that bounds a property of the listed items from below or above
 * (`startDate`, `starts_after`, `created_before`, `min_price`): a list keeps the items whose
 * property lies on its side of the bound (the bound itself included).
 */
export interface RangeFilter {
  name: string;
  /** The item property it bounds; an array property (`dates`) is in range when one of its values is. */
  property: string;
  bound: 'lower' | 'upper';
  /** What the parameter takes. */
  kind: 'date' | 'date-time' | 'number';
  /** What the property holds: a date bound on a date-time property compares by day, not exactly. */
  propertyKind: 'date' | 'date-time' | 'number';
}

const LOWER = new Set([
  'start',
  'starts',
  'from',
  'since',
  'after',
  'min',
  'minimum',
  'begin',
  'earliest',
  'gte',
  'gt',
]);
const UPPER = new Set(['end', 'ends', 'to', 'until', 'before', 'max', 'maximum', 'latest', 'lte', 'lt']);

/** `starts_after` → `starts after`, `DateCreatedAfter` → `date created after`. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

function kindOf(schema: JsonSchema | undefined): RangeFilter['kind'] | undefined {
  if (typeof schema !== 'object') return undefined;
  const types = typesOf(schema);
  if (types.includes('array')) return kindOf(schema.items as JsonSchema | undefined);
  if (types.includes('string') && (schema.format === 'date' || schema.format === 'date-time')) return schema.format;
  if (types.includes('integer') || types.includes('number')) return 'number';
  return undefined;
}

/** Dates compare with dates and date-times (by day or instant); numbers only with numbers. */
function comparable(a: RangeFilter['kind'], b: RangeFilter['kind']): boolean {
  return (a === 'number') === (b === 'number');
}

/** The property the remaining words name: itself, by its first words (`starts` → `starts_at`), or its plural (`date` → `dates`). */
function namedProperty(rest: readonly string[], candidates: readonly string[]): string | undefined {
  const joined = rest.join('');
  const exact = candidates.filter((name) => words(name).join('') === joined || words(name).join('') === `${joined}s`);
  if (exact.length === 1) return exact[0];
  const prefixed = candidates.filter((name) => words(name).join('').startsWith(joined));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

function rangeOf(parameter: ResolvedParameter, properties: Record<string, JsonSchema>): RangeFilter | undefined {
  const kind = kindOf(parameter.resolved);
  if (parameter.in !== 'query' || kind === undefined || typesOf(parameter.resolved).includes('array')) return undefined;
  const parts = words(parameter.name);
  // The last bound word: `starts_after` is bounded by "after", of the property "starts".
  const boundAt = parts.findLastIndex((word) => LOWER.has(word) || UPPER.has(word));
  if (boundAt < 0) return undefined;
  const bound = LOWER.has(parts[boundAt]!) ? 'lower' : 'upper';
  const rest = parts.filter((_word, index) => index !== boundAt);
  const candidates = Object.keys(properties).filter((name) => {
    const other = kindOf(properties[name]);
    return other !== undefined && comparable(kind, other);
  });
  // A named property first; a date bound with no name left (`from`, `startDate`) may mean the items' only date.
  const named = rest.length > 0 ? namedProperty(rest, candidates) : undefined;
  const only = kind !== 'number' && candidates.length === 1 ? candidates[0] : undefined;
  const property = named ?? (rest.length === 0 || (rest.length === 1 && rest[0] === 'date') ? only : undefined);
  return property === undefined
    ? undefined
    : { name: parameter.name, property, bound, kind, propertyKind: kindOf(properties[property])! };
}

/** The range filters of a list's parameters over its items' properties. */
export function rangeFiltersOf(parameters: readonly ResolvedParameter[], items: JsonSchema): RangeFilter[] {
  const { properties } = objectShape(items);
  return parameters.flatMap((parameter) => {
    const range = rangeOf(parameter, properties);
    return range ? [range] : [];
  });
}

/** A number, or the instant of a date (its UTC midnight) or date-time, to compare; undefined when unreadable. */
function position(value: unknown, kind: RangeFilter['kind']): number | undefined {
  if (kind === 'number') return typeof value === 'number' ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(time) ? undefined : time;
}

const DAY_MS = 86_400_000;

/**
 * Whether an item's value lies on the filter's side of `operand` (the bound included). A date
 * bound takes its whole day: an upper `2030-12-05` keeps anything during that day. An array is in
 * range when one of its values is; a value that cannot be read is kept (its schema is the judge).
 */
export function inRange(value: unknown, filter: RangeFilter, operand: unknown, slackMs = 0): boolean {
  if (Array.isArray(value)) return value.length === 0 || value.some((item) => inRange(item, filter, operand, slackMs));
  const at = position(value, filter.kind);
  let edge = position(operand, filter.kind);
  if (at === undefined || edge === undefined) return true;
  if (filter.kind === 'date' && filter.bound === 'upper') edge += DAY_MS - 1;
  return filter.bound === 'lower' ? at >= edge - slackMs : at <= edge + slackMs;
}

/**
 * How far a value may lie past a bound and still be a fair reading of it: a day where a date meets
 * a date-time (a server may compare in its own time zone), nothing where both are alike.
 */
export function rangeSlackMs(filter: RangeFilter): number {
  return filter.kind !== filter.propertyKind && filter.kind !== 'number' ? DAY_MS : 0;
}

/** A value of the property as the parameter takes it: a date-time's day for a date, a date's midnight for a date-time. */
export function asOperand(value: unknown, filter: RangeFilter): string | undefined {
  if (filter.kind === 'number') return typeof value === 'number' ? String(value) : undefined;
  if (typeof value !== 'string' || position(value, filter.propertyKind) === undefined) return undefined;
  if (filter.kind === 'date') return value.slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
}

/** The values of an item's property in order (an array's values, or the one value), readable ones only. */
export function rangeValues(value: unknown, filter: RangeFilter): { value: unknown; at: number }[] {
  const values: unknown[] = Array.isArray(value) ? value : [value];
  return values.flatMap((item) => {
    const at = position(item, filter.propertyKind);
    return at === undefined ? [] : [{ value: item, at }];
  });
}
