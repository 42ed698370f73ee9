import type { LoadedDocument } from '../../openapi/load.js';
import { valueAt } from '../../openapi/json-pointer.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import {
  jsonMediaType,
  type Operation,
  type OperationParameter,
  type OperationResponse,
} from '../../openapi/operations.js';
import { dependencyOrder } from '../../openapi/dependency-order.js';
import { isObjectBody } from '../../openapi/document-schemas.js';
import { inferReferences, type ReferenceEdges } from '../../openapi/reference-edges.js';
import {
  inferResources,
  type FilterParameter,
  type LimitParameter,
  type Pagination,
  type RangeFilter,
  type Resource,
  type ResourceBinding,
  type ResourceList,
  type ResourceModel,
  type ResourceRole,
} from '../../openapi/resource-model.js';
import { innerBody, type BodyWrapper } from './body-wrapper.js';
import { itemWrapperOf } from '../../openapi/item-wrapper.js';
import { objectShape, typesOf } from '../../openapi/schema-shape.js';
import { validatorsFor } from '../../openapi/shared-validators.js';
import type { SchemaValidators } from '../../openapi/validators.js';
import { buildableMediaType } from './media-bodies.js';

/** A parameter with its schema dereferenced, for generating values. */
export interface PlannedParameter extends OperationParameter {
  resolved: JsonSchema | undefined;
}

export type { FilterParameter, LimitParameter, Pagination, RangeFilter };

/** What an operation does to its collection (from the resource model), or `other`. */
export type Role = ResourceRole | 'other';

/** The planned operations of one collection, by role. */
export type CollectionOperations = Partial<Record<ResourceRole, PlannedOperation>>;

/** An operation with everything the checks need, derived from the document once. */
export interface PlannedOperation {
  operation: Operation;
  id: string;
  role: Role;
  /** The collection path (`/pets`) of an operation the resource model explains. */
  collection: string | undefined;
  /** The inferred resource it acts on (its key, item schema, links), when it has a role. */
  resource: Resource | undefined;
  /** A create that documents the created item (an object) in its success response. */
  returnsItem: boolean;
  safe: boolean;
  parameters: PlannedParameter[];
  /**
   * Dereferenced JSON body schema and its pointer, when the operation takes a JSON body. For a
   * body that wraps the item (`{"booking": {...}}`) these are the item's: checks make and probe
   * items, and the request builder puts them in the `wrapper`.
   */
  body: { pointer: string; schema: JsonSchema; required: boolean; wrapper?: BodyWrapper } | undefined;
  /** A body in another media type kennel can write (a form, text), when the operation takes no JSON body. */
  mediaBody: { mediaType: string; schema: JsonSchema | undefined; required: boolean } | undefined;
  /** Documented 2xx statuses as numbers. */
  successStatuses: number[];
  /** Documented validation statuses (400, 422): the answer the spec gives for invalid input. */
  validationStatuses: number[];
  /** The key property of the collection's items (`id`, `username`): the model's key. */
  idProperty: string | undefined;
  limit: LimitParameter | undefined;
  filters: FilterParameter[];
  /** For a list: the model's list (its envelope and pagination). */
  list: ResourceList | undefined;
  /** Where the success response keeps what a client reads: a list's items property, a single item's wrapper. */
  payload: { items?: string; item?: string };
  /** The resource whose items the success response shows (its own, or the one its schema is the item of). */
  produces: Resource | undefined;
  /** A list's parameters that bound a property from below or above (`startDate`, `min_price`). */
  ranges: RangeFilter[];
  /** A list's free-text filters: any string, matched against an item field (`venue_id`, `address.city`). */
  textFilters: TextFilter[];
  deprecated: boolean;
  requiresAuth: boolean;
}

export interface CheckPlan {
  document: LoadedDocument;
  validators: SchemaValidators;
  operations: PlannedOperation[];
  /** Every operation of the document, selected or not (targets of links, read-backs). */
  all: PlannedOperation[];
  /** Schema pointer of the error body (the one most 4xx responses document), if any. */
  errorSchema: string | undefined;
  /** The document's resource model, shared with the mock. */
  model: ResourceModel;
  /** The operations of a collection path by role: list, create, read, replace, update, delete. */
  collection(path: string): CollectionOperations;
  /** Which resource property feeds each request slot (`trip_id` ← a trip's `id`). */
  references: ReferenceEdges;
  /** Every operation, producers before consumers (the order of discovery). */
  order: PlannedOperation[];
  /** The resource whose item schema is `schema` (what an unbound operation such as an action returns). */
  resourceOfItem(schema: JsonSchema | undefined): Resource | undefined;
}

