import { sampleOf } from './generate.js';
import type { JsonSchema } from './openapi-types.js';
import { resolvedSchema } from './schema-merge.js';
import { fits } from './value-fits.js';

type Item = Record<string, unknown>;

/**
 * An item as `schema` describes it: what it sends that fits a declared property is kept, what
 * does not fit (a number where the item schema says `Amount` object: a create body and a read
 * often differ) is replaced by the schema's sample, and missing required properties are filled
 * with their sample, at any depth. Properties the schema does not declare are dropped when it
 * declares some; `keep` names those that stay as they are (the key). `document` lets
 * discriminators name their variants.
 */
export function fittedItem(
  value: Readonly<Item>,
  schema: JsonSchema | undefined,
  keep: readonly string[] = [],
  document?: unknown,
  depth = 0,
): Item {
  const target = firstBranchSchema(schema, document);
  if (typeof target !== 'object' || depth > 16) return { ...value };
  const { properties, required, declared } = declaredShape(target, typeof schema === 'object');
  if (declared.length === 0) return { ...value };
  const out: Item = {};
  // Kept as they are: the key may still be a placeholder the store replaces (Redis assigns it in a script).
  for (const name of keep) if (value[name] !== undefined) out[name] = value[name];
  for (const name of declared) {
    if (Object.hasOwn(out, name)) continue;
    const property = properties[name];
    const sent = value[name];
    if (sent === undefined) {
      if (required.includes(name)) out[name] = sampleOf(property, { document });
      continue;
    }
    out[name] = fittedValue(sent, property, document, depth + 1);
  }
  return out;
}

interface DeclaredShape {
  properties: Record<string, JsonSchema>;
  required: readonly string[];
  declared: readonly string[];
}

const shapeOnce = new WeakMap<object, DeclaredShape>();

/** What an object schema declares, read once per schema (every create fits its item to the same one). */
function declaredShape(target: Exclude<JsonSchema, boolean>, lasting: boolean): DeclaredShape {
  const known = shapeOnce.get(target);
  if (known) return known;
  const properties = (typeof target.properties === 'object' && target.properties ? target.properties : {}) as Record<
    string,
    JsonSchema
  >;
  const required = Array.isArray(target.required) ? (target.required as string[]) : [];
  const shape = { properties, required, declared: Object.keys(properties) };
  // A schema resolved afresh on each call (not an object of the document) is not worth keeping.
  if (lasting) shapeOnce.set(target, shape);
  return shape;
}

const resolvedOnce = new WeakMap<object, JsonSchema | undefined>();

/**
 * `schema` with `allOf` folded and the first branch of every choice taken: the same each time for
 * the same schema object (a schema belongs to one document), so it is resolved once, not per write.
 */
function firstBranchSchema(schema: JsonSchema | undefined, document: unknown): JsonSchema | undefined {
  if (typeof schema !== 'object') return resolvedSchema(schema, { pick: () => 0, document });
  if (!resolvedOnce.has(schema)) resolvedOnce.set(schema, resolvedSchema(schema, { pick: () => 0, document }));
  return resolvedOnce.get(schema);
}

/** One property's value made to fit its schema: nested objects fitted in turn, misfits sampled. */
function fittedValue(value: unknown, schema: JsonSchema | undefined, document: unknown, depth: number): unknown {
  if (fits(value, schema)) return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fitted = fittedItem(value as Item, schema, [], document, depth);
    if (fits(fitted, schema)) return fitted;
  }
  return sampleOf(schema, { document });
}
