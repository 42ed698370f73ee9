import { sampleOf } from '../../openapi/generate.js';
import { escapeToken, valueAt } from '../../openapi/json-pointer.js';
import type { LoadedDocument } from '../../openapi/load.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { objectShape } from '../../openapi/schema-shape.js';

/** How an item goes into a request body that wraps it (`{"booking": {...}}`). */
export interface BodyWrapper {
  /** The property holding the item. */
  property: string;
  /** Required properties beside it (metadata such as a `type`), with sample values. */
  extras: Record<string, unknown>;
}

/** The pointer a `$ref` chain at `pointer` ends on in the bundled document (what ajv compiles). */
function settledPointer(document: LoadedDocument, pointer: string): string | undefined {
  let at = pointer;
  for (let hops = 0; hops < 16; hops += 1) {
    const node = valueAt(document.document, at) as { $ref?: unknown } | undefined;
    if (typeof node?.$ref !== 'string') return node === undefined ? undefined : at;
    if (!node.$ref.startsWith('#')) return undefined;
    at = node.$ref;
  }
  return undefined;
}

/**
 * The body schema a check generates: the item inside the wrapper the model found (its schema
 * and the pointer ajv validates it by), else the body's own. A wrapper reached only through
 * `allOf` keeps the whole body: there is no pointer to the item alone.
 */
export function innerBody(
  document: LoadedDocument,
  pointer: string,
  schema: JsonSchema,
  wrapper: string | undefined,
): { pointer: string; schema: JsonSchema; wrapper?: BodyWrapper } {
  if (wrapper === undefined || typeof schema !== 'object') return { pointer, schema };
  const settled = settledPointer(document, pointer);
  const properties = typeof schema.properties === 'object' ? (schema.properties as Record<string, JsonSchema>) : {};
  const item = properties[wrapper];
  if (settled === undefined || item === undefined) return { pointer, schema };
  const { required, properties: all } = objectShape(schema);
  const extras = Object.fromEntries(
    required.filter((name) => name !== wrapper).map((name) => [name, sampleOf(all[name])]),
  );
  return {
    pointer: `${settled}/properties/${escapeToken(wrapper)}`,
    schema: item,
    wrapper: { property: wrapper, extras },
  };
}

/** The body as sent: the item inside its wrapper when the operation wraps it. */
export function wrapBody(value: unknown, wrapper: BodyWrapper | undefined): unknown {
  return wrapper === undefined ? value : { ...wrapper.extras, [wrapper.property]: value };
}
