import { Random } from '../core/random.js';
import type { JsonSchema } from './openapi-types.js';
import { patternValue } from './pattern-value.js';
import { integerBounds, objectShape, primaryType } from './schema-shape.js';

/**
 * What generated values draw on. One generator serves the mock (canned responses: `sampleOf`,
 * deterministic, examples first) and the checker and seeders (`validValue`: seeded variation).
 */
export interface ValueContext {
  /** Seeded source of variation: the same seed gives the same values. */
  random: Random;
  /** Prefix of generated names (a run tag), so generated data can be recognised and stays unique. */
  tag: string;
  /** The n-th value of a series (seeding several resources): strings carry it, so values differ. */
  index?: number;
  /** Values seen in the deployment's own resources, by property name (for foreign keys such as `categoryId`). */
  observed?: ReadonlyMap<string, readonly unknown[]>;
  /** `request` (default) leaves out readOnly properties; `response` leaves out writeOnly ones. */
  direction?: 'request' | 'response';
  /**
   * The resource's identity properties (`id`), which a server usually assigns: left out of a
   * generated resource unless required, and then given a value unlikely to be taken already.
   */
  identities?: readonly string[];
  /** `sample`: the document's own example, default or first enum member first, no variation. */
  style?: 'varied' | 'sample';
  /**
   * A value for a reference (`departure_id`: the id of something the deployment has), asked
   * first for every named property; one found is used as it is, and sent even when optional.
   */
  reference?: (name: string, schema: JsonSchema) => { value: unknown } | undefined;
}

const FORMAT_VALUES: Record<string, string> = {
  'date-time': '2030-12-05T00:00:00Z',
  date: '2030-12-05',
  time: '00:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '00000000-0000-4000-8000-000000000000',
  byte: 'a2VubmVs',
  binary: 'kennel',
  password: 'kennel-Passw0rd',
};

const MAX_DEPTH = 8;

/** A schema that is an object (not `true`/`false`). */
type Schema = Record<string, unknown>;

/** Foreign keys (`categoryId`, `owner_id`) take values the deployment already uses: a server may check they exist. */
export function isReference(name: string): boolean {
  return /.Id$|_id$/.test(name);
}

