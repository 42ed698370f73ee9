import { isMetadataName } from './list-envelope.js';
import { itemNames, squashed } from './naming.js';
import type { JsonSchema } from './openapi-types.js';
import { isObjectSchema, objectShape } from './schema-shape.js';

/** Names a wrapper gives the one item it holds, besides the resource's own name (squashed). */
const WRAPPER_NAMES = new Set(['data', 'item', 'result', 'resource', 'object', 'entity', 'record', 'value']);

/** Properties an item wrapper may hold beside the item (JSON:API's `included`, `jsonapi`; HAL's `_embedded`). */
const WRAPPER_EXTRAS = new Set(['included', 'jsonapi', 'embedded', 'errors', 'warnings', 'status', 'success']);

/** An item inside a wrapper object: the property holding it and its dereferenced schema. */
export interface ItemWrapper {
  property: string;
  item: JsonSchema;
}

function isExtra(name: string): boolean {
  return isMetadataName(name) || WRAPPER_EXTRAS.has(squashed(name).replace(/^_+/, ''));
}

/**
 * The wrapper of a single item (`{"data": {...}}`, `{"ssh_key": {...}}` for `/ssh_keys`): an
 * object whose one object property is named `data`, `item`, `result`… or after one item of the
 * collection, beside which stand only metadata (`links`, `meta`, `included`) and nothing
 * required. An object with anything else (an `id`, a `name`) is the item itself.
 */
export function itemWrapperOf(schema: JsonSchema | undefined, collectionPath: string): ItemWrapper | undefined {
  if (!isObjectSchema(schema)) return undefined;
  const { properties, required } = objectShape(schema);
  const names = new Set([...WRAPPER_NAMES, ...itemNames(collectionPath, true)]);
  const holders = Object.entries(properties).filter(
    ([name, property]) => names.has(squashed(name)) && isObjectSchema(property) && !isExtra(name),
  );
  if (holders.length !== 1) return undefined;
  const [property, item] = holders[0]!;
  const others = Object.keys(properties).filter((name) => name !== property);
  if (!others.every(isExtra)) return undefined;
  if (others.some((name) => required.includes(name) && !isMetadataName(name))) return undefined;
  return { property, item };
}

/** The item a (possibly wrapped) schema describes: the wrapper's content, else the schema itself. */
export function unwrappedItem(schema: JsonSchema | undefined, collectionPath: string): JsonSchema | undefined {
  return itemWrapperOf(schema, collectionPath)?.item ?? schema;
}
