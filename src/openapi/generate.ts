import { Random } from '../core/random.js';
import type { JsonSchema } from './openapi-types.js';
import { sampleNumber, numericRange, variedNumber } from './number-value.js';
import { resolvedSchema } from './schema-merge.js';
import { FORMAT_VALUES, fittingString } from './string-value.js';
import { fits } from './value-fits.js';
import { inferredPrimaryType as primaryType, inferredTypes as typesOf } from './inferred-type.js';
import { isReference, randomUuid } from './identity-values.js';

export { isReference, randomUuid };

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
  /** False: documented examples and defaults are not used (they may break their own schema). */
  examples?: boolean;
  /** Which alternative of a `oneOf`/`anyOf` a sample takes (0: the first); varied values draw one. */
  alternative?: number;
  /** The dereferenced document, so a discriminator's mapping can name the variant chosen. */
  document?: unknown;
}

const MAX_DEPTH = 8;
/**
 * Past this depth values are kept small: optional properties left out, arrays as short as they
 * may be, null where the schema admits it. Recursive schemas (an account `moved` to an account)
 * then end in valid values instead of nulls at MAX_DEPTH.
 */
const SHALLOW = 3;

/** True when the schema admits null: `nullable`, a `null` type, or a null alternative. */
export function admitsNull(schema: JsonSchema | undefined): boolean {
  if (typeof schema !== 'object') return false;
  if (schema.nullable === true || schema.type === 'null') return true;
  if (Array.isArray(schema.type) && schema.type.includes('null')) return true;
  return (['oneOf', 'anyOf'] as const).some(
    (key) => Array.isArray(schema[key]) && (schema[key] as JsonSchema[]).some((option) => admitsNull(option)),
  );
}

/** A schema that is an object (not `true`/`false`). */
type Schema = Record<string, unknown>;

function documented(schema: Schema): { value: unknown } | undefined {
  for (const key of ['example', 'default'] as const) if (key in schema) return { value: schema[key] };
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return { value: schema.examples[0] };
  return undefined;
}

function stringValue(name: string, schema: Schema, context: ValueContext): string {
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const formatted = format === undefined ? undefined : FORMAT_VALUES[format];
  if (context.style === 'sample') return fittingString(schema, [formatted, 'string'], context.random);
  const serial = context.index === undefined ? '' : `-${context.index}`;
  const unique = `${context.tag}${serial}-${context.random.word(4)}`.replace(/^-/, '');
  const candidates: (string | undefined)[] = [];
  // Host names are often identities (a domain to attach): make each one new, under example.com.
  if (format === 'hostname') candidates.push(`${unique}.example.com`.toLowerCase());
  if (format === 'uuid') candidates.push(randomUuid(context.random));
  if (format === 'byte') candidates.push(btoa(unique));
  candidates.push(formatted);
  if (context.examples !== false) {
    if (Array.isArray(schema.examples) && typeof schema.examples[0] === 'string') candidates.push(schema.examples[0]);
    if (typeof schema.example === 'string') candidates.push(schema.example);
  }
  if (formatted === undefined)
    candidates.push(`${context.tag}${serial}-${name}-${context.random.word(4)}`.replace(/^-/, ''));
  return fittingString(schema, candidates, context.random);
}

function numberValue(name: string, schema: Schema, context: ValueContext): number | bigint {
  if (context.style === 'sample') return sampleNumber(schema);
  if (isReference(name)) {
    // The referenced thing must exist: reuse a value the deployment already uses, else 1.
    const seen = context.observed
      ?.get(name)
      ?.filter((value): value is number | bigint => typeof value === 'number' || typeof value === 'bigint');
    if (seen && seen.length > 0) return context.random.pick(seen);
  }
  return variedNumber(schema, context.random);
}

