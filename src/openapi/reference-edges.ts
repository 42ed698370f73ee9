import { stringifyJson } from '../core/json.js';
import { tokensOf } from './json-pointer.js';
import type { LoadedDocument } from './load.js';
import type { Operation } from './operations.js';
import { linksOf, linksTo, type ResourceLink } from './resource-links.js';
import type { Resource, ResourceModel } from './resource-model.js';
import { endsWithIdWord, fitsKey, nounOf, plainlyKey, ResourceNames, type ReferenceTarget } from './reference-names.js';
import { requestSlots, type RequestSlot } from './request-slots.js';
import { wordsOf } from './naming.js';
import { objectShape } from './schema-shape.js';

/** Which rule tied a request slot to the resource property that feeds it, in the order they are tried. */
export type ReferenceRule = 'link' | 'path' | 'type' | 'name' | 'example' | 'description' | 'format';

/** A request slot filled by values of a resource's property (`trip_id` ← a trip's `id`). */
export interface ReferenceEdge {
  operationId: string;
  slot: RequestSlot;
  /** The collection path of the resource whose values feed the slot (`/trips`). */
  resource: string;
  property: string;
  rule: ReferenceRule;
  /** Only the slot's format pointed here (one resource has keys of that format): a last resort. */
  guessed: boolean;
}

/** The reference edges of a document, by consuming operation. */
export interface ReferenceEdges {
  edges: ReferenceEdge[];
  /** The edges of one operation's request, in slot order. */
  of(operation: Operation): ReferenceEdge[];
}

/**
 * `/owners/{ownerId}/pets/{petId}`, `ownerId` → `/owners`: the collection a path parameter names a
 * member of; `/owners/` where that is how the document spells the collection (Django, FastAPI).
 */
export function collectionNamedBy(
  template: string,
  name: string,
  collections?: { has(path: string): boolean },
): string | undefined {
  const at = template.indexOf(`/{${name}}`);
  if (at < 0) return undefined;
  const base = template.slice(0, at) || '/';
  return collections && !collections.has(base) && collections.has(`${base}/`) ? `${base}/` : base;
}

interface Context {
  document: LoadedDocument;
  model: ResourceModel;
  names: ResourceNames;
  byPath: Map<string, Resource>;
  linked: Map<string, ReferenceTarget>;
  exampleKeys: Map<string, ReferenceTarget[]>;
}

/** `$response.body#/data/0/id` of a list → `id`: the item property a link expression reads, past envelopes and wrappers. */
function linkedProperty(model: ResourceModel, source: Operation, expression: string): ReferenceTarget | undefined {
  const match = /^\$response\.body#(\/.*)$/.exec(expression);
  const binding = model.bindingOf(source);
  if (!match || !binding?.resource.key) return undefined;
  let tokens = tokensOf(match[1]!);
  const wrapper = binding.role === 'list' ? binding.list?.wrapper : binding.wrappers.response;
  if (wrapper !== undefined && tokens[0] === wrapper) tokens = tokens.slice(1);
  if (binding.role === 'list' && /^\d+$/.test(tokens[0] ?? '')) tokens = tokens.slice(1);
  if (tokens.length !== 1) return undefined;
  const property = tokens[0]!;
  return property in objectShape(binding.resource.itemSchema).properties
    ? { resource: binding.resource, property }
    : undefined;
}

/** Slot key (`operationId in name`) → the target every OpenAPI link into that slot reads from. */
function linkTargets(document: LoadedDocument, model: ResourceModel): Map<string, ReferenceTarget> {
  const targets = new Map<string, ReferenceTarget>();
  const links: ResourceLink[] = document.operations.flatMap((operation) => linksOf(document.document, operation));
  for (const link of links) {
    const source = document.operations.find((operation) => operation.id === link.from);
    const target = document.operations.find((operation) => linksTo(link, operation));
    if (!source || !target) continue;
    for (const [key, expression] of Object.entries(link.parameters)) {
      const qualified = /^(path|query|header|cookie)\.(.+)$/.exec(key);
      const name = qualified ? qualified[2]! : key;
      const parameter = target.parameters.find(
        (item) => item.name === name && (!qualified || item.in === qualified[1]),
      );
      const found = parameter && linkedProperty(model, source, expression);
      if (found) targets.set(`${target.id} ${parameter.in} ${parameter.name}`, found);
    }
  }
  return targets;
}

