import type { JsonSchema } from '../../openapi/openapi-types.js';
import { objectShape } from '../../openapi/schema-shape.js';

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
