import { itemNames, squashed } from './naming.js';
import type { JsonSchema } from './openapi-types.js';
import { isObjectSchema, objectShape, objectVariants, typesOf } from './schema-shape.js';

/** A property beside a list's items in its envelope (`links`, `meta`, `total`). */
export interface EnvelopeProperty {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** Where a list response keeps its items: the body itself, or one array property of an envelope object. */
export interface ListShape {
  /** Dereferenced schema of one item. */
  items: JsonSchema;
  /** `data` for `{"data": [...], "links": {...}}`; undefined when the body is the array. */
  wrapper: string | undefined;
  /** `maxItems` of the documented array, if any. */
  maxItems: number | undefined;
  /** The envelope's other properties, in schema order (none for a bare array). */
  siblings: EnvelopeProperty[];
}

/** Names an envelope gives its items (squashed: `data`, `items`, `results`…). */
const ITEMS_NAMES = new Set([
  'data',
  'items',
  'results',
  'result',
  'records',
  'entries',
  'elements',
  'values',
  'content',
  'contents',
  'list',
  'rows',
  'hits',
  'objects',
  'resources',
  'collection',
]);

/** Names of envelope metadata (squashed): paging links, cursors and counts a client reads beside the items. */
const METADATA_NAMES = new Set([
  'links',
  'link',
  'meta',
  'metadata',
  'pagination',
  'paging',
  'pageinfo',
  'page',
  'cursor',
  'cursors',
  'next',
  'nexturl',
  'nextlink',
  'nextcursor',
  'nextpagetoken',
  'nexttoken',
  'nextpage',
  'prev',
  'previous',
  'self',
  'first',
  'last',
  'total',
  'totalcount',
  'totalitems',
  'totalresults',
  'totalpages',
  'count',
  'hasmore',
  'hasnext',
  'hasnextpage',
  'limit',
  'offset',
  'perpage',
  'pagesize',
  'object',
  'url',
  'type',
  'kind',
]);

/** True when a squashed name is envelope metadata (`links`, `meta`, `next_cursor`, `total_count`). */
export function isMetadataName(name: string): boolean {
  const plain = squashed(name);
  return METADATA_NAMES.has(plain) || METADATA_NAMES.has(plain.replace(/^_+/, ''));
}

/**
 * An array whose items are objects, variants included (a menu of beverages and desserts: a
 * oneOf/anyOf of object shapes, keyed by what every variant declares), with where it sits.
 */
function arrayShape(schema: JsonSchema | undefined, wrapper: string | undefined): ListShape | undefined {
  if (typeof schema !== 'object' || !typesOf(schema).includes('array')) return undefined;
  const items = schema.items as JsonSchema | undefined;
  if (!isObjectSchema(items) && !objectVariants(items)) return undefined;
  return {
    items: items!,
    wrapper,
    maxItems: typeof schema.maxItems === 'number' ? schema.maxItems : undefined,
    siblings: [],
  };
}

/** The array property that holds the items: the only array of objects, else the one named like a list. */
function itemsProperty(arrays: readonly ListShape[], listNames: ReadonlySet<string>): ListShape | undefined {
  if (arrays.length === 1) return arrays[0];
  const named = arrays.filter((shape) => listNames.has(squashed(shape.wrapper!)));
  return named.length === 1 ? named[0] : undefined;
}

/**
 * The list a success schema describes: an array of objects, or an envelope object with one
 * array-of-objects property (`{"data": [...], "links": {...}}`; several arrays: the one named
 * `data`, `items`, `results` or after the collection). Required properties beside the items are
 * fine when the items' name says list or every one of them is metadata (`links`, `meta`,
 * `total`): an object with other required fields is an item holding an array, not a list.
 */
export function listShapeOf(schema: JsonSchema | undefined, collectionPath = ''): ListShape | undefined {
  const direct = arrayShape(schema, undefined);
  if (direct) return direct;
  if (!isObjectSchema(schema)) return undefined;
  const { properties, required } = objectShape(schema);
  const arrays = Object.entries(properties).flatMap(([name, property]) => {
    const shape = arrayShape(property, name);
    return shape ? [shape] : [];
  });
  const listNames = new Set([...ITEMS_NAMES, ...itemNames(collectionPath)]);
  const chosen = itemsProperty(arrays, listNames);
  if (!chosen) return undefined;
  const wrapper = chosen.wrapper!;
  const others = required.filter((name) => name !== wrapper);
  if (!listNames.has(squashed(wrapper)) && !others.every(isMetadataName)) return undefined;
  const siblings = Object.entries(properties)
    .filter(([name]) => name !== wrapper)
    .map(([name, property]) => ({ name, required: required.includes(name), schema: property }));
  return { ...chosen, siblings };
}
