import { fragmentToken, valueAt } from './json-pointer.js';
import type { OpenApiDocument } from './openapi-types.js';
import { contradictsTarget } from './ref-siblings.js';

/** Something kennel changed or ignored in a schema so that ajv can compile it, located by JSON pointer. */
export interface DialectNote {
  pointer: string;
  message: string;
}

/** A copy of the document whose schemas ajv compiles as their authors meant them. */
export interface SchemaDialect {
  document: OpenApiDocument;
  notes: DialectNote[];
}

const translated = new WeakMap<OpenApiDocument, SchemaDialect>();

/**
 * Translates the OpenAPI-only schema keywords into JSON Schema that ajv understands, without moving
 * any schema (every JSON pointer into the original still names the same schema):
 * - `nullable: true` (3.0): `null` joins `type` and `enum`; beside `$ref`/`allOf`/`anyOf`/`oneOf`
 *   those move into `anyOf: [{type: 'null'}, {...}]`; without them null was allowed already.
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` (3.0, JSON Schema draft 4) become numbers.
 * - `discriminator` over `oneOf`/`anyOf` of `$ref`s (with or without `mapping`) becomes
 *   if-then by the property's value, so a payload matching two variants is judged by the one it
 *   names; elsewhere (an `allOf` base, inline variants) it is dropped: it only ever narrowed a choice.
 * - a `type` beside a `$ref` that the referenced schema contradicts is dropped (ref-siblings.ts).
 * - a `pattern` no JavaScript regular expression can read is dropped (noted); `$schema` inside a
 *   schema is dropped (kennel uses the document's dialect: JSON Schema 2020-12 for 3.1).
 * Memoised per document object.
 */
export function schemaDialectOf(document: OpenApiDocument): SchemaDialect {
  let dialect = translated.get(document);
  if (!dialect) {
    const copy = structuredClone(document);
    const notes: DialectNote[] = [];
    for (const { schema, pointer } of schemasOf(copy)) translateSchema(copy, schema, pointer, notes);
    dialect = { document: copy, notes };
    translated.set(document, dialect);
  }
  return dialect;
}

type Json = Record<string, unknown>;

/** A schema object of a document and the JSON pointer that names it. */
export interface Located {
  schema: Json;
  pointer: string;
}

function isMapping(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Data that validation never reads, removed from the copy ajv is given: ajv looks for `$id`s in
 * every key it does not know, so an example holding `{"$id": "thing-1"}` twice would be taken for
 * two schemas with one id ("resolves to more than one schema"). `enum`, `const` and `default`
 * stay: they are data ajv reads, and it does not look for ids there.
 */
const EXAMPLE_KEYS = new Set(['example', 'examples']);
/** OpenAPI fields whose values are maps of names the document chooses (`headers: {x-next: …}`). */
const MAPS = new Set([
  'paths',
  'webhooks',
  'responses',
  'headers',
  'content',
  'links',
  'callbacks',
  'encoding',
  'variables',
  'securitySchemes',
  'parameters',
  'requestBodies',
  'pathItems',
]);

/** Keys of OpenAPI objects whose values are data (examples), not structure: never searched for schemas. */
const DATA_KEYS = new Set(['example', 'examples', 'value', 'default', 'enum', 'const']);
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_SINGLES = [
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];

/** Every schema object of the document, nested ones included (each once, outermost first). */
export function schemasOf(document: OpenApiDocument): Located[] {
  const found: Located[] = [];
  const structure: { node: unknown; pointer: string; map?: boolean }[] = [{ node: document, pointer: '#' }];
  while (structure.length > 0) {
    const { node, pointer, map } = structure.pop()!;
    if (Array.isArray(node))
      node.forEach((child, index) => structure.push({ node: child, pointer: `${pointer}/${index}` }));
    if (!isMapping(node)) continue;
    for (const [key, child] of Object.entries(node)) {
      const at = `${pointer}/${fragmentToken(key)}`;
      // A map's keys are names (a header called `x-next`), not fields: only objects lose their data.
      if (!map && (EXAMPLE_KEYS.has(key) || key.startsWith('x-'))) delete node[key];
      if (!map && (DATA_KEYS.has(key) || key.startsWith('x-'))) continue;
      if (key === 'schema' && !map) collectSchemas(child, at, found);
      else if (key === 'schemas' && pointer === '#/components' && isMapping(child))
        for (const [name, schema] of Object.entries(child))
          collectSchemas(schema, `${at}/${fragmentToken(name)}`, found);
      else structure.push({ node: child, pointer: at, map: !map && MAPS.has(key) });
    }
  }
  return found;
}

function collectSchemas(root: unknown, rootPointer: string, found: Located[]): void {
  const stack: { node: unknown; pointer: string }[] = [{ node: root, pointer: rootPointer }];
  while (stack.length > 0) {
    const { node, pointer } = stack.pop()!;
    if (!isMapping(node)) continue;
    found.push({ schema: node, pointer });
    for (const key of Object.keys(node)) if (EXAMPLE_KEYS.has(key) || key.startsWith('x-')) delete node[key];
    for (const key of SCHEMA_MAPS) {
      const map = node[key];
      if (isMapping(map))
        for (const [name, child] of Object.entries(map))
          stack.push({ node: child, pointer: `${pointer}/${key}/${fragmentToken(name)}` });
    }
    for (const key of SCHEMA_SINGLES)
      if (isMapping(node[key])) stack.push({ node: node[key], pointer: `${pointer}/${key}` });
    for (const key of SCHEMA_LISTS) {
      const list = node[key];
      if (Array.isArray(list))
        list.forEach((child, index) => stack.push({ node: child, pointer: `${pointer}/${key}/${index}` }));
    }
  }
}

function translateSchema(document: OpenApiDocument, schema: Json, pointer: string, notes: DialectNote[]): void {
  if (typeof schema.$ref === 'string' && 'type' in schema) contradictingType(document, schema);
  exclusiveBound(schema, 'exclusiveMinimum', 'minimum');
  exclusiveBound(schema, 'exclusiveMaximum', 'maximum');
  if ('discriminator' in schema) discriminated(document, schema);
  if ('nullable' in schema) nullable(schema);
  if ('$schema' in schema) delete schema.$schema;
  if (typeof schema.pattern === 'string' && !readablePattern(schema.pattern)) {
    notes.push({
      pointer: `${pointer}/pattern`,
      message: `pattern ${JSON.stringify(schema.pattern)} is not a regular expression JavaScript can read; kennel ignores it`,
    });
    delete schema.pattern;
  }
}

/** Drops a `type` beside a `$ref` that the referenced schema contradicts (ref-siblings.ts). */
function contradictingType(document: OpenApiDocument, schema: Json): void {
  let target: unknown = schema;
  for (let hop = 0; hop < 8 && isMapping(target) && typeof target.$ref === 'string'; hop += 1)
    target = target.$ref.startsWith('#') ? valueAt(document, target.$ref) : undefined;
  if (isMapping(target) && contradictsTarget(schema.type, target.type)) delete schema.type;
}

/** Draft 4's `exclusiveMinimum: true` + `minimum: 5` is JSON Schema's `exclusiveMinimum: 5`. */
function exclusiveBound(schema: Json, exclusive: string, bound: string): void {
  if (typeof schema[exclusive] !== 'boolean') return;
  if (schema[exclusive] === true && typeof schema[bound] === 'number') {
    schema[exclusive] = schema[bound];
    delete schema[bound];
  } else delete schema[exclusive];
}

const COMBINATORS = ['$ref', 'allOf', 'anyOf', 'oneOf'] as const;

function nullable(schema: Json): void {
  const wanted = schema.nullable === true;
  delete schema.nullable;
  if (!wanted) return;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...(schema.enum as unknown[]), null];
  if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  else if (Array.isArray(schema.type)) {
    if (!schema.type.includes('null')) schema.type = [...(schema.type as unknown[]), 'null'];
  } else if (COMBINATORS.some((key) => key in schema)) {
    const inner: Json = {};
    for (const key of COMBINATORS) {
      if (!(key in schema)) continue;
      inner[key] = schema[key];
      delete schema[key];
    }
    schema.anyOf = [{ type: 'null' }, inner];
  }
}

