import pluralize from 'pluralize';
import type { LoadedDocument } from './load.js';
import { valueAt } from './json-pointer.js';
import type { JsonSchema } from './openapi-types.js';
import { jsonMediaType, type Operation } from './operations.js';
import { bodyPropertyOf, linksOf, linksTo, type ResourceLink } from './resource-links.js';
import {
  filtersOf,
  limitOf,
  listShapeOf,
  type FilterParameter,
  type LimitParameter,
  type ListShape,
  type ResolvedParameter,
} from './resource-list.js';
import { exampleItems } from './resource-examples.js';
import { rangeFiltersOf, type RangeFilter } from './range-filters.js';
import { objectShape, typesOf } from './schema-shape.js';

export type { FilterParameter, LimitParameter, RangeFilter, ResourceLink };

/** What an operation does to its resource. */
export type ResourceRole = 'list' | 'create' | 'read' | 'replace' | 'update' | 'delete';

/** How identifiers look: sequential integers, UUIDs, or other strings. */
export type IdKind = 'integer' | 'uuid' | 'string';

/** The property that names an item, and who chooses its value. */
export interface ResourceKey {
  property: string;
  kind: IdKind;
  /**
   * `server`: the create body does not declare it, the server assigns it; `client`: the body
   * requires it (or it is a natural key like `username`); `either`: the body may carry it, the
   * server assigns it when it does not.
   */
  assignedBy: 'server' | 'client' | 'either';
}

/** One list operation of a resource (the collection's `GET`, or a finder such as `GET /pet/findByStatus`). */
export interface ResourceList extends ListShape {
  operation: Operation;
  limit: LimitParameter | undefined;
  filters: FilterParameter[];
  /** Parameters that bound a property from below or above (`startDate`, `min_price`). */
  ranges: RangeFilter[];
}

/** A collection inferred from the document: its paths, operations by role, key and item schema. */
export interface Resource {
  /** The collection path: `/pets`, `/store/orders`, `/users/{userId}/posts`. */
  path: string;
  /** The item path (`/pets/{petId}`), when the document has one. */
  itemPath: string | undefined;
  /** The path parameter naming one item (`petId`). */
  itemParameter: string | undefined;
  /** Path parameters of the collection path: a sub-resource's parent keys (`userId`). */
  parentParameters: string[];
  key: ResourceKey | undefined;
  /** Dereferenced schema of one item (from the read, list or create response, else the create body). */
  itemSchema: JsonSchema | undefined;
  /** Operations by role; `list` is the collection's own `GET` (finders are only in `lists`). */
  operations: Partial<Record<ResourceRole, Operation>>;
  /** The list operations, the collection's own first. */
  lists: ResourceList[];
  /** Items the document shows in its examples (list, read and create responses), key first. */
  examples: Record<string, unknown>[];
  /** Links documented on this resource's responses. */
  links: ResourceLink[];
  /** kennel keeps state for it: it can be created into and its items have a key. */
  stateful: boolean;
}

/** An operation's place in the model. */
export interface ResourceBinding {
  resource: Resource;
  role: ResourceRole;
  /** For `list`: which list. */
  list?: ResourceList;
}

export interface ResourceModel {
  resources: Resource[];
  /** The resource and role of an operation, or undefined when the model does not explain it. */
  bindingOf(operation: Operation): ResourceBinding | undefined;
}

const ITEM_PATH = /^(.*)\/\{([^}/]+)\}$/;

/** Dereferenced schema at `pointer`. */
export function schemaAt(document: LoadedDocument, pointer: string | undefined): JsonSchema | undefined {
  return pointer === undefined ? undefined : (valueAt(document.dereferenced, pointer) as JsonSchema | undefined);
}

/** Dereferenced JSON schema of the first documented 2xx response. */
export function successSchemaOf(document: LoadedDocument, operation: Operation): JsonSchema | undefined {
  const response = operation.responses.find((candidate) => /^2\d\d$/.test(candidate.status));
  return schemaAt(document, response && jsonMediaType(response.content)?.schema?.pointer);
}

/** Dereferenced JSON request body schema. */
export function bodySchemaOf(document: LoadedDocument, operation: Operation): JsonSchema | undefined {
  const media = operation.requestBody && jsonMediaType(operation.requestBody.content);
  return schemaAt(document, media?.schema?.pointer);
}

/** An object schema, or a oneOf/anyOf whose every branch is one (a body with variants, such as DNS records by type). */
function isObject(schema: JsonSchema | undefined): boolean {
  if (typesOf(schema).includes('object') || (typeof schema === 'object' && schema.properties !== undefined))
    return true;
  if (typeof schema !== 'object') return false;
  const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  return Array.isArray(branches) && branches.length > 0 && branches.every(isObject);
}

