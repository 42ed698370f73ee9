import type { LoadedDocument } from './load.js';
import {
  bodySchemaOf,
  isObjectBody,
  isObjectList,
  resolvedParameters,
  schemaAt,
  successSchemaOf,
} from './document-schemas.js';
import { itemWrapperOf, unwrappedItem } from './item-wrapper.js';
import type { JsonSchema } from './openapi-types.js';
import { typesOf } from './schema-shape.js';
import { SUFFIXED_ITEM_PATH } from './naming.js';
import type { Operation } from './operations.js';
import { paginationOf, type Pagination } from './pagination.js';
import { linksOf, type ResourceLink } from './resource-links.js';
import {
  filtersOf,
  limitOf,
  listShapeOf,
  nestedFiltersOf,
  type FilterParameter,
  type NestedFilter,
  type LimitParameter,
} from './resource-list.js';
import { exampleItems } from './resource-examples.js';
import { keyOf } from './resource-key.js';

import { rangeFiltersOf, type RangeFilter } from './range-filters.js';

export type { FilterParameter, LimitParameter, NestedFilter, Pagination, RangeFilter, ResourceLink };
export { bodySchemaOf, schemaAt, successSchemaOf };

export type {
  ResourceRole,
  IdKind,
  ResourceKey,
  ResourceList,
  Resource,
  ResourceBinding,
  ItemWrappers,
  ResourceModel,
} from './resource-types.js';
import type {
  ResourceRole,
  ResourceList,
  Resource,
  ResourceBinding,
  ItemWrappers,
  ResourceModel,
} from './resource-types.js';

/** `/notes/{id}`, or `/notes/{id}/` as Django and FastAPI write it. */
const ITEM_PATH = /^(.*)\/\{([^}/]+)\}(\/?)$/;

/**
 * The collection an item path belongs to and the item's parameter: `/notes/{id}` → `/notes`, and
 * `/notes/{id}.json` → `/notes.json` where the document has that path (Rails' format suffixes).
 */
function itemPathParts(
  operation: Operation,
  paths: ReadonlySet<string>,
): { collection: string; parameter: string } | undefined {
  const plain = ITEM_PATH.exec(operation.path);
  if (plain) return { collection: collectionPath(plain[1]!, plain[3] === '/', paths), parameter: plain[2]! };
  const suffixed = SUFFIXED_ITEM_PATH.exec(operation.path);
  if (suffixed && paths.has(suffixed[1]! + suffixed[3]!))
    return { collection: suffixed[1]! + suffixed[3]!, parameter: suffixed[2]! };
  return undefined;
}

/**
 * The collection of an item path's base (`/notes` of `/notes/{id}`): the base with or without a
 * trailing slash, whichever the document has (`/notes/` beside `/notes/{id}`, `/notes/` beside
 * `/notes/{id}/`), the item's own spelling first; the base itself when it has neither.
 */
function collectionPath(base: string, slashed: boolean, paths: ReadonlySet<string>): string {
  if (base === '') return '/';
  const spellings = slashed ? [`${base}/`, base] : [base, `${base}/`];
  return spellings.find((spelling) => paths.has(spelling)) ?? base;
}

