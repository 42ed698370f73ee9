import { valueAt } from './json-pointer.js';
import type { JsonSchema } from './openapi-types.js';

/** A schema that is an object (not `true`/`false`). */
export type Schema = Record<string, unknown>;

const LOWER_BOUNDS = ['minimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'maxLength', 'maxItems', 'maxProperties'];
/** What describes one part only: an example of a base schema is not an example of what extends it. */
const PART_ONLY = new Set(['example', 'examples', 'default', 'title', 'description']);
const CHOICES = ['oneOf', 'anyOf'] as const;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeList(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
}

function mergeTypes(a: unknown, b: unknown): unknown {
  const left = typeList(a);
  const right = typeList(b);
  if (!left || !right) return a ?? b;
  const both = left.filter((type) => right.includes(type) || (type === 'integer' && right.includes('number')));
  const more = right.filter((type) => type === 'integer' && left.includes('number') && !both.includes(type));
  const merged = [...both, ...more];
  if (merged.length === 0) return a;
  return merged.length === 1 ? merged[0] : merged;
}

function mergeProperties(a: Schema, b: Schema): Schema {
  const merged: Schema = { ...a };
  for (const [name, schema] of Object.entries(b))
    merged[name] = name in merged ? { allOf: [merged[name], schema] } : schema;
  return merged;
}

/** One schema meaning what `a` and `b` mean together (as far as generating a value goes). */
export function mergeSchemas(a: Schema, b: Schema): Schema {
  const merged: Schema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (PART_ONLY.has(key)) continue;
    if (!(key in merged)) merged[key] = value;
    else if (key === 'properties' && isSchema(value) && isSchema(merged.properties))
      merged.properties = mergeProperties(merged.properties, value);
    else if (key === 'required' && Array.isArray(value) && Array.isArray(merged.required))
      merged.required = [...new Set([...(merged.required as unknown[]), ...(value as unknown[])])];
    else if (key === 'type') merged.type = mergeTypes(merged.type, value);
    else if (LOWER_BOUNDS.includes(key) && typeof value === 'number')
      merged[key] = Math.max(Number(merged[key]), value);
    else if (UPPER_BOUNDS.includes(key) && typeof value === 'number')
      merged[key] = Math.min(Number(merged[key]), value);
    else if (key === 'enum' && Array.isArray(value) && Array.isArray(merged.enum)) {
      const keep = (merged.enum as unknown[]).filter((item) => value.some((other) => jsonEqual(item, other)));
      if (keep.length > 0) merged.enum = keep;
    } else if ((CHOICES as readonly string[]).includes(key) || key === 'allOf')
      merged.allOf = [...(Array.isArray(merged.allOf) ? (merged.allOf as unknown[]) : []), { [key]: value }];
    else if (key === 'items' && isSchema(value) && isSchema(merged.items))
      merged.items = { allOf: [merged.items, value] };
  }
  return merged;
}