function resolvedParameters(document: LoadedDocument, operation: Operation): ResolvedParameter[] {
  return operation.parameters.map((parameter) => ({
    ...parameter,
    resolved: schemaAt(document, parameter.schema?.pointer),
  }));
}

function listOf(document: LoadedDocument, operation: Operation): ResourceList | undefined {
  if (operation.method !== 'get') return undefined;
  const shape = listShapeOf(successSchemaOf(document, operation));
  if (!shape) return undefined;
  const parameters = resolvedParameters(document, operation);
  return {
    ...shape,
    operation,
    limit: limitOf(parameters),
    filters: filtersOf(parameters, shape.items),
    ranges: rangeFiltersOf(parameters, shape.items),
  };
}

/** A list that cannot be read without a query parameter other than its limit (`GET /trips?from=…&to=…`). */
function isSearch(list: ResourceList): boolean {
  return list.operation.parameters.some(
    (parameter) => parameter.in === 'query' && parameter.required && parameter.name !== list.limit?.name,
  );
}

interface Draft {
  path: string;
  itemPath?: string;
  itemParameter?: string;
  operations: Partial<Record<ResourceRole, Operation>>;
  lists: ResourceList[];
}

/** Sorts the operations of the document into collections by path and method. */
function drafts(document: LoadedDocument): Map<string, Draft> {
  const byPath = new Map<string, Draft>();
  const draft = (path: string): Draft => {
    let entry = byPath.get(path);
    if (!entry) byPath.set(path, (entry = { path, operations: {}, lists: [] }));
    return entry;
  };
  for (const operation of document.operations) {
    const item = ITEM_PATH.exec(operation.path);
    if (item) {
      const entry = draft(item[1] || '/');
      if (entry.itemPath !== undefined && entry.itemPath !== operation.path) continue;
      entry.itemPath = operation.path;
      entry.itemParameter = item[2];
      const role = itemRole(document, operation);
      if (role) entry.operations[role] ??= operation;
      continue;
    }
    const list = listOf(document, operation);
    if (list) {
      const entry = draft(operation.path);
      // A search (a list that needs a query) shows a part of the collection, as a finder does: never its `list`.
      if (!isSearch(list)) entry.operations.list ??= operation;
      entry.lists.push(list);
    } else if (operation.method === 'post' && isObject(bodySchemaOf(document, operation))) {
      draft(operation.path).operations.create ??= operation;
    }
  }
  return byPath;
}

function itemRole(document: LoadedDocument, operation: Operation): ResourceRole | undefined {
  switch (operation.method) {
    case 'get':
      return isObject(successSchemaOf(document, operation)) ? 'read' : undefined;
    case 'put':
      return isObject(bodySchemaOf(document, operation)) ? 'replace' : undefined;
    case 'patch':
      return isObject(bodySchemaOf(document, operation)) ? 'update' : undefined;
    case 'delete':
      return 'delete';
    default:
      return undefined;
  }
}

function itemSchemaOf(document: LoadedDocument, entry: Draft): JsonSchema | undefined {
  const { read, create } = entry.operations;
  if (read) return successSchemaOf(document, read);
  if (entry.lists[0]) return entry.lists[0].items;
  const created = create && successSchemaOf(document, create);
  if (isObject(created)) return created;
  return create && bodySchemaOf(document, create);
}

const isReadOnly = (schema: JsonSchema | undefined): boolean => typeof schema === 'object' && schema.readOnly === true;

function kindOf(schema: JsonSchema | undefined): IdKind {
  const types = typesOf(schema);
  if (types.includes('integer') || types.includes('number')) return 'integer';
  return typeof schema === 'object' && schema.format === 'uuid' ? 'uuid' : 'string';
}

/** The key property: named by a link, or the item parameter's namesake, or `id`, or a required `…Id` the client does not send. */
function keyPropertyOf(
  entry: Draft,
  item: JsonSchema | undefined,
  body: JsonSchema | undefined,
  links: ResourceLink[],
) {
  const { properties, required } = objectShape(item);
  const targets = Object.values(entry.operations).filter((operation) => operation.path === entry.itemPath);
  for (const link of links) {
    if (!targets.some((operation) => linksTo(link, operation))) continue;
    const expression = entry.itemParameter && link.parameters[entry.itemParameter];
    const property = expression ? bodyPropertyOf(expression) : undefined;
    if (property && property in properties) return property;
  }
  if (entry.itemParameter && entry.itemParameter in properties) return entry.itemParameter;
  if ('id' in properties) return 'id';
  const named = Object.keys(properties).find((name) => namesItsCollection(name, entry.path));
  if (named) return named;
  const sent = new Set(Object.keys(objectShape(body).properties));
  return required.find((name) => !sent.has(name) && /id$/i.test(name));
}