function listOf(document: LoadedDocument, operation: Operation): ResourceList | undefined {
  if (operation.method !== 'get') return undefined;
  const shape = listShapeOf(successSchemaOf(document, operation), operation.path);
  if (!shape) return undefined;
  const parameters = resolvedParameters(document, operation);
  return {
    ...shape,
    operation,
    limit: limitOf(parameters),
    filters: filtersOf(parameters, shape.items),
    pagination: paginationOf(shape, parameters, operation.responses),
    ranges: rangeFiltersOf(parameters, shape.items),
    nestedFilters: nestedFiltersOf(parameters, shape.items),
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
  const paths = new Set(document.operations.map((operation) => operation.path));
  for (const operation of document.operations) {
    const item = itemPathParts(operation, paths);
    if (item) {
      const entry = draft(item.collection);
      if (entry.itemPath !== undefined && entry.itemPath !== operation.path) continue;
      entry.itemPath = operation.path;
      entry.itemParameter = item.parameter;
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
    } else if (
      operation.method === 'post' &&
      isObjectBody(bodySchemaOf(document, operation)) &&
      answersItem(document, operation) &&
      !answersAsItsList(document, operation)
    ) {
      draft(operation.path).operations.create ??= operation;
    }
  }
  for (const operation of document.operations) attachItemMaker(document, byPath, operation, paths);
  return byPath;
}

/**
 * `POST /sites/{id}/dev_servers` without a body, or `POST /env` with a list of items, answered by
 * what it made: the create of a collection that has a list, as real APIs start a dev server or
 * add variables in bulk. Only where the path lists items: elsewhere such a POST is an action.
 */
function attachItemMaker(
  document: LoadedDocument,
  byPath: Map<string, Draft>,
  operation: Operation,
  paths: ReadonlySet<string>,
): void {
  if (operation.method !== 'post' || itemPathParts(operation, paths)) return;
  const entry = byPath.get(operation.path);
  if (!entry || entry.operations.create || entry.lists.length === 0) return;
  const body = bodySchemaOf(document, operation);
  const bodyMakes = operation.requestBody === undefined || isObjectList(body);
  const answer = successSchemaOf(document, operation);
  if (bodyMakes && (isObjectBody(answer) || isObjectList(answer))) entry.operations.create = operation;
}

/**
 * `POST /animal/search` with a form of criteria, answered with the very list `GET /animal/search`
 * answers: a search by body, not a create (it makes nothing, so nothing it answers is kept).
 */
function answersAsItsList(document: LoadedDocument, operation: Operation): boolean {
  const answer = successSchemaOf(document, operation);
  if (answer === undefined) return false;
  return document.operations.some(
    (other) =>
      other.method === 'get' &&
      other.path === operation.path &&
      successSchemaOf(document, other) === answer &&
      listOf(document, other) !== undefined,
  );
}

/** A POST answered by an item, a list of items or nothing typed: a create; one answered `"ok"` is an action. */
function answersItem(document: LoadedDocument, operation: Operation): boolean {
  const answer = successSchemaOf(document, operation);
  return typesOf(answer).length === 0 || isObjectBody(answer) || isObjectList(answer);
}

function itemRole(document: LoadedDocument, operation: Operation): ResourceRole | undefined {
  switch (operation.method) {
    case 'get':
      return isObjectBody(successSchemaOf(document, operation)) ? 'read' : undefined;
    case 'put':
      return isObjectBody(bodySchemaOf(document, operation)) ? 'replace' : undefined;
    case 'patch':
      return isObjectBody(bodySchemaOf(document, operation)) ? 'update' : undefined;
    case 'post':
      return updatesByPost(document, operation) ? 'update' : undefined;
    case 'delete':
      return 'delete';
    default:
      return undefined;
  }
}

/**
 * `POST /RateLimits/{sid}` with an object body, answered by the item itself: an update, as APIs
 * that take forms (and many others) spell it, unless the path has a PATCH to be the update.
 */
function updatesByPost(document: LoadedDocument, operation: Operation): boolean {
  if (!isObjectBody(bodySchemaOf(document, operation)) || !isObjectBody(successSchemaOf(document, operation)))
    return false;
  return !document.operations.some((other) => other.path === operation.path && other.method === 'patch');
}

function itemSchemaOf(document: LoadedDocument, entry: Draft): JsonSchema | undefined {
  const { read, create } = entry.operations;
  if (read) return unwrappedItem(successSchemaOf(document, read), entry.path);
  if (entry.lists[0]) return entry.lists[0].items;
  const created = create && unwrappedItem(successSchemaOf(document, create), entry.path);
  if (isObjectBody(created)) return created;
  return create && unwrappedItem(bodySchemaOf(document, create), entry.path);
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

/**
 * A collection clients only read (a list and a read by key, no create), top-level or under a
 * parent: kept from its seeds, so that the list and the reads agree and an unknown key is a 404.
 */
function readOnly(entry: Draft): boolean {
  return entry.operations.list !== undefined && entry.operations.read !== undefined;
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
    examples: key ? exampleItems(entry.operations, entry.lists, key.property) : [],
    links,
    stateful: key !== undefined && isObjectBody(item) && (entry.operations.create !== undefined || readOnly(entry)),
  };
}

/** Where an item operation wraps its item: in the request body (create, replace, update) and in its success response. */
function wrappersOf(
  document: LoadedDocument,
  resource: Resource,
  role: ResourceRole,
  operation: Operation,
): ItemWrappers {
  const wrappers: ItemWrappers = {};
  const response = itemWrapperOf(successSchemaOf(document, operation), resource.path);
  if (response) wrappers.response = response.property;
  if (role === 'create' || role === 'replace' || role === 'update') {
    const request = itemWrapperOf(bodySchemaOf(document, operation), resource.path);
    if (request) wrappers.request = request.property;
  }
  return wrappers;
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
    .filter((entry) => Object.keys(entry.operations).length > 0 || entry.lists.length > 0)
    .map((entry) => resourceOf(document, entry, schemas.get(entry)));
  const bindings = new Map<string, ResourceBinding>();
  for (const resource of resources) {
    for (const [role, operation] of Object.entries(resource.operations) as [ResourceRole, Operation][])
      if (role !== 'list')
        bindings.set(operation.id, { resource, role, wrappers: wrappersOf(document, resource, role, operation) });
    for (const list of resource.lists) bindings.set(list.operation.id, { resource, role: 'list', list, wrappers: {} });
  }
  return { resources, bindingOf: (operation) => bindings.get(operation.id) };
}
