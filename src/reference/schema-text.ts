import type { JsonSchema, OpenApiDocument } from '../openapi/openapi-types.js';
import { valueAt } from '../openapi/json-pointer.js';
import { anchor, code, escapeHtml, inline, table } from './html.js';

/** A schema that is an object (not `true`/`false`). */
type Schema = Record<string, unknown>;

/** Nested inline schemas are shown this deep; deeper ones by their type alone (documents may be cyclic). */
const MAX_DEPTH = 4;

const COMPONENT_SCHEMA = /^#\/components\/schemas\/([^/]+)$/;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The name of a component schema a `$ref` points at, if it does. */
function componentName(schema: unknown): string | undefined {
  if (!isSchema(schema) || typeof schema.$ref !== 'string') return undefined;
  const match = COMPONENT_SCHEMA.exec(schema.$ref);
  return match ? decodeURIComponent(match[1]!).replaceAll('~1', '/').replaceAll('~0', '~') : undefined;
}

/** Follows local `$ref`s (a few hops), keeping what sits beside the last reference. */
export function resolveSchema(document: OpenApiDocument, schema: unknown): Schema | boolean | undefined {
  let current: unknown = schema;
  for (let hops = 0; isSchema(current) && typeof current.$ref === 'string' && hops < 8; hops += 1) {
    const target = current.$ref.startsWith('#') ? valueAt(document, current.$ref) : undefined;
    if (target === undefined) return current;
    current = target;
  }
  return typeof current === 'boolean' || isSchema(current) ? current : undefined;
}

/** A link to a component schema's section of the page. */
function schemaLink(name: string): string {
  return `<a href="#${anchor('schema', name)}">${escapeHtml(name)}</a>`;
}

function typeWord(schema: Schema): string {
  const types = Array.isArray(schema.type) ? schema.type.map(String) : schema.type ? [String(schema.type)] : [];
  let word = types.join(' or ');
  if (typeof schema.format === 'string') word += ` (${schema.format})`;
  if (schema.nullable === true) word += ' or null';
  return word;
}

/** The type of a schema as a reader says it: `integer (int64)`, `array of <Pet>`, `one of A, B`; HTML. */
export function typeText(document: OpenApiDocument, schema: JsonSchema | undefined, depth = 0): string {
  if (schema === undefined || schema === true) return 'any';
  if (schema === false) return 'nothing';
  const name = componentName(schema);
  if (name !== undefined) return schemaLink(name);
  if (typeof schema.$ref === 'string') return code(schema.$ref);
  if (depth > MAX_DEPTH) return escapeHtml(typeWord(schema) || 'schema');
  for (const [keyword, words] of [
    ['allOf', 'all of'],
    ['oneOf', 'one of'],
    ['anyOf', 'any of'],
  ] as const) {
    const parts = schema[keyword];
    if (Array.isArray(parts) && parts.length > 0)
      return `${words} ${parts.map((part: JsonSchema) => typeText(document, part, depth + 1)).join(', ')}`;
  }
  const word = typeWord(schema);
  if ((word.startsWith('array') || schema.items !== undefined) && schema.items !== undefined)
    return `array of ${typeText(document, schema.items as JsonSchema, depth + 1)}`;
  if ('const' in schema) return `${escapeHtml(word || 'value')} ${code(JSON.stringify(schema.const))}`;
  return escapeHtml(word || (isSchema(schema.properties) ? 'object' : 'any'));
}

const LIMITS: readonly (readonly [string, string])[] = [
  ['minimum', 'minimum'],
  ['maximum', 'maximum'],
  ['exclusiveMinimum', 'greater than'],
  ['exclusiveMaximum', 'less than'],
  ['multipleOf', 'multiple of'],
  ['minLength', 'min length'],
  ['maxLength', 'max length'],
  ['minItems', 'min items'],
  ['maxItems', 'max items'],
  ['minProperties', 'min properties'],
  ['maxProperties', 'max properties'],
];

