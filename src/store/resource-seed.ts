import { Random } from '../core/random.js';
import { randomUuid, validObject } from '../openapi/generate.js';
import { fittedItem } from '../openapi/item-fit.js';
import { keyShapeOf } from '../openapi/key-shape.js';
import type { Resource } from '../openapi/resource-model.js';
import { objectShape } from '../openapi/schema-shape.js';
import { fits } from '../openapi/value-fits.js';
import { withRealisticText } from './realistic-text.js';
import { fakerFor } from './seed.js';

/** How many items a collection starts with when its document shows fewer examples. */
export const GENERATED_SEED_COUNT = 3;
/** The most examples taken as seeded items. */
const MAX_EXAMPLE_ITEMS = 20;

/** Text that varies a generated key by index (`order-2`). */
function singular(path: string): string {
  const last =
    path
      .split('/')
      .filter((segment) => segment !== '' && !segment.startsWith('{'))
      .at(-1) ?? 'item';
  return last.replace(/s$/, '') || 'item';
}

/** `order-4`, where the key's schema takes it; else `4` (a key of digits, `^[1-9][0-9]*$`). */
function readableKey(resource: Resource, serial: number): string {
  const readable = `${singular(resource.path)}-${serial}`;
  const schema = objectShape(resource.itemSchema).properties[resource.key!.property];
  return fits(readable, schema) ? readable : String(serial);
}

/**
 * The items a collection of any document starts with, the same for the same seed: the document's
 * own examples first (list, read, then create responses), then (unless it is a read-only
 * collection whose document shows examples) items generated from the item schema until there are GENERATED_SEED_COUNT (free text as a person would write it: realistic-text.ts),
 * each under a fresh key (integers after the highest
 * example key, UUIDs, or `order-4`-style strings).
 */
export function seedFromDocument(resource: Resource, seed: number, document?: unknown): Record<string, unknown>[] {
  const key = resource.key;
  if (!key) return [];
  // Examples often leave out required fields or break a pattern: seeded items are made to fit.
  const items = resource.examples
    .slice(0, MAX_EXAMPLE_ITEMS)
    .map((example) => fittedItem(example, resource.itemSchema, [key.property]));
  const random = new Random(seed);
  // Keys that fit the document (a pattern, a uuid item parameter) where plain ones would not.
  const shape = keyShapeOf(resource, document, seed);
  const faker = fakerFor(seed);
  const taken = new Set(items.map((item) => String(item[key.property])));
  // A collection clients only read holds what its document shows, when it shows something.
  const count = resource.operations.create === undefined && items.length > 0 ? items.length : GENERATED_SEED_COUNT;
  let next = items
    .map((item) => Number(item[key.property]))
    .filter(Number.isSafeInteger)
    .reduce((a, b) => Math.max(a, b), 0);
  for (let index = items.length; index < count; index += 1) {
    const generated = withRealisticText(
      validObject(resource.itemSchema, { random, tag: 'kennel', index, direction: 'response' }, 'all'),
      resource.itemSchema,
      faker,
    );
    next += 1;
    let id: unknown = shape.storeKeysFit
      ? key.kind === 'integer'
        ? next
        : key.kind === 'uuid'
          ? randomUuid(random)
          : readableKey(resource, next)
      : (shape.make(-next) ?? next);
    while (taken.has(String(id))) id = key.kind === 'uuid' ? randomUuid(random) : `${String(id)}-${index}`;
    taken.add(String(id));
    const { [key.property]: _dropped, ...rest } = generated;
    items.push(fittedItem({ [key.property]: id, ...rest }, resource.itemSchema, [key.property]));
  }
  return items;
}
