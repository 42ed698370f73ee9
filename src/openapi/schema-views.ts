import { valueAt } from './json-pointer.js';
import type { OpenApiDocument } from './openapi-types.js';
import { schemasOf } from './schema-dialect.js';

/**
 * Which side of the wire a value is judged for. `request`: a required `readOnly` property (an id
 * the server assigns) need not be sent; `response`: a required `writeOnly` property (a password)
 * need not come back (OAS 3.0 Schema Object; in 3.1 the same through JSON Schema's annotations).
 * `plain` judges the schema as written.
 */
export type SchemaView = 'plain' | 'request' | 'response';

type Json = Record<string, unknown>;

const MAX_DEPTH = 8;

function isMapping(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema a node stands for: `$ref`s followed inside the document (a few hops at most). */
function resolved(document: OpenApiDocument, node: unknown): Json | undefined {
  let current = node;
  for (let hop = 0; hop < MAX_DEPTH && isMapping(current) && typeof current.$ref === 'string'; hop += 1) {
    if (!current.$ref.startsWith('#')) return undefined;
    current = valueAt(document, current.$ref);
  }
  return isMapping(current) ? current : undefined;
}

/** The property schema is marked `flag` (itself, or where its `$ref` leads). */
function marked(document: OpenApiDocument, property: unknown, flag: string): boolean {
  return (isMapping(property) && property[flag] === true) || resolved(document, property)?.[flag] === true;
}

/** Names of properties `schema` declares `flag`, in its own `properties` and in its `allOf` parts. */
function markedNames(document: OpenApiDocument, schema: Json, flag: string, depth = 0): Set<string> {
  const names = new Set<string>();
  if (depth > MAX_DEPTH) return names;
  if (isMapping(schema.properties))
    for (const [name, property] of Object.entries(schema.properties))
      if (marked(document, property, flag)) names.add(name);
  if (Array.isArray(schema.allOf))
    for (const part of schema.allOf) {
      const target = resolved(document, part);
      if (target) for (const name of markedNames(document, target, flag, depth + 1)) names.add(name);
    }
  return names;
}

/** Drops `names` from `schema.required`; true when something was dropped. */
function unrequire(schema: Json, names: ReadonlySet<string>): boolean {
  if (!Array.isArray(schema.required) || names.size === 0) return false;
  const kept = schema.required.filter((name) => !names.has(name as string));
  if (kept.length === schema.required.length) return false;
  schema.required = kept;
  return true;
}

/**
 * A copy of `document` (the dialect copy ajv compiles) in which what the view does not demand is
 * not required: each object schema's `required` loses the properties it (or an `allOf` part of
 * it) declares readOnly (request) or writeOnly (response); inline `allOf` parts lose them too (a
 * part may require what a sibling declares). Undefined when the document has nothing to change.
 */
export function schemaViewOf(
  document: OpenApiDocument,
  view: Exclude<SchemaView, 'plain'>,
): OpenApiDocument | undefined {
  const flag = view === 'request' ? 'readOnly' : 'writeOnly';
  if (!JSON.stringify(document).includes(`"${flag}":true`)) return undefined;
  const copy = structuredClone(document);
  let changed = false;
  for (const { schema } of schemasOf(copy)) {
    const names = markedNames(copy, schema, flag);
    if (unrequire(schema, names)) changed = true;
    if (Array.isArray(schema.allOf))
      for (const part of schema.allOf)
        if (isMapping(part) && !('$ref' in part) && unrequire(part, names)) changed = true;
  }
  return changed ? copy : undefined;
}
