import { stringifyJson } from '../../core/json.js';
import { fittedItem } from '../../openapi/item-fit.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { sampleOf } from '../../openapi/generate.js';
import { objectShape, primaryType } from '../../openapi/schema-shape.js';
import type { StoredRecord } from '../../store/tenant-collection.js';

type Item = Record<string, unknown>;

/** Writes a stored item as a response schema wants it, as JSON text. */
export type ItemView = (stored: StoredRecord) => string;

/**
 * The item as `schema` describes it (openapi/item-fit.ts): only its declared properties (every
 * property when it declares none), a value that does not fit its property replaced and missing
 * required ones filled with the schema's sample, the key first.
 */
export function projectItem(
  value: Readonly<Item>,
  schema: JsonSchema | undefined,
  keyProperty?: string,
  document?: unknown,
): Item {
  return fittedItem(value, schema, keyProperty === undefined ? [] : [keyProperty], document);
}

/**
 * How an operation's response shows a stored item: its cached text when the response schema is
 * the item schema itself (the usual case, and the fast path of lists), else a projection.
 */
export function itemView(
  responseSchema: JsonSchema | undefined,
  itemSchema: JsonSchema | undefined,
  document?: unknown,
): ItemView {
  if (responseSchema === undefined || responseSchema === itemSchema) return (stored) => stored.json;
  // A write answered with a list (`POST /members` → the members): the item, as the list's one entry.
  if (typeof responseSchema === 'object' && primaryType(responseSchema) === 'array') {
    const items = responseSchema.items as JsonSchema | undefined;
    return (stored) => stringifyJson([projectItem(stored.value, items, undefined, document)]);
  }
  return (stored) => stringifyJson(projectItem(stored.value, responseSchema, undefined, document));
}

/** A list body: the items' text joined into an array, inside its envelope (`{"data": […], "links": {…}}`) when it has one. */
export function listJson(
  items: readonly StoredRecord[],
  view: ItemView,
  wrapper: string | undefined,
  siblings = {},
): string {
  const array = `[${items.map(view).join(',')}]`;
  if (wrapper === undefined) return array;
  const rest = stringifyJson(siblings).slice(1, -1);
  return `{${JSON.stringify(wrapper)}:${array}${rest === '' ? '' : `,${rest}`}}`;
}

/**
 * A view that puts the item in its wrapper (`{"data": {…}}`), with sample values for any other
 * required property of the wrapper.
 */
export function wrappedView(view: ItemView, wrapper: string, schema: JsonSchema | undefined): ItemView {
  const { properties, required } = objectShape(schema);
  const extras = required.filter((name) => name !== wrapper).map((name) => [name, sampleOf(properties[name])]);
  const rest = extras.length === 0 ? '' : `,${stringifyJson(Object.fromEntries(extras)).slice(1, -1)}`;
  const head = `{${JSON.stringify(wrapper)}:`;
  return (stored) => `${head}${view(stored)}${rest}}`;
}