/**
 * `eventId` or `event_id` for `/events` (and `/special-events`): the property named after one item.
 * The collection's name is made singular by English rules (`/people` → `personId`,
 * `/categories` → `categoryId`), not by cutting an `s`.
 */
function namesItsCollection(name: string, path: string): boolean {
  const last =
    path
      .split('/')
      .filter((segment) => segment !== '' && !segment.startsWith('{'))
      .at(-1) ?? '';
  const words = last.split(/[-_]/);
  const plural = words.pop() ?? '';
  const lower = name.toLowerCase().replace(/_/g, '');
  return [pluralize.singular(plural), plural.replace(/s$/, '')].some((one) =>
    [[...words, one].join(''), one].some((word) => word !== '' && lower === `${word.toLowerCase()}id`),
  );
}

function keyOf(
  document: LoadedDocument,
  entry: Draft,
  item: JsonSchema | undefined,
  links: ResourceLink[],
): ResourceKey | undefined {
  const body = entry.operations.create && bodySchemaOf(document, entry.operations.create);
  const property = keyPropertyOf(entry, item, body, links);
  if (!property) return undefined;
  const bodyShape = objectShape(body);
  const read = entry.operations.read;
  const parameter = read?.parameters.find((candidate) => candidate.name === entry.itemParameter);
  const kind = kindOf(objectShape(item).properties[property] ?? schemaAt(document, parameter?.schema?.pointer));
  // A natural key (a user name) is the client's to choose; ids are the server's unless the body requires them.
  const natural = kind === 'string' && !/id$/i.test(property) && property in bodyShape.properties;
  const clientChosen = bodyShape.required.includes(property) || natural;
  const declared = property in bodyShape.properties && !isReadOnly(bodyShape.properties[property]);
  return { property, kind, assignedBy: clientChosen ? 'client' : declared ? 'either' : 'server' };
}

/** Finders: `GET /pet/findByStatus` lists the items of `/pet` (the same item schema, one static segment below). */
function attachFinders(byPath: Map<string, Draft>, schemas: Map<Draft, JsonSchema>): void {
  for (const [path, entry] of byPath) {
    const parent = byPath.get(path.replace(/\/[^/{}]+$/, '') || '/');
    const list = entry.lists[0];
    if (!parent || parent === entry || !list || entry.itemPath || entry.operations.create) continue;
    if (schemas.get(parent) !== list.items) continue;
    // A finder is one more list of the parent's items, never its `list`: it shows a filtered part of them.
    parent.lists.push(...entry.lists);
    byPath.delete(path);
  }
}

function resourceOf(document: LoadedDocument, entry: Draft, item: JsonSchema | undefined): Resource {
  const operations = [...new Set([...Object.values(entry.operations), ...entry.lists.map((list) => list.operation)])];
  const links = operations.flatMap((operation) => linksOf(document.document, operation));
  const key = keyOf(document, entry, item, links);
  const parentParameters = [...entry.path.matchAll(/\{([^}/]+)\}/g)].map((match) => match[1]!);
  return {
    path: entry.path,
    itemPath: entry.itemPath,
    itemParameter: entry.itemParameter,
    parentParameters,
    key,
    itemSchema: item,
    operations: entry.operations,
    lists: entry.lists,
    examples: key ? exampleItems(document, entry.operations, entry.lists, key.property) : [],
    links,
    stateful: entry.operations.create !== undefined && key !== undefined && isObject(item),
  };
}

/** Infers the resources of a document from its paths, methods and schemas (see docs/resource-model.md). */
export function inferResources(document: LoadedDocument): ResourceModel {
  const byPath = drafts(document);
  const schemas = new Map<Draft, JsonSchema>();
  for (const entry of byPath.values()) {
    const schema = itemSchemaOf(document, entry);
    if (schema !== undefined) schemas.set(entry, schema);
  }
  attachFinders(byPath, schemas);
  const resources = [...byPath.values()]
    .filter((entry) => Object.keys(entry.operations).length > 0)
    .map((entry) => resourceOf(document, entry, schemas.get(entry)));
  const bindings = new Map<string, ResourceBinding>();
  for (const resource of resources) {
    for (const [role, operation] of Object.entries(resource.operations) as [ResourceRole, Operation][])
      if (role !== 'list') bindings.set(operation.id, { resource, role });
    for (const list of resource.lists) bindings.set(list.operation.id, { resource, role: 'list', list });
  }
  return { resources, bindingOf: (operation) => bindings.get(operation.id) };
}