/** A version-4 UUID drawn from `random` (a uuid that no deployment is likely to hold). */
export function randomUuid(random: Random): string {
  const hex = (count: number) => Array.from({ length: count }, () => random.int(0, 15).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[random.int(0, 3)]}${hex(3)}-${hex(12)}`;
}

function sized(text: string, schema: Schema): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 64;
  const cut = text.length > max ? text.slice(0, Math.max(max, min)) : text;
  return cut.padEnd(min, 'x');
}

/** A string for the schema's `pattern` within its length bounds, if one can be made. */
function patterned(schema: Schema, random: Random): string | undefined {
  if (typeof schema.pattern !== 'string') return undefined;
  const text = patternValue(schema.pattern, random);
  const length = text === undefined ? 0 : [...text].length;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return text !== undefined && length >= min && length <= max ? text : undefined;
}

function variedString(name: string, schema: Schema, context: ValueContext): string {
  const serial = context.index === undefined ? '' : `-${context.index}`;
  const unique = `${context.tag}${serial}-${context.random.word(4)}`.replace(/^-/, '');
  // Host names are often identities (a domain to attach): make each one new, under example.com.
  if (schema.format === 'hostname') return `${unique}.example.com`.toLowerCase();
  if (schema.format === 'uuid') return randomUuid(context.random);
  if (schema.format === 'byte') return btoa(unique);
  if (typeof schema.format === 'string' && FORMAT_VALUES[schema.format]) return FORMAT_VALUES[schema.format]!;
  if (Array.isArray(schema.examples) && typeof schema.examples[0] === 'string') return schema.examples[0];
  if (typeof schema.example === 'string') return schema.example;
  const matching = patterned(schema, context.random);
  if (matching !== undefined) return matching;
  return sized(`${context.tag}${serial}-${name}-${context.random.word(4)}`.replace(/^-/, ''), schema);
}

function sampleString(schema: Schema): string {
  return FORMAT_VALUES[String(schema.format)] ?? patterned(schema, new Random(1)) ?? sized('string', schema);
}

/** The lowest and highest values a numeric schema admits (exclusive bounds in 3.0 and 3.1 spelling). */
function numericRange(schema: Schema): { low: number | undefined; high: number | undefined } {
  const { minimum, maximum } = integerBounds(schema);
  const step = schema.type === 'integer' ? 1 : 0.5;
  let low = minimum;
  let high = maximum;
  if (typeof schema.exclusiveMinimum === 'number') low = schema.exclusiveMinimum + step;
  else if (schema.exclusiveMinimum === true && low !== undefined) low += step;
  if (typeof schema.exclusiveMaximum === 'number') high = schema.exclusiveMaximum - step;
  else if (schema.exclusiveMaximum === true && high !== undefined) high -= step;
  return { low, high };
}

function aligned(value: number, schema: Schema): number {
  const multiple = schema.multipleOf;
  return typeof multiple === 'number' && multiple > 0 ? Math.ceil(value / multiple) * multiple : value;
}

function numberValue(name: string, schema: Schema, context: ValueContext): unknown {
  const { low, high } = numericRange(schema);
  if (context.style === 'sample') return aligned(low ?? (high !== undefined && high < 1 ? high : 1), schema);
  if (isReference(name)) {
    // The referenced thing must exist: reuse a value the deployment already uses, else 1.
    const seen = context.observed?.get(name)?.filter((value) => typeof value === 'number' || typeof value === 'bigint');
    if (seen && seen.length > 0) return context.random.pick(seen);
  }
  const from = low ?? (high !== undefined && high < 1 ? high - 99 : 1);
  return aligned(context.random.int(from, Math.max(from, Math.min(high ?? from + 99, from + 99))), schema);
}

function documented(schema: Schema): { value: unknown } | undefined {
  for (const key of ['example', 'default'] as const) if (key in schema) return { value: schema[key] };
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return { value: schema.examples[0] };
  return undefined;
}

/** One schema for allOf parts that are not objects (`allOf: [{type: string}, {minLength: 3}]`). */
function flattened(schema: Schema): Schema {
  const { allOf, ...rest } = schema;
  return Object.assign({}, ...(allOf as JsonSchema[]).filter((part) => typeof part === 'object'), rest);
}

function generate(schema: JsonSchema | undefined, name: string, context: ValueContext, depth: number): unknown {
  if (typeof schema !== 'object' || depth > MAX_DEPTH) return null;
  if ('const' in schema) return schema.const;
  const referenced = name === '' ? undefined : context.reference?.(name, schema);
  if (referenced) return referenced.value;
  if (context.style === 'sample') {
    const known = documented(schema);
    if (known) return known.value;
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return context.style === 'sample' ? schema.enum[0] : context.random.pick(schema.enum);
  const options = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(options) && options.length > 0 && !schema.properties)
    return generate(options[0], name, context, depth + 1);
  const type = primaryType(schema);
  if (Array.isArray(schema.allOf) && type !== 'object') return generate(flattened(schema), name, context, depth + 1);
  switch (type) {
    case 'object':
      return objectValue(schema, context, 'all', depth + 1);
    case 'array': {
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      return Array.from({ length: count }, () => generate(schema.items as JsonSchema, name, context, depth + 1));
    }
    case 'integer':
    case 'number':
      return numberValue(name, schema, context);
    case 'boolean':
      return context.style === 'sample' ? true : context.random.next() < 0.5;
    case 'string':
      return context.style === 'sample' ? sampleString(schema) : variedString(name, schema, context);
    default:
      return null;
  }
}

/** The first alternative of a oneOf/anyOf object schema (a discriminated body), else the schema. */
function firstAlternative(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (typeof schema !== 'object' || schema.properties) return schema;
  const options = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  return Array.isArray(options) && options.length > 0 ? options[0] : schema;
}

function objectValue(
  schema: JsonSchema | undefined,
  context: ValueContext,
  which: 'required' | 'all',
  depth: number,
): Record<string, unknown> {
  const target = firstAlternative(schema);
  const { properties, required } = objectShape(target);
  const hidden = context.direction === 'response' ? 'writeOnly' : 'readOnly';
  const visible = Object.entries(properties).filter(
    ([, property]) => !(typeof property === 'object' && property[hidden] === true),
  );
  const minimum = typeof target === 'object' && typeof target.minProperties === 'number' ? target.minProperties : 0;
  const identities = depth <= 1 ? (context.identities ?? []) : []; // the resource itself, not nested objects
  const kept = visible.filter(([name]) => !identities.includes(name) || required.includes(name));
  const needed = ([name, property]: [string, JsonSchema]) =>
    required.includes(name) || context.reference?.(name, property) !== undefined;
  const chosen = which === 'all' ? kept : kept.filter(needed);
  for (const entry of kept) {
    if (chosen.length >= minimum) break;
    if (!chosen.includes(entry)) chosen.push(entry);
  }
  return Object.fromEntries(
    chosen.map(([name, property]) => [
      name,
      identities.includes(name) ? unlikelyValue(property, name, context) : generate(property, name, context, depth),
    ]),
  );
}

/** A required identity: numbers far from the small ones a store hands out first, strings unique to the run. */
function unlikelyValue(schema: JsonSchema, name: string, context: ValueContext): unknown {
  if (typeof schema !== 'object') return null;
  const type = primaryType(schema);
  if (type !== 'integer' && type !== 'number') return generate(schema, name, context, MAX_DEPTH);
  const { low, high } = numericRange(schema);
  const from = Math.max(low ?? 100_000_000, Math.min(100_000_000, (high ?? Infinity) - 899_999_999));
  return context.random.int(from, Math.min(high ?? from + 899_999_999, from + 899_999_999));
}

/** A value valid for `schema` (dereferenced); `name` is the property or parameter it is for. */
export function validValue(schema: JsonSchema | undefined, context: ValueContext, name = ''): unknown {
  return generate(schema, name, context, 0);
}

/** An object for `schema`: required properties only (plus enough others for minProperties), or every property. */
export function validObject(
  schema: JsonSchema | undefined,
  context: ValueContext,
  which: 'required' | 'all',
): Record<string, unknown> {
  return objectValue(schema, context, which, 1); // depth 1, as when validValue meets an object
}

/**
 * The smallest valid value of any schema: an object's required properties only, a one-item array
 * of such, a scalar as `validValue` makes it. A request body need not be an object.
 */
export function minimalValue(schema: JsonSchema | undefined, context: ValueContext): unknown {
  const type = primaryType(schema);
  const options = typeof schema === 'object' ? ((schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined) : undefined;
  if (type === undefined && Array.isArray(options) && options.length > 0) return minimalValue(options[0], context);
  if (type === 'object') return validObject(schema, context, 'required');
  if (type === 'array' && typeof schema === 'object' && primaryType(schema.items as JsonSchema) === 'object') {
    const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
    return Array.from({ length: count }, () => validObject(schema.items as JsonSchema, context, 'required'));
  }
  return validValue(schema, context);
}

/**
 * A deterministic value for a (dereferenced) schema: its example, default, const or first enum
 * member, otherwise the simplest value of its type that meets its bounds. Canned responses that
 * have no example in the document use it.
 */
export function sampleOf(schema: JsonSchema | undefined): unknown {
  return generate(schema, '', { random: FIXED, tag: '', style: 'sample', direction: 'response' }, 0);
}

/** Sample style never varies: a source that always gives the first choice. */
const FIXED = {
  next: () => 0,
  int: (min: number) => min,
  pick: <T>(items: readonly T[]) => items[0]!,
  word: (length: number) => 'x'.repeat(length),
} as unknown as Random;