function jsonEqual(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** `allOf` folded into one schema, parts merged in order; the outer schema's own words kept first. */
function folded(schema: Schema): Schema {
  const { allOf, ...rest } = schema;
  let merged: Schema = rest;
  for (const part of allOf as unknown[]) if (isSchema(part)) merged = mergeSchemas(merged, part);
  return wholeExample(merged, allOf as unknown[]);
}

/**
 * A lone part is the whole value (`allOf: [{$ref: Pet}]`, a chosen variant with nothing beside it):
 * its example and default describe the merged schema too.
 */
function wholeExample(merged: Schema, parts: readonly unknown[]): Schema {
  const [only] = parts;
  if (parts.length !== 1 || !isSchema(only) || 'example' in merged || 'default' in merged) return merged;
  const documented: Schema = {};
  if ('example' in only) documented.example = only.example;
  if ('default' in only) documented.default = only.default;
  return { ...merged, ...documented };
}

/** How a generator picks among the alternatives of a `oneOf`/`anyOf`, and names discriminated variants. */
export interface ChoiceContext {
  /** The index of the alternative to take, among `count` (deterministic or seeded). */
  pick(count: number): number;
  /** The dereferenced document, to tell which alternative a discriminator `mapping` names. */
  document?: unknown;
}

/** The alternatives worth choosing first: those whose type agrees with what the schema says around them. */
function preferred(schema: Schema, options: readonly Schema[]): Schema[] {
  const around = typeList(schema.type) ?? (schema.properties ? ['object'] : undefined);
  if (!around) return [...options];
  const agreeing = options.filter((option) => {
    const types = typeList(option.type) ?? (option.properties ? ['object'] : undefined);
    return !types || types.some((type) => around.includes(type) || (type === 'integer' && around.includes('number')));
  });
  return agreeing.length > 0 ? agreeing : [...options];
}

/** The value a discriminator gives `branch`: the mapping entry naming it, else its component name. */
function discriminatorValue(discriminator: Schema, branch: Schema, document: unknown): string | undefined {
  if (!isSchema(document)) return undefined;
  const mapping = isSchema(discriminator.mapping) ? discriminator.mapping : {};
  for (const [value, target] of Object.entries(mapping)) {
    if (typeof target !== 'string') continue;
    const pointer = target.startsWith('#') ? target : `#/components/schemas/${target}`;
    if (valueAt(document, pointer) === branch) return value;
  }
  const schemas = isSchema(document.components) ? document.components.schemas : {};
  const name = Object.entries(isSchema(schemas) ? schemas : {}).find(([, schema]) => schema === branch)?.[0];
  if (name === undefined || typeof discriminator.propertyName !== 'string') return name;
  return ownValues(branch, discriminator.propertyName, name)?.[0] ?? name;
}

/**
 * The values a variant's own schema allows for the discriminating property (`type: {enum:
 * [track]}`) where they leave out its schema name: the document means its own values, as the
 * validators do (schema-dialect.ts).
 */
function ownValues(branch: Schema, property: string, name: string): string[] | undefined {
  const schema = isSchema(branch.properties) ? branch.properties[property] : undefined;
  if (!isSchema(schema)) return undefined;
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  if (!values || values.includes(name) || !values.every((value) => typeof value === 'string')) return undefined;
  return values;
}

/** The schema with one alternative of its `oneOf`/`anyOf` merged in (its discriminator property set to match). */
function chosen(schema: Schema, key: (typeof CHOICES)[number], context: ChoiceContext): Schema {
  const { [key]: options, discriminator, ...rest } = schema;
  const usable = preferred(rest, (options as unknown[]).filter(isSchema));
  if (usable.length === 0) return rest;
  const branch = usable[context.pick(usable.length) % usable.length]!;
  const around = Object.keys(rest).some((name) => name === 'properties' || name === 'allOf');
  let merged = around ? mergeSchemas(rest, branch) : wholeExample(mergeSchemas(rest, branch), [branch]);
  if (isSchema(discriminator) && typeof discriminator.propertyName === 'string') {
    const value = discriminatorValue(discriminator, branch, context.document);
    if (value !== undefined) {
      const properties = isSchema(merged.properties) ? merged.properties : {};
      // Required as the validators make it: a sparse value (past the generator's shallow depth) still names its variant.
      const required = Array.isArray(merged.required) ? (merged.required as unknown[]) : [];
      merged = {
        ...merged,
        properties: { ...properties, [discriminator.propertyName]: { const: value } },
        required: required.includes(discriminator.propertyName) ? required : [...required, discriminator.propertyName],
      };
    }
  }
  return merged;
}

/**
 * The schema a value is generated from: `allOf` parts folded in, one alternative of each
 * `oneOf`/`anyOf` chosen and merged (also those nested in `allOf` parts: a `oneOf` inside an
 * `allOf` is not dropped), a discriminator's property given the chosen variant's value.
 */
export function resolvedSchema(schema: JsonSchema | undefined, context: ChoiceContext): JsonSchema | undefined {
  if (!isSchema(schema)) return schema;
  let current: Schema = schema;
  for (let round = 0; round < 16; round += 1) {
    const key = CHOICES.find((choice) => Array.isArray(current[choice]) && (current[choice] as unknown[]).length > 0);
    if (key) current = chosen(current, key, context);
    else if (Array.isArray(current.allOf)) current = folded(current);
    else break;
  }
  return current;
}