/** Documented key values (examples of items and of the key property) → the resources they belong to. */
function exampleKeysOf(resources: readonly Resource[]): Map<string, ReferenceTarget[]> {
  const keys = new Map<string, ReferenceTarget[]>();
  const add = (value: unknown, target: ReferenceTarget) => {
    if (value === undefined || value === null || typeof value === 'object') return;
    const text = stringifyJson(value);
    const list = keys.get(text) ?? [];
    if (!list.some((other) => other.resource === target.resource)) list.push(target);
    keys.set(text, list);
  };
  for (const resource of resources) {
    if (!resource.key) continue;
    const target = { resource, property: resource.key.property };
    for (const item of resource.examples) add(item[resource.key.property], target);
    const schema = objectShape(resource.itemSchema).properties[resource.key.property];
    if (typeof schema === 'object') add(schema.example, target);
  }
  return keys;
}

function pathTarget(context: Context, operation: Operation, slot: RequestSlot): ReferenceTarget | undefined {
  if (slot.in !== 'path') return undefined;
  const collection = collectionNamedBy(operation.path, slot.name, context.byPath);
  const resource = collection === undefined ? undefined : context.byPath.get(collection);
  return resource?.key ? { resource, property: resource.key.property } : undefined;
}

/**
 * The resource a resource identifier names by its `type` (`{"type": "patients", "id": ...}`, as
 * JSON:API relationships write them): its `id` holds that resource's key.
 */
function typedTarget(context: Context, slot: RequestSlot): ReferenceTarget | undefined {
  if (slot.in !== 'body' || slot.siblingType === undefined || !endsWithIdWord(slot.word)) return undefined;
  if (wordsOf(slot.word).length !== 1) return undefined;
  const resource = context.names.named(wordsOf(slot.siblingType));
  return resource && fitsKey(slot.schema, resource) ? { resource, property: resource.key!.property } : undefined;
}

function exampleTarget(context: Context, slot: RequestSlot): ReferenceTarget | undefined {
  if (slot.example === undefined || slot.example === null || typeof slot.example === 'object') return undefined;
  const found = context.exampleKeys.get(stringifyJson(slot.example)) ?? [];
  return found.length === 1 ? found[0] : undefined;
}

function formatTarget(context: Context, slot: RequestSlot, own: Resource | undefined): ReferenceTarget | undefined {
  const format = typeof slot.schema === 'object' ? slot.schema.format : undefined;
  if (format !== 'uuid' || !endsWithIdWord(slot.word)) return undefined;
  const candidates = context.model.resources.filter(
    (resource) => resource !== own && resource.key?.kind === 'uuid' && resource.lists.length > 0,
  );
  return candidates.length === 1 ? { resource: candidates[0]!, property: candidates[0]!.key!.property } : undefined;
}

/** Slots that choose among listed values or shape a list (an enum, `limit`, `page`) never hold a reference. */
function isReferenceCandidate(context: Context, operation: Operation, slot: RequestSlot): boolean {
  if (typeof slot.schema === 'object' && (Array.isArray(slot.schema.enum) || 'const' in slot.schema)) return false;
  const list = context.model.bindingOf(operation)?.list;
  if (!list || slot.in !== 'query') return true;
  return slot.name !== list.limit?.name && slot.name !== list.pagination.parameter?.name;
}

/**
 * The resource a slot's description names after an id word, when the slot can hold its key: a
 * parameter (`origin`: "Identifier of the stop the coach leaves from"), or a body property
 * named like an id or typed like the key (a bare `options` array is not "the IDs of polls").
 */
function describedTarget(
  names: ResourceNames,
  slot: RequestSlot,
  described: Resource | undefined,
): ReferenceTarget | undefined {
  if (!described || !fitsKey(slot.schema, described)) return undefined;
  if (slot.in === 'body' && !endsWithIdWord(slot.word) && !plainlyKey(slot.schema, described)) return undefined;
  // `role_id` described as "the role of the project" names a role, whatever the words after it say.
  const noun = nounOf(slot.word);
  if (noun.length > 0 && names.named(noun) !== described) return undefined;
  return { resource: described, property: described.key!.property };
}

/** The first rule that ties `slot` to a resource property, or undefined. */
function edgeOf(context: Context, operation: Operation, slot: RequestSlot): ReferenceEdge | undefined {
  if (!isReferenceCandidate(context, operation, slot)) return undefined;
  const own = context.model.bindingOf(operation)?.resource;
  const described = context.names.byDescription(slot.description);
  const rules: [ReferenceRule, () => ReferenceTarget | undefined][] = [
    ['link', () => context.linked.get(`${operation.id} ${slot.in} ${slot.name}`)],
    ['path', () => pathTarget(context, operation, slot)],
    ['type', () => typedTarget(context, slot)],
    ['name', () => context.names.byName(slot.word, slot.schema)],
    ['example', () => exampleTarget(context, slot)],
    ['description', () => describedTarget(context.names, slot, described)],
    ['format', () => formatTarget(context, slot, own)],
  ];
  for (const [rule, find] of rules) {
    const target = find();
    if (!target) continue;
    // A body naming its own resource's key (`id` in a create) is the item's identity, not a reference.
    if (slot.in === 'body' && target.resource === own) return undefined;
    const { resource, property } = target;
    return { operationId: operation.id, slot, resource: resource.path, property, rule, guessed: rule === 'format' };
  }
  return undefined;
}

