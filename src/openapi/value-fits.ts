import type { JsonSchema } from './openapi-types.js';
import { meetsStringRules } from './string-value.js';

/** A schema that is an object (not `true`/`false`). */
type Schema = Record<string, unknown>;

const MAX_DEPTH = 16;

/** Formats worth telling apart cheaply (ajv-formats' full rules stay with the validators). */
const FORMATS: Record<string, RegExp> = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
  time: /^\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  ipv4: /^(\d{1,3}\.){3}\d{1,3}$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/,
  url: /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/,
};

function formatFits(value: string, schema: Schema): boolean {
  const rule = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  return !rule || rule.test(value);
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeFits(value: unknown, schema: Schema): boolean {
  const declared = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  if (declared.length === 0) return true;
  const actual = jsonType(value);
  if (actual === 'null' && schema.nullable === true) return true;
  return declared.includes(actual) || (actual === 'integer' && declared.includes('number'));
}

function boundsFit(value: number, schema: Schema): boolean {
  if (typeof schema.minimum === 'number' && value < schema.minimum) return false;
  if (typeof schema.maximum === 'number' && value > schema.maximum) return false;
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) return false;
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) return false;
  if (schema.exclusiveMinimum === true && typeof schema.minimum === 'number' && value <= schema.minimum) return false;
  if (schema.exclusiveMaximum === true && typeof schema.maximum === 'number' && value >= schema.maximum) return false;
  return typeof schema.multipleOf !== 'number' || Number.isInteger(value / schema.multipleOf);
}

function objectFits(value: Record<string, unknown>, schema: Schema, depth: number): boolean {
  const properties = (typeof schema.properties === 'object' && schema.properties) || {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  if (required.some((name) => !Object.hasOwn(value, name))) return false;
  for (const [name, item] of Object.entries(value)) {
    const declared = (properties as Record<string, JsonSchema>)[name];
    if (declared === undefined) {
      if (schema.additionalProperties === false && !schema.patternProperties) return false;
      if (
        typeof schema.additionalProperties === 'object' &&
        !fits(item, schema.additionalProperties as JsonSchema, depth)
      )
        return false;
    } else if (!fits(item, declared, depth)) return false;
  }
  return true;
}

function arrayFits(value: unknown[], schema: Schema, depth: number): boolean {
  if (typeof schema.minItems === 'number' && value.length < schema.minItems) return false;
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) return false;
  if (schema.uniqueItems === true && new Set(value.map((item) => JSON.stringify(item))).size !== value.length)
    return false;
  const items = schema.items;
  return (
    typeof items !== 'object' || Array.isArray(items) || value.every((item) => fits(item, items as JsonSchema, depth))
  );
}

/** Whether `value` is one of `options`: the same value at once, else the same JSON (objects, arrays). */
function enumHolds(options: readonly unknown[], value: unknown): boolean {
  return options.includes(value) || options.some((item) => JSON.stringify(item) === JSON.stringify(value));
}

/**
 * A quick, partial judgement of `value` against `schema`: type, enum, const, string length,
 * pattern and common formats, numeric bounds, required and declared properties, array length and items, `allOf`
 * parts and at least one `oneOf`/`anyOf` alternative. It lets the generator take a documented
 * example or default only where it fits; the mock still validates every answer in full (ajv).
 */
export function fits(value: unknown, schema: JsonSchema | undefined, depth = 0): boolean {
  if (typeof schema !== 'object' || depth > MAX_DEPTH) return true;
  if (!typeFits(value, schema)) return false;
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) return false;
  if (Array.isArray(schema.enum) && !enumHolds(schema.enum, value)) return value === null && schema.nullable === true;
  if (Array.isArray(schema.allOf) && !schema.allOf.every((part) => fits(value, part as JsonSchema, depth + 1)))
    return false;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (
      Array.isArray(options) &&
      options.length > 0 &&
      !options.some((part) => fits(value, part as JsonSchema, depth + 1))
    )
      return false;
  }
  if (typeof value === 'string') return meetsStringRules(value, schema) && formatFits(value, schema);
  if (typeof value === 'number' || typeof value === 'bigint') return boundsFit(Number(value), schema);
  if (Array.isArray(value)) return arrayFits(value, schema, depth + 1);
  if (typeof value === 'object' && value !== null)
    return objectFits(value as Record<string, unknown>, schema, depth + 1);
  return true;
}