/**
 * The values a variant's own schema allows for the discriminating property (`type: {enum:
 * [track]}`), when it restricts them. The implicit mapping names a variant by its schema name
 * (`TrackObject`); a document whose variant says otherwise means its own values, as its
 * deployments send them.
 */
function ownValues(document: OpenApiDocument, ref: string, property: string): string[] | undefined {
  let target = valueAt(document, ref);
  for (let hop = 0; hop < 8 && isMapping(target) && typeof target.$ref === 'string'; hop += 1)
    target = target.$ref.startsWith('#') ? valueAt(document, target.$ref) : undefined;
  const properties = isMapping(target) && isMapping(target.properties) ? target.properties : undefined;
  let schema: unknown = properties?.[property];
  for (let hop = 0; hop < 8 && isMapping(schema) && typeof schema.$ref === 'string'; hop += 1)
    schema = schema.$ref.startsWith('#') ? valueAt(document, schema.$ref) : undefined;
  if (!isMapping(schema)) return undefined;
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  const name = ref.slice(ref.lastIndexOf('/') + 1);
  if (!values || values.includes(name) || !values.every((value) => typeof value === 'string')) return undefined;
  return values;
}

/** Replaces a discriminated `oneOf`/`anyOf` of `$ref`s by if-then on the property's value. */
function discriminated(document: OpenApiDocument, schema: Json): void {
  const discriminator = schema.discriminator;
  delete schema.discriminator;
  if (!isMapping(discriminator) || typeof discriminator.propertyName !== 'string') return;
  const key = Array.isArray(schema.oneOf) ? 'oneOf' : Array.isArray(schema.anyOf) ? 'anyOf' : undefined;
  if (!key) return;
  const variants = schema[key] as unknown[];
  const refs = variants.map((variant) =>
    isMapping(variant) && typeof variant.$ref === 'string' ? variant.$ref : undefined,
  );
  if (refs.some((ref) => ref === undefined || !ref.startsWith('#/'))) return;
  const byValue = new Map<string, string>();
  for (const [value, target] of Object.entries(isMapping(discriminator.mapping) ? discriminator.mapping : {})) {
    if (typeof target !== 'string') return;
    byValue.set(value, target.startsWith('#') ? target : `#/components/schemas/${target}`);
  }
  const property = discriminator.propertyName;
  const mapped = new Set(byValue.values());
  for (const ref of refs as string[]) {
    if (mapped.has(ref)) continue;
    for (const value of ownValues(document, ref, property) ?? [ref.slice(ref.lastIndexOf('/') + 1)])
      byValue.set(value, ref);
  }
  if ([...byValue.values()].some((ref) => valueAt(document, ref) === undefined)) return;
  delete schema[key];
  schema.allOf = [
    ...(Array.isArray(schema.allOf) ? (schema.allOf as unknown[]) : []),
    { required: [property], properties: { [property]: { enum: [...byValue.keys()] } } },
    ...[...byValue].map(([value, ref]) => ({
      if: { properties: { [property]: { const: value } }, required: [property] },
      then: { $ref: ref },
    })),
  ];
}

function readablePattern(pattern: string): boolean {
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, flags);
      return true;
    } catch {
      // try the next flags
    }
  }
  return false;
}
