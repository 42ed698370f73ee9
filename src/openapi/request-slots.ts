import { bodySchemaOf, schemaAt } from './document-schemas.js';
import { escapeToken } from './json-pointer.js';
import type { LoadedDocument } from './load.js';
import type { JsonSchema } from './openapi-types.js';
import type { Operation } from './operations.js';
import { objectShape, primaryType } from './schema-shape.js';

/** Where in a request a value goes. */
export type SlotLocation = 'path' | 'query' | 'header' | 'cookie' | 'body';

/** One place of a request that takes a scalar value: a parameter, or a body property (arrays of ids too). */
export interface RequestSlot {
  in: SlotLocation;
  /** A parameter's name, or a JSON pointer into the body with `*` for array items (`/passengers/*\/seat_id`). */
  name: string;
  /** The name the value goes by: the parameter's, the property's, or the array's for its items (`station_ids`). */
  word: string;
  /** Dereferenced schema of the value. */
  schema: JsonSchema | undefined;
  description: string | undefined;
  /** The documented example of the value, if any. */
  example: unknown;
  /**
   * The one value of a `type` property beside it (JSON:API's resource identifier
   * `{"type": "patients", "id": ...}`): the kind of resource the object names.
   */
  siblingType?: string;
}

/** Headers OpenAPI says a header parameter cannot describe. */
const RESERVED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

const MAX_DEPTH = 4;

function exampleOf(schema: JsonSchema | undefined): unknown {
  if (typeof schema !== 'object') return undefined;
  if (schema.example !== undefined) return schema.example;
  return Array.isArray(schema.examples) ? schema.examples[0] : undefined;
}

function descriptionOf(schema: JsonSchema | undefined): string | undefined {
  return typeof schema === 'object' && typeof schema.description === 'string' ? schema.description : undefined;
}

function isScalar(schema: JsonSchema | undefined): boolean {
  const type = primaryType(schema);
  return type === 'string' || type === 'integer' || type === 'number';
}

/** The first alternative of a oneOf/anyOf object (what the generators fill), else the schema. */
function firstAlternative(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (typeof schema !== 'object' || schema.properties) return schema;
  const options = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  return Array.isArray(options) && options.length > 0 ? options[0] : schema;
}

/** The single value a `type` property allows (an enum of one, or a const), if the object has one. */
function singleTypeValue(properties: Record<string, JsonSchema>): string | undefined {
  const type = properties.type;
  if (typeof type !== 'object') return undefined;
  const values = Array.isArray(type.enum) ? type.enum : 'const' in type ? [type.const] : [];
  return values.length === 1 && typeof values[0] === 'string' ? values[0] : undefined;
}

function bodySlots(schema: JsonSchema | undefined, pointer: string, depth: number, out: RequestSlot[]): void {
  if (depth > MAX_DEPTH) return;
  const { properties } = objectShape(firstAlternative(schema));
  const siblingType = singleTypeValue(properties);
  for (const [name, property] of Object.entries(properties)) {
    if (typeof property !== 'object' || property.readOnly === true) continue;
    const at = `${pointer}/${escapeToken(name)}`;
    const typed = name !== 'type' && siblingType !== undefined ? { siblingType } : {};
    const base = { in: 'body' as const, word: name, description: descriptionOf(property), ...typed };
    if (isScalar(property)) out.push({ ...base, name: at, schema: property, example: exampleOf(property) });
    else if (primaryType(property) === 'array') {
      const items = property.items as JsonSchema | undefined;
      if (isScalar(items))
        out.push({
          ...base,
          name: `${at}/*`,
          schema: items,
          description: base.description ?? descriptionOf(items),
          example: exampleOf(items),
        });
      else bodySlots(items, `${at}/*`, depth + 1, out);
    } else bodySlots(property, at, depth + 1, out);
  }
}

/** Every slot of an operation's request: its parameters (not `Accept`, `Content-Type`, `Authorization`), then its JSON body's scalars. */
export function requestSlots(document: LoadedDocument, operation: Operation): RequestSlot[] {
  const slots: RequestSlot[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in === 'header' && RESERVED_HEADERS.has(parameter.name.toLowerCase())) continue;
    const schema = schemaAt(document, parameter.schema?.pointer);
    slots.push({
      in: parameter.in,
      name: parameter.name,
      word: parameter.name,
      schema,
      description: parameter.description ?? descriptionOf(schema),
      example: parameter.example ?? exampleOf(schema),
    });
  }
  bodySlots(bodySchemaOf(document, operation), '', 0, slots);
  return slots;
}