/** The limits of a schema (its referenced schema's too) as `[label, value]` pairs of plain text. */
export function limitsOf(document: OpenApiDocument, schema: JsonSchema | undefined): [string, string][] {
  const own = isSchema(schema) ? schema : {};
  const target = resolveSchema(document, schema);
  const merged: Schema = { ...(isSchema(target) ? target : {}), ...own };
  const limits: [string, string][] = [];
  for (const [keyword, label] of LIMITS) {
    const value = merged[keyword];
    if (typeof value === 'number') limits.push([label, String(value)]);
    // OpenAPI 3.0: a boolean exclusiveMinimum/Maximum turns the bound itself exclusive.
    else if (value === true && keyword.startsWith('exclusive')) limits.push([label, 'the bound (exclusive)']);
  }
  if (typeof merged.pattern === 'string') limits.push(['pattern', merged.pattern]);
  if (merged.uniqueItems === true) limits.push(['unique items', 'yes']);
  if (Array.isArray(merged.enum)) limits.push(['one of', merged.enum.map((item) => JSON.stringify(item)).join(', ')]);
  if ('default' in merged) limits.push(['default', JSON.stringify(merged.default)]);
  if (merged.readOnly === true) limits.push(['read-only', 'yes']);
  if (merged.writeOnly === true) limits.push(['write-only', 'yes']);
  if (merged.deprecated === true) limits.push(['deprecated', 'yes']);
  return limits;
}

/** The limits of a schema as HTML: `minimum 1, maximum 100, default 20`. */
export function limitsText(document: OpenApiDocument, schema: JsonSchema | undefined): string {
  return limitsOf(document, schema)
    .map(([label, value]) => `${escapeHtml(label)} ${code(value)}`)
    .join(', ');
}

/** The properties of an object schema, those of its `allOf` parts included, with the required ones. */
export function propertiesOf(
  document: OpenApiDocument,
  schema: JsonSchema | undefined,
  depth = 0,
): { properties: Map<string, JsonSchema>; required: Set<string> } {
  const properties = new Map<string, JsonSchema>();
  const required = new Set<string>();
  const target = resolveSchema(document, schema);
  if (!isSchema(target) || depth > MAX_DEPTH) return { properties, required };
  for (const part of Array.isArray(target.allOf) ? (target.allOf as JsonSchema[]) : []) {
    const inner = propertiesOf(document, part, depth + 1);
    for (const [name, value] of inner.properties) properties.set(name, value);
    for (const name of inner.required) required.add(name);
  }
  if (isSchema(target.properties))
    for (const [name, value] of Object.entries(target.properties)) properties.set(name, value as JsonSchema);
  if (Array.isArray(target.required)) for (const name of target.required) required.add(String(name));
  return { properties, required };
}

/** A property's description: its own, else the referenced schema's. */
function descriptionOf(document: OpenApiDocument, schema: JsonSchema): unknown {
  if (isSchema(schema) && typeof schema.description === 'string') return schema.description;
  const target = resolveSchema(document, schema);
  return isSchema(target) ? target.description : undefined;
}

/** The table of an object's fields: name, type, required, limits, description; '' for no fields. */
export function fieldsTable(document: OpenApiDocument, schema: JsonSchema | undefined, depth = 0): string {
  const { properties, required } = propertiesOf(document, schema);
  const rows = [...properties].map(([name, property]) => {
    const nested =
      componentName(property) === undefined && depth < MAX_DEPTH && propertiesOf(document, property).properties.size
        ? fieldsTable(document, property, depth + 1)
        : '';
    return [
      code(name),
      typeText(document, property, depth + 1),
      required.has(name) ? '<strong>required</strong>' : 'optional',
      limitsText(document, property),
      inline(descriptionOf(document, property)) + nested,
    ];
  });
  return table(['Field', 'Type', 'Required', 'Limits', 'Description'], rows, 'fields');
}
