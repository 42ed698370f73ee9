import type { JsonSchema } from './openapi-types.js';
import type { Operation } from './operations.js';
import type { Pagination } from './pagination.js';
import type { ResourceLink } from './resource-links.js';
import type { FilterParameter, LimitParameter, ListShape, NestedFilter } from './resource-list.js';
import type { RangeFilter } from './range-filters.js';

// The resource model's types, apart from the inference (resource-model.ts) so that its helpers
// (resource-key.ts, resource-examples.ts) can name them without an import cycle.

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
  /** How a client gets the next page (a link, a cursor, a page number), and the envelope's paging fields. */
  pagination: Pagination;
  /** Parameters that bound a property from below or above (`startDate`, `min_price`). */
  ranges: RangeFilter[];
  /** String parameters matching a field of an object property (`city` for `address.city`). */
  nestedFilters: NestedFilter[];
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
  /** Wrappers of the single item (`{"data": {...}}`), in the request body and the success response. */
  wrappers: ItemWrappers;
}

/** The property a single item is wrapped in, per direction (undefined: the item is the body itself). */
export interface ItemWrappers {
  request?: string;
  response?: string;
}

export interface ResourceModel {
  resources: Resource[];
  /** The resource and role of an operation, or undefined when the model does not explain it. */
  bindingOf(operation: Operation): ResourceBinding | undefined;
}