/**
 * Which resource property feeds each request slot of the document, by rules in order: OpenAPI
 * links; the path (`/owners/{ownerId}/pets` → an owner's key); the `type` beside an `id`
 * (`{"type": "patients", "id": ...}` → a patient's key); the slot's name (`trip_id`,
 * `origin_station_id`, `tripId`, `trip`) against collection names and component schema names;
 * its documented example equal to a documented key; its description ("The ID of the origin
 * station"); last, a uuid slot named like an id when one resource alone has uuid keys (guessed).
 */
export function inferReferences(document: LoadedDocument, model: ResourceModel): ReferenceEdges {
  const context: Context = {
    document,
    model,
    names: new ResourceNames(document, model.resources),
    byPath: new Map(model.resources.map((resource) => [resource.path, resource])),
    linked: linkTargets(document, model),
    exampleKeys: exampleKeysOf(model.resources),
  };
  const byOperation = new Map<string, ReferenceEdge[]>();
  for (const operation of document.operations) {
    const edges = requestSlots(document, operation).flatMap((slot) => edgeOf(context, operation, slot) ?? []);
    byOperation.set(operation.id, edges);
  }
  return {
    edges: [...byOperation.values()].flat(),
    of: (operation) => byOperation.get(operation.id) ?? [],
  };
}

/**
 * Statuses a document gives a request naming something that does not exist, in the order a
 * server that checks references picks one: 422 (the body is understood but names nothing), 404,
 * then 409.
 */
const DANGLING_STATUSES = ['422', '404', '409'] as const;

/** The status the document gives `operation` for a body naming nothing (422, else 404, else 409), if any. */
export function danglingReferenceStatus(operation: Operation): number | undefined {
  const documented = new Set(operation.responses.map((response) => response.status));
  const status = DANGLING_STATUSES.find((candidate) => documented.has(candidate));
  return status === undefined ? undefined : Number(status);
}

/** `/shelf_id` → `shelf_id`, `/tag_ids/*` → `tag_ids` (and whether it is an array); undefined for a nested slot. */
export function topLevelProperty(slot: RequestSlot): { property: string; array: boolean } | undefined {
  const match = /^\/([^/]+)(\/\*)?$/.exec(slot.name);
  if (slot.in !== 'body' || !match) return undefined;
  return { property: match[1]!.replaceAll('~1', '/').replaceAll('~0', '~'), array: match[2] !== undefined };
}

/**
 * The properties leading to a body slot (`/data/relationships/patient/data/id` → `data`,
 * `relationships`, `patient`, `data`, `id`), when no array lies on the way (an array of
 * references may end it); undefined for a parameter.
 */
export function slotPath(slot: RequestSlot): { path: string[]; array: boolean } | undefined {
  const match = /^((?:\/[^/]+)+?)(\/\*)?$/.exec(slot.name);
  if (slot.in !== 'body' || !match || match[1]!.split('/').includes('*')) return undefined;
  return { path: tokensOf(match[1]!), array: match[2] !== undefined };
}

/**
 * The body references an operation is held to when its document gives a status for a body naming
 * nothing: a top-level property (or an array of them), or a resource identifier at any depth
 * (`{"type": "patients", "id": …}`, the `type` rule), tied by a rule other than the format alone
 * to the key of a top-level stateful resource, which the mock keeps and can look up. The mock
 * refuses such a reference to nothing with that status; the checker calls accepting one an error.
 */
export function enforcedReferences(
  model: ResourceModel,
  operation: Operation,
  edges: readonly ReferenceEdge[],
): ReferenceEdge[] {
  if (danglingReferenceStatus(operation) === undefined) return [];
  const byPath = new Map(model.resources.map((resource) => [resource.path, resource]));
  return edges.filter((edge) => {
    const resource = byPath.get(edge.resource);
    return (
      !edge.guessed &&
      (topLevelProperty(edge.slot) !== undefined || (edge.rule === 'type' && slotPath(edge.slot) !== undefined)) &&
      resource?.stateful === true &&
      resource.parentParameters.length === 0 &&
      resource.key?.property === edge.property
    );
  });
}