function resolved(document: LoadedDocument, pointer: string | undefined): JsonSchema | undefined {
  return pointer === undefined ? undefined : (valueAt(document.dereferenced, pointer) as JsonSchema | undefined);
}

function successSchema(document: LoadedDocument, operation: Operation): JsonSchema | undefined {
  const response = operation.responses.find((candidate) => /^2\d\d$/.test(candidate.status));
  const media = response && jsonMediaType(response.content);
  return resolved(document, media?.schema?.pointer);
}

/** The checker's role for a model binding: the model's (lists in an envelope included). */
/**
 * The role the checks judge an operation in. A create or write whose body is not one JSON object
 * (a form, a list of items, none) is a resource to the mock, which keeps what it makes; the checks
 * that write bodies of their own compose one JSON object, so here it stays `other`: its answers
 * still feed the value pool, and what it made is read back through the resource's own reads.
 */
function roleOf(binding: ResourceBinding | undefined, jsonBody: JsonSchema | undefined): Role {
  if (!binding) return 'other';
  const writes = binding.role === 'create' || binding.role === 'replace' || binding.role === 'update';
  return writes && !isObjectBody(jsonBody) ? 'other' : binding.role;
}

/**
 * Filters the checks can exercise: those with values to send, each a value the document makes a
 * promise of (every enum member; of a boolean flag only `true`, since `false` may mean "either").
 */
function filtersOf(binding: ResourceBinding | undefined): FilterParameter[] {
  return (binding?.list?.filters ?? [])
    .map((filter) => (filter.type === 'boolean' ? { ...filter, values: ['true'] } : filter))
    .filter((filter) => filter.values.length > 0);
}

/** A query parameter taking any string that keeps the items whose field at `path` matches it. */
export interface TextFilter {
  name: string;
  path: string[];
}

/** String filters without an enum (`venue_id`), and those naming a field of an object property (`city`). */
function textFiltersOf(binding: ResourceBinding | undefined): TextFilter[] {
  const list = binding?.list;
  if (!list) return [];
  return [
    ...list.filters
      .filter((filter) => filter.type === 'string' && filter.values.length === 0)
      .map((filter) => ({ name: filter.name, path: [filter.property] })),
    ...list.nestedFilters.map((filter) => ({ name: filter.name, path: [...filter.path] })),
  ];
}

/** The value a filter's text stands for in a listed item (`true` for `online=true`). */
export function filterValue(filter: FilterParameter, text: string): unknown {
  return filter.type === 'boolean' ? text === 'true' : text;
}

function statusNumbers(responses: readonly OperationResponse[], test: (status: number) => boolean): number[] {
  return responses
    .map((response) => Number(response.status))
    .filter((status) => Number.isInteger(status) && test(status));
}

function planOperation(document: LoadedDocument, operation: Operation, model: ResourceModel): PlannedOperation {
  const parameters = operation.parameters.map((parameter) => ({
    ...parameter,
    resolved: resolved(document, parameter.schema?.pointer),
  }));
  const media = operation.requestBody && jsonMediaType(operation.requestBody.content);
  const bodySchema = resolved(document, media?.schema?.pointer);
  const binding = model.bindingOf(operation);
  const body =
    media?.schema && bodySchema !== undefined
      ? {
          ...innerBody(document, media.schema.pointer, bodySchema, binding?.wrappers.request),
          required: operation.requestBody!.required,
        }
      : undefined;
  const role = roleOf(binding, body && bodySchema);
  const resource = role === 'other' ? undefined : binding?.resource;
  const other = body ? undefined : operation.requestBody?.content.find((item) => buildableMediaType(item.mediaType));
  const mediaBody = other && {
    mediaType: other.mediaType,
    schema: resolved(document, other.schema?.pointer),
    required: operation.requestBody!.required,
  };
  return {
    operation,
    id: operation.id,
    role,
    collection: resource?.path,
    resource,
    returnsItem: role === 'create' && typesOf(successSchema(document, operation)).includes('object'),
    safe: operation.method === 'get' || operation.method === 'head' || operation.method === 'options',
    parameters,
    body,
    mediaBody,
    successStatuses: statusNumbers(operation.responses, (status) => status >= 200 && status < 300),
    validationStatuses: statusNumbers(operation.responses, (status) => status === 400 || status === 422),
    idProperty: resource?.key?.property,
    limit: role === 'list' ? binding?.list?.limit : undefined,
    filters: role === 'list' ? filtersOf(binding) : [],
    list: role === 'list' ? binding?.list : undefined,
    payload: binding
      ? { items: binding.list?.wrapper, item: binding.wrappers.response }
      : { item: itemWrapperOf(successSchema(document, operation), operation.path)?.property },
    produces: resource,
    ranges: role === 'list' ? (binding?.list?.ranges ?? []) : [],
    textFilters: role === 'list' ? textFiltersOf(binding) : [],
    deprecated: operation.deprecated,
    requiresAuth: requiresHttpCredentials(operation),
  };
}

