import type { JsonSchema } from '../openapi/openapi-types.js';
import { objectShape } from '../openapi/schema-shape.js';
import type { ValidationIssue, Validator } from '../openapi/validators.js';

const MAX_DEPTH = 32;

/** The schema of property `name` of an object schema (allOf merged; oneOf/anyOf alternatives searched). */
export function propertyOf(schema: JsonSchema | undefined, name: string, depth = 0): JsonSchema | undefined {
  if (typeof schema !== 'object' || depth > MAX_DEPTH) return undefined;
  const own = objectShape(schema).properties[name];
  if (own !== undefined) return own;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (!Array.isArray(options)) continue;
    for (const option of options as JsonSchema[]) {
      const found = propertyOf(option, name, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as JsonSchema) : undefined;
}

function childOf(schema: JsonSchema | undefined, token: string): JsonSchema | undefined {
  if (typeof schema === 'object' && /^\d+$/.test(token) && typeof schema.items === 'object')
    return schema.items as JsonSchema;
  return propertyOf(schema, token);
}

type Direction = 'readOnly' | 'writeOnly';

/** True when the instance location `pointer` is declared `readOnly` (or `writeOnly`) by `schema` (dereferenced). */
function markedAt(schema: JsonSchema | undefined, pointer: string, keyword: Direction): boolean {
  const tokens =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (tokens.length === 0 || tokens.length > MAX_DEPTH) return false;
  let node = schema;
  for (const token of tokens.slice(0, -1)) node = childOf(node, token);
  const property = propertyOf(node, tokens.at(-1)!);
  return typeof property === 'object' && property[keyword] === true;
}

/** `validate` without "is required" for what `schema` marks with `keyword`. */
function withoutRequired(validate: Validator, schema: JsonSchema | undefined, keyword: Direction): Validator {
  if (!mentions(schema, keyword)) return validate;
  return (value) =>
    validate(value).filter(
      (issue: ValidationIssue) => !(issue.message === 'is required' && markedAt(schema, issue.pointer, keyword)),
    );
}

/**
 * The request view of a body validator: a required `readOnly` property (an `id` the server
 * assigns) is not demanded of the client (OpenAPI 3.0 §4.7.25, 3.1 via JSON Schema's readOnly).
 */
export function requestView(validate: Validator, schema: JsonSchema | undefined): Validator {
  return withoutRequired(validate, schema, 'readOnly');
}

/** The response view: a required `writeOnly` property (a password) is never sent back, so never demanded. */
export function responseValidatorView(validate: Validator, schema: JsonSchema | undefined): Validator {
  return withoutRequired(validate, schema, 'writeOnly');
}

/** Cheap test (on the serialised schema) that the filter can matter at all. */
function mentions(schema: JsonSchema | undefined, keyword: Direction): boolean {
  try {
    return JSON.stringify(schema ?? {}).includes(`"${keyword}":true`);
  } catch {
    return true; // cyclic: assume it may
  }
}
