// Names of the document's collections, and the list properties that hold their keys: what a
// request body kennel builds may name (prepare) and what a refusal of it means (run/acceptance).
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { typesOf } from '../../openapi/schema-shape.js';
import type { PlannedOperation } from './plan.js';

const COLLECTION_NAMES = new WeakMap<readonly PlannedOperation[], ReadonlySet<string>>();

/** The document's collection names, lower case: the last fixed segment of each collection path. */
export function collectionNamesOf(operations: readonly PlannedOperation[]): ReadonlySet<string> {
  let names = COLLECTION_NAMES.get(operations);
  if (!names) {
    names = new Set(
      operations.flatMap((operation) =>
        (operation.collection ?? '')
          .split('/')
          .filter((segment) => segment !== '' && !segment.startsWith('{'))
          .slice(-1)
          .map((segment) => segment.toLowerCase()),
      ),
    );
    COLLECTION_NAMES.set(operations, names);
  }
  return names;
}

/**
 * A list property whose items are keys of one of the document's collections, by its name and
 * schema (`labels: {type: array, items: {type: string}}` beside `/boards/{id}/labels`): kennel
 * has no key of such an item that is sure to fit, so a body it makes holds none (`[]`).
 */
export function listsCollectionKeys(name: string, schema: JsonSchema, collections: ReadonlySet<string>): boolean {
  if (typeof schema !== 'object' || !collections.has(name.toLowerCase())) return false;
  const items = schema.items;
  return (
    typesOf(schema).includes('array') && typeof items === 'object' && typesOf(items as JsonSchema).includes('string')
  );
}
