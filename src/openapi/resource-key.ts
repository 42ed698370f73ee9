import { bodySchemaOf, schemaAt } from './document-schemas.js';
import { unwrappedItem } from './item-wrapper.js';
import type { LoadedDocument } from './load.js';
import { itemNames, squashed } from './naming.js';
import type { JsonSchema } from './openapi-types.js';
import type { Operation } from './operations.js';
import { bodyPropertyOf, linksTo, type ResourceLink } from './resource-links.js';
import type { IdKind, ResourceKey, ResourceRole } from './resource-types.js';
import { objectShape, sharedShape, typesOf } from './schema-shape.js';

/** What the key of a collection is inferred from: its paths and operations by role. */
export interface KeyedDraft {
  path: string;
  itemPath?: string;
  itemParameter?: string;
  operations: Partial<Record<ResourceRole, Operation>>;
}

const isReadOnly = (schema: JsonSchema | undefined): boolean => typeof schema === 'object' && schema.readOnly === true;

function kindOf(schema: JsonSchema | undefined): IdKind {
  const types = typesOf(schema);
  if (types.includes('integer') || types.includes('number')) return 'integer';
  return typeof schema === 'object' && schema.format === 'uuid' ? 'uuid' : 'string';
}

/** The key property: named by a link, or the item parameter's namesake, or `id`, or a required `…Id` the client does not send. */
function keyPropertyOf(
  entry: KeyedDraft,
  item: JsonSchema | undefined,
  body: JsonSchema | undefined,
  links: ResourceLink[],
) {
  const { properties, required } = sharedShape(item);
  const targets = Object.values(entry.operations).filter((operation) => operation.path === entry.itemPath);
  for (const link of links) {
    if (!targets.some((operation) => linksTo(link, operation))) continue;
    const expression = entry.itemParameter && link.parameters[entry.itemParameter];
    const property = expression ? bodyPropertyOf(expression) : undefined;
    if (property && property in properties) return property;
  }
  if (entry.itemParameter && entry.itemParameter in properties) return entry.itemParameter;
  const spelled = entry.itemParameter && parameterNamesProperty(entry.itemParameter, entry.path, properties);
  if (spelled) return spelled;
  if ('id' in properties) return 'id';
  const named = Object.keys(properties).find((name) => namesItsCollection(name, entry.path));
  if (named) return named;
  const sent = new Set(Object.keys(objectShape(body).properties));
  return required.find((name) => !sent.has(name) && /id$/i.test(name));
}

/**
 * The property an item parameter spells otherwise: `user_name` for `userName`, or the part after
 * the item's noun (`slug` for `{ownerSlug}` of `/owners`, `code` for `{country_code}`).
 */
function parameterNamesProperty(
  parameter: string,
  path: string,
  properties: Record<string, JsonSchema>,
): string | undefined {
  const plain = squashed(parameter);
  const names = Object.keys(properties);
  const same = names.find((name) => squashed(name) === plain);
  if (same) return same;
  for (const noun of itemNames(path, true)) {
    const rest = plain.startsWith(noun) ? plain.slice(noun.length) : '';
    const named = rest === '' ? undefined : names.find((name) => squashed(name) === rest);
    if (named) return named;
  }
  return undefined;
}

/** `eventId` or `event_id` for `/events` (and `/special-events`): the property named after one item. */
function namesItsCollection(name: string, path: string): boolean {
  const plain = squashed(name);
  return itemNames(path, true).some((noun) => plain === `${noun}id`);
}

/** The key of a collection's items: which property, of what kind, chosen by whom. */
export function keyOf(
  document: LoadedDocument,
  entry: KeyedDraft,
  item: JsonSchema | undefined,
  links: ResourceLink[],
): ResourceKey | undefined {
  const body = entry.operations.create && unwrappedItem(bodySchemaOf(document, entry.operations.create), entry.path);
  const property = keyPropertyOf(entry, item, body, links);
  if (!property) return undefined;
  const bodyShape = sharedShape(body);
  const read = entry.operations.read;
  const itemOperation = read ?? Object.values(entry.operations).find((operation) => operation.path === entry.itemPath);
  const parameter = itemOperation?.parameters.find((candidate) => candidate.name === entry.itemParameter);
  const inPath = kindOf(schemaAt(document, parameter?.schema?.pointer));
  const typed = sharedShape(item).properties[property];
  // A string key the item path types as a uuid is a uuid: keys the mock makes must route.
  const kind = typed === undefined ? inPath : kindOf(typed) === 'string' && inPath === 'uuid' ? 'uuid' : kindOf(typed);
  // A natural key (a user name) is the client's to choose; ids are the server's unless the body requires them.
  const natural = kind === 'string' && !/id$/i.test(property) && property in bodyShape.properties;
  // `required` beside readOnly holds for responses only (OpenAPI 3.0): a readOnly key is never the client's.
  const readOnly = property in bodyShape.properties && isReadOnly(bodyShape.properties[property]);
  const clientChosen = !readOnly && (bodyShape.required.includes(property) || natural);
  const declared = property in bodyShape.properties && !readOnly;
  return { property, kind, assignedBy: clientChosen ? 'client' : declared ? 'either' : 'server' };
}