/** The choices of `oneOf`/`anyOf` for this context: a sample's fixed alternative, else a seeded draw. */
function resolved(schema: JsonSchema | undefined, context: ValueContext): JsonSchema | undefined {
  return resolvedSchema(schema, {
    pick: (count) => (context.style === 'sample' ? (context.alternative ?? 0) : context.random.int(0, count - 1)),
    document: context.document,
  });
}

/**
 * A value for a `oneOf`: it must match exactly one alternative, so an alternative whose value
 * also fits another (two object shapes without distinguishing required fields) gives way to the
 * next one, starting from the one the context picks.
 */
function oneOfValue(raw: Schema, name: string, context: ValueContext, depth: number): unknown {
  const options = raw.oneOf as JsonSchema[];
  const start = context.style === 'sample' ? (context.alternative ?? 0) : context.random.int(0, options.length - 1);
  let first: { value: unknown } | undefined;
  for (let step = 0; step < options.length; step += 1) {
    const index = (start + step) % options.length;
    const value = generate({ ...raw, oneOf: [options[index]] }, name, context, depth);
    if (!options.some((option, other) => other !== index && fits(value, option))) return value;
    first ??= { value };
  }
  return first!.value;
}

function generate(raw: JsonSchema | undefined, name: string, context: ValueContext, depth: number): unknown {
  if (depth > SHALLOW && admitsNull(raw)) return null;
  if (typeof raw === 'object' && Array.isArray(raw.oneOf) && raw.oneOf.length > 1)
    return oneOfValue(raw, name, context, depth);
  const schema = resolved(raw, context);
  if (typeof schema !== 'object' || depth > MAX_DEPTH) return null;
  if ('const' in schema) return schema.const;
  const referenced = name === '' ? undefined : context.reference?.(name, schema);
  if (referenced) return referenced.value;
  if (context.style === 'sample' && context.examples !== false) {
    const known = documented(schema);
    if (known && fits(known.value, schema)) return known.value;
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const members = schema.enum.filter((member) => member !== null || typesOf(schema).includes('null'));
    const from = members.length > 0 ? members : schema.enum;
    return context.style === 'sample' ? from[0] : context.random.pick(from);
  }
  switch (primaryType(schema)) {
    case 'object':
      return objectValue(schema, context, depth > SHALLOW ? 'required' : 'all', depth + 1);
    case 'array':
      // Objects count the depth: a list's items come out as the same item read alone would.
      return arrayValue(schema, name, context, objectItems(schema) ? depth : depth + 1);
    case 'integer':
    case 'number':
      return numberValue(name, schema, context);
    case 'boolean':
      return context.style === 'sample' ? true : context.random.next() < 0.5;
    case 'string':
      return stringValue(name, schema, context);
    default:
      return null;
  }
}

function objectItems(schema: Schema): boolean {
  const items = schema.items;
  return (
    typeof items === 'object' && items !== null && !Array.isArray(items) && primaryType(items as Schema) === 'object'
  );
}

/** A tuple's positions (`prefixItems`, or draft 4's `items` array), then `items` for the rest. */
function arrayValue(schema: Schema, name: string, context: ValueContext, depth: number): unknown[] {
  const prefix = (
    Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : []
  ) as JsonSchema[];
  const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  const minimum = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maximum = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
  const least = rest === false || depth > SHALLOW ? 0 : 1;
  const count = Math.min(maximum, Math.max(minimum, prefix.length, least));
  const values: unknown[] = [];
  const seen = new Set<string>();
  for (let index = 0; values.length < count && index < count * 4 + 8; index += 1) {
    const itemSchema = (index < prefix.length ? prefix[index] : rest) as JsonSchema | undefined;
    const item =
      schema.uniqueItems === true
        ? distinctItem(itemSchema, name, context, depth, index)
        : generate(itemSchema, name, context, depth);
    const key = JSON.stringify(item);
    if (schema.uniqueItems === true && seen.has(key)) continue;
    seen.add(key);
    values.push(item);
  }
  return values;
}

