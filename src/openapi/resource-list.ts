import type { JsonSchema } from './openapi-types.js';
import type { OperationParameter } from './operations.js';
import { squashed } from './naming.js';
import { objectShape, typesOf } from './schema-shape.js';

export type { ListShape } from './list-envelope.js';
export { listShapeOf } from './list-envelope.js';

/** A query parameter that bounds the length of a list (named like `limit`, typed integer). */
export interface LimitParameter {
  name: string;
  /** The smallest limit to try: the schema's `minimum`, else 1. */
  minimum: number;
  /** The schema states a minimum: only then is a value below it invalid. */
  minimumDocumented: boolean;
  maximum: number | undefined;
  default: number | undefined;
}

/** A query parameter named after a property of the listed items: it keeps the items whose property equals it. */
export interface FilterParameter {
  name: string;
  property: string;
  /** The values the parameter admits (its enum, or `true` and `false`), empty when any string is fine. */
  values: string[];
  /**
   * `boolean`: a flag such as `bicycles` for `bicycles_allowed`, whose `true` keeps the items that
   * have it (its `false` may mean "either": only `true` is a promise).
   */
  type: 'string' | 'boolean';
}

/**
 * A string query parameter named after a field of one object property of the listed items
 * (`city` for `address.city`): it keeps the items whose field equals it.
 */
export interface NestedFilter {
  name: string;
  /** Where the field lies in an item: `['address', 'city']`. */
  path: [string, string];
}

/** A parameter with its schema dereferenced. */
export type ResolvedParameter = OperationParameter & { resolved: JsonSchema | undefined };

// Compared squashed, so that bracketed names (`page[size]`, `page[limit]`) read as their words.
const LIMIT_NAMES = /^(limit|max|maxresults|pagesize|pagelimit|perpage|size|count|top|first)$/;

/** The integer query parameter that bounds the list, with its documented bounds. */
export function limitOf(parameters: readonly ResolvedParameter[]): LimitParameter | undefined {
  const candidate = parameters.find(
    (parameter) =>
      parameter.in === 'query' &&
      typesOf(parameter.resolved).includes('integer') &&
      LIMIT_NAMES.test(squashed(parameter.name)),
  );
  if (!candidate || typeof candidate.resolved !== 'object') return undefined;
  const schema = candidate.resolved;
  return {
    name: candidate.name,
    minimum: typeof schema.minimum === 'number' ? schema.minimum : 1,
    minimumDocumented: typeof schema.minimum === 'number',
    maximum: typeof schema.maximum === 'number' ? schema.maximum : undefined,
    default: typeof schema.default === 'number' ? schema.default : undefined,
  };
}

/**
 * Scalar query parameters named after an item property: enums (`status`), plain strings (`name`),
 * and boolean flags named after a boolean property or its first word (`dogs` for `dogs_allowed`).
 */
export function filtersOf(parameters: readonly ResolvedParameter[], items: JsonSchema): FilterParameter[] {
  const { properties } = objectShape(items);
  return parameters.flatMap((parameter): FilterParameter[] => {
    const schema = parameter.resolved;
    if (parameter.in !== 'query' || typeof schema !== 'object') return [];
    if (typesOf(schema).includes('boolean')) return booleanFilter(parameter.name, properties);
    if (!Object.hasOwn(properties, parameter.name)) return [];
    if (Array.isArray(schema.enum)) {
      const values = schema.enum.filter((value): value is string => typeof value === 'string');
      return values.length > 0 ? [{ name: parameter.name, property: parameter.name, values, type: 'string' }] : [];
    }
    const propertyTypes = typesOf(properties[parameter.name]);
    if (!typesOf(schema).includes('string') || !propertyTypes.includes('string')) return [];
    return [{ name: parameter.name, property: parameter.name, values: [], type: 'string' }];
  });
}

/** The one boolean property a flag names: itself, or one whose first word it is (`dogs` → `dogs_allowed`, `dogsAllowed`). */
function booleanFilter(name: string, properties: Record<string, JsonSchema>): FilterParameter[] {
  const named = Object.keys(properties).filter(
    (property) =>
      typesOf(properties[property]).includes('boolean') &&
      (property === name || property.startsWith(`${name}_`) || new RegExp(`^${escaped(name)}[A-Z]`).test(property)),
  );
  const property = named.includes(name) ? name : named.length === 1 ? named[0] : undefined;
  return property === undefined ? [] : [{ name, property, values: ['true', 'false'], type: 'boolean' }];
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * String query parameters naming no item property but exactly one string field of the items'
 * object properties (`city` for `address.city`, where no other object has a `city`).
 */
export function nestedFiltersOf(parameters: readonly ResolvedParameter[], items: JsonSchema): NestedFilter[] {
  const { properties } = objectShape(items);
  return parameters.flatMap((parameter): NestedFilter[] => {
    const schema = parameter.resolved;
    if (parameter.in !== 'query' || typeof schema !== 'object' || Object.hasOwn(properties, parameter.name)) return [];
    if (!typesOf(schema).includes('string') || typesOf(schema).includes('array')) return [];
    const holders = Object.entries(properties).filter(
      ([, property]) =>
        !typesOf(property).includes('array') &&
        typesOf(objectShape(property).properties[parameter.name]).includes('string'),
    );
    return holders.length === 1 ? [{ name: parameter.name, path: [holders[0]![0], parameter.name] }] : [];
  });
}

/** The value of a nested filter's field in an item, or undefined. */
export function nestedValue(item: unknown, path: readonly string[]): unknown {
  let value = item;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