/**
 * Whether every alternative security requirement asks for something an HTTP request carries. One
 * naming only undefined schemes (a dangling `sessionToken`) asks for nothing a client can send, so
 * the mock lets it pass, and so does the checker; a requirement met by mutual TLS alone is met (or
 * not) in the TLS handshake: no request over plain HTTP can show it enforced.
 */
function requiresHttpCredentials(operation: Operation): boolean {
  const { requirements, schemes } = operation.security;
  return (
    requirements.length > 0 &&
    requirements.every((requirement) =>
      Object.keys(requirement).some((name) => schemes[name] !== undefined && schemes[name].type !== 'mutualTLS'),
    )
  );
}

/** The schema pointer most 4xx responses share: the document's error body. */
function errorSchemaOf(operations: readonly Operation[]): string | undefined {
  const counts = new Map<string, number>();
  for (const operation of operations) {
    for (const response of operation.responses) {
      if (!/^4\d\d$/.test(response.status)) continue;
      const pointer = jsonMediaType(response.content)?.schema?.pointer;
      if (pointer) counts.set(pointer, (counts.get(pointer) ?? 0) + 1);
    }
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** The planned operations of each collection by role: the model's (a finder is never the `list`). */
function collectionsOf(all: readonly PlannedOperation[]): Map<string, CollectionOperations> {
  const collections = new Map<string, CollectionOperations>();
  for (const planned of all) {
    if (!planned.collection || planned.role === 'other') continue;
    if (planned.resource?.operations[planned.role] !== planned.operation) continue;
    const entry = collections.get(planned.collection) ?? {};
    entry[planned.role] = planned;
    collections.set(planned.collection, entry);
  }
  return collections;
}

/** The resource an operation the model does not bind shows (an action answering the item): by its item schema. */
function producedBy(
  document: LoadedDocument,
  planned: PlannedOperation,
  items: Map<unknown, Resource>,
): Resource | undefined {
  const schema = successSchema(document, planned.operation);
  const inner = planned.payload.item === undefined ? schema : objectShape(schema).properties[planned.payload.item];
  const element = typesOf(inner).includes('array') && typeof inner === 'object' ? inner.items : inner;
  return items.get(element);
}

/** Plans a run over `operations` of the document (all by default), on the document's resource model. */
export function buildPlan(document: LoadedDocument, select: (operation: Operation) => boolean = () => true): CheckPlan {
  const model = inferResources(document);
  const all = document.operations.map((operation) => planOperation(document, operation, model));
  const operations = all.filter((planned) => select(planned.operation));
  const collections = collectionsOf(all);
  const references = inferReferences(document, model);
  const byOperation = new Map(all.map((planned) => [planned.operation, planned]));
  const order = dependencyOrder(document.operations, model, references).map((operation) => byOperation.get(operation)!);
  const items = new Map<unknown, Resource>();
  for (const resource of model.resources) if (!items.has(resource.itemSchema)) items.set(resource.itemSchema, resource);
  for (const planned of all) planned.produces ??= producedBy(document, planned, items);
  return {
    document: document,
    validators: validatorsFor(document.document),
    operations,
    all,
    errorSchema: errorSchemaOf(document.operations),
    model,
    collection: (path) => collections.get(path) ?? {},
    references,
    order,
    resourceOfItem: (schema) => (schema === undefined ? undefined : items.get(schema)),
  };
}