/** The n-th item of a list whose items must differ: another enum member, another draw. */
function distinctItem(
  schema: JsonSchema | undefined,
  name: string,
  context: ValueContext,
  depth: number,
  index: number,
): unknown {
  if (index === 0 || typeof schema !== 'object') return generate(schema, name, context, depth);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[index % schema.enum.length];
  const seed = context.style === 'sample' ? index : context.random.int(0, 2 ** 31);
  return generate(
    schema,
    name,
    { ...context, style: 'varied', tag: context.tag, random: new Random(seed), index },
    depth,
  );
}

function objectValue(
  raw: JsonSchema | undefined,
  context: ValueContext,
  which: 'required' | 'all',
  depth: number,
): Record<string, unknown> {
  const schema = resolved(raw, context);
  if (typeof schema !== 'object') return {};
  const properties = (typeof schema.properties === 'object' && schema.properties ? schema.properties : {}) as Record<
    string,
    JsonSchema
  >;
  const required = Array.isArray(schema.required)
    ? (schema.required as unknown[]).filter((item): item is string => typeof item === 'string')
    : [];
  const hidden = context.direction === 'response' ? 'writeOnly' : 'readOnly';
  const visible = Object.entries(properties).filter(
    ([, property]) => !(typeof property === 'object' && property[hidden] === true),
  );
  const identities = depth <= 1 ? (context.identities ?? []) : []; // the resource itself, not nested objects
  const kept = visible.filter(([name]) => !identities.includes(name) || required.includes(name));
  const needed = ([name, property]: [string, JsonSchema]) =>
    required.includes(name) || context.reference?.(name, property) !== undefined;
  const chosen = which === 'all' ? [...kept] : kept.filter(needed);
  const minimum = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
  for (const entry of kept) {
    if (chosen.length >= minimum) break;
    if (!chosen.includes(entry)) chosen.push(entry);
  }
  // Required names the schema does not declare take what `additionalProperties` allows.
  const extra =
    typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as JsonSchema) : { type: 'string' };
  for (const name of required) if (!(name in properties)) chosen.push([name, extra]);
  const maximum = typeof schema.maxProperties === 'number' ? schema.maxProperties : Infinity;
  const trimmed =
    chosen.length > maximum
      ? [
          ...chosen.filter(([name]) => required.includes(name)),
          ...chosen.filter(([name]) => !required.includes(name)),
        ].slice(0, Math.max(maximum, required.length))
      : chosen;
  return Object.fromEntries(
    trimmed.map(([name, property]) => [
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
  const target = resolved(schema, context);
  const type = typeof target === 'object' ? primaryType(target) : undefined;
  if (type === 'object') return validObject(target, context, 'required');
  if (
    type === 'array' &&
    typeof target === 'object' &&
    typeof target.items === 'object' &&
    !Array.isArray(target.items)
  ) {
    const items = resolved(target.items as JsonSchema, context);
    if (typeof items === 'object' && primaryType(items) === 'object') {
      const count = Math.max(1, typeof target.minItems === 'number' ? target.minItems : 1);
      return Array.from({ length: count }, () => validObject(items, context, 'required'));
    }
  }
  return validValue(target, context);
}

/** How a sample is made: which alternative of a choice, whether documented examples may be used. */
export interface SampleOptions {
  /** The dereferenced document (discriminator mappings name their variants through it). */
  document?: unknown;
  examples?: boolean;
  alternative?: number;
}

/**
 * A deterministic value for a (dereferenced) schema: its example, default, const or first enum
 * member where they fit the schema, otherwise the simplest value of its type that meets its
 * keywords (bounds, pattern, format, required properties, alternatives). Canned responses that
 * have no example in the document use it.
 */
export function sampleOf(schema: JsonSchema | undefined, options: SampleOptions = {}): unknown {
  return generate(
    schema,
    '',
    { random: new Random(1), tag: '', style: 'sample', direction: 'response', ...options },
    0,
  );
}
