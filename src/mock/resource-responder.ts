import { ProblemError } from '../core/problem.js';
import type { LoadedDocument } from '../openapi/load.js';
import type { JsonSchema } from '../openapi/openapi-types.js';
import { jsonMediaType, type Operation, type OperationResponse } from '../openapi/operations.js';
import { objectShape, typesOf } from '../openapi/schema-shape.js';
import {
  bodySchemaOf,
  schemaAt,
  successSchemaOf,
  type Resource,
  type ResourceBinding,
  type ResourceList,
  type ResourceModel,
} from '../openapi/resource-model.js';
import { andThen, type Collection, type MaybePromise, type Tenant } from '../store/store-types.js';
import type { Filter, FullReason, ListOrder, StoredRecord, WriteResult } from '../store/tenant-collection.js';
import type { HttpResponse } from '../http/http-response.js';
import type { RequestContext, RequestInput } from '../http/responder.js';
import { listAnswer } from './list-answer.js';
import { nestedAsked, rangesAsked, withNested, withinRanges } from './range-answers.js';
import { itemView, projectItem, wrappedView, type ItemView } from './resource-views.js';
import { keyShapeOf, type KeyShape } from '../openapi/key-shape.js';
import { singularOf } from '../openapi/naming.js';

/** Answers one operation of a stateful resource from a tenant's store. */
export type ResourceHandler = (
  input: RequestInput,
  tenant: Tenant,
  request: RequestContext,
) => MaybePromise<HttpResponse>;

export interface ResourceHandlerOptions {
  document: LoadedDocument;
  model: ResourceModel;
  listOrder: ListOrder;
  /** Seeds the keys kennel draws where the store's own do not fit the document (key-shape.ts). */
  seed?: number;
}

/** Drawn keys tried before a create gives up on finding a free one (they rarely collide). */
const KEY_DRAWS = 8;

type Item = Record<string, unknown>;

/** The documented success of an operation: 201 for creates when documented, else the first 2xx. */
function successOf(operation: Operation, preferred?: number): OperationResponse | undefined {
  const successes = operation.responses.filter((response) => /^2\d\d$/.test(response.status));
  return successes.find((response) => response.status === String(preferred)) ?? successes[0];
}

interface Answer {
  status: number;
  view: ItemView | undefined;
  location: boolean;
  /** The answer is a list of the items made (`POST /env` with a list of variables). */
  many: boolean;
}

function answerOf(
  document: LoadedDocument,
  binding: ResourceBinding,
  operation: Operation,
  preferred?: number,
): Answer {
  const { resource, wrappers } = binding;
  const response = successOf(operation, preferred);
  const status = response ? Number(response.status) : (preferred ?? 200);
  const pointer = response && jsonMediaType(response.content)?.schema?.pointer;
  const schema = pointer === undefined ? undefined : schemaAt(document, pointer);
  const wrapper = wrappers.response;
  const many = typeof schema === 'object' && typesOf(schema).includes('array');
  const inner = many
    ? (schema.items as JsonSchema)
    : wrapper === undefined
      ? schema
      : objectShape(schema).properties[wrapper];
  const plain = pointer === undefined ? undefined : itemView(inner, resource.itemSchema, document.dereferenced);
  const view = plain && wrapper !== undefined && !many ? wrappedView(plain, wrapper, schema) : plain;
  const location =
    !many && resource.itemPath !== undefined && (status === 201 || response?.headers.has('location') === true);
  return { status, view, location, many };
}

function nouns(resource: Resource): { one: string; many: string } {
  const many =
    resource.path
      .split('/')
      .filter((segment) => segment !== '' && !segment.startsWith('{'))
      .at(-1) ?? 'items';
  return { one: singularOf(many) || 'item', many };
}

const FULL_MESSAGES: Record<FullReason, (limit: number, many: string) => string> = {
  items: (limit, many) => `This store holds its maximum of ${limit} ${many}`,
  'store-bytes': (limit, many) => `This store's ${many} take its maximum of ${formatBytes(limit)} of memory`,
  'total-bytes': (limit, many) => `The ${many} of all stores take kennel's maximum of ${formatBytes(limit)} of memory`,
};

function storeFull(reason: FullReason, limit: number, many: string): ProblemError {
  return new ProblemError(
    507,
    'store_full',
    `${FULL_MESSAGES[reason](limit, many)}; reset it with POST /__kennel/reset`,
  );
}

function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}

const isItem = (value: unknown): value is Item => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The item a request body carries, as an object: the body itself, or what it wraps
 * (`{"booking": {…}}`); an optional body left out (or not an object) is an empty one.
 */
function bodyOf(binding: ResourceBinding): (input: RequestInput) => Item {
  const wrapper = binding.wrappers.request;
  return (input) => {
    const value = input.body.value;
    const item = wrapper === undefined || !isItem(value) ? value : value[wrapper];
    return isItem(item) ? item : {};
  };
}

/** Binds the roles of one resource to a tenant's collections. */
class ResourceHandlers {
  readonly #resource: Resource;
  readonly #document: LoadedDocument;
  readonly #order: ListOrder;
  readonly #key: string;
  readonly #nouns: { one: string; many: string };
  readonly #shape: KeyShape;
  /** Properties the create body declares and the item schema does not. */
  readonly #sentOnly: string[];
  /**
   * The same where the item schema is closed (`additionalProperties: false`): not stored, but
   * the create's own answer shows them as sent where its schema declares them.
   */
  readonly #answeredOnly: string[];
  #serial = 0;

  constructor(resource: Resource, options: ResourceHandlerOptions) {
    this.#resource = resource;
    this.#document = options.document;
    this.#order = options.listOrder;
    this.#key = resource.key!.property;
    this.#nouns = nouns(resource);
    this.#shape = keyShapeOf(resource, options.document.dereferenced, options.seed ?? 1);
    const create = resource.operations.create;
    const declared = objectShape(resource.itemSchema).properties;
    const item = resource.itemSchema;
    const closed =
      typeof item === 'object' && (item.additionalProperties === false || item.unevaluatedProperties === false);
    const undeclared = Object.keys(objectShape(create && bodySchemaOf(options.document, create)).properties).filter(
      (name) => !(name in declared),
    );
    this.#sentOnly = closed ? [] : undeclared;
    this.#answeredOnly = closed ? undeclared : [];
  }

  handlerFor(binding: ResourceBinding, operation: Operation): ResourceHandler | undefined {
    switch (binding.role) {
      case 'list':
        return this.#list(binding.list!, operation);
      case 'create':
        return this.#create(binding, operation);
      case 'read':
        return this.#read(binding, operation);
      case 'replace':
      case 'update':
        return this.#write(binding, operation, binding.role);
      case 'delete':
        return this.#delete(binding, operation);
    }
  }

  #collection(input: RequestInput, tenant: Tenant): Collection {
    const { parentParameters, path } = this.#resource;
    if (parentParameters.length === 0) return tenant.collection(path);
    return tenant.collection(path, parentParameters.map((name) => String(input.path[name])).join('\u0000'));
  }

  #list(list: ResourceList, operation: Operation): ResourceHandler {
    const status = Number(successOf(operation)?.status ?? 200);
    const view = itemView(list.items, this.#resource.itemSchema, this.#document.dereferenced);
    const answer = listAnswer(list, view, this.#document.basePath);
    return (input, tenant, request) => {
      const filters: Filter[] = [];
      for (const filter of list.filters) {
        const value = input.query[filter.name];
        if (value !== undefined) filters.push([filter.property, value]);
      }
      const ranges = rangesAsked(list, input);
      const nested = nestedAsked(list, input);
      // Ranges and nested fields are judged here, on every matching item, before the page is cut.
      const whole = ranges.length > 0 || nested.length > 0;
      const fetch = whole ? Infinity : answer.fetchCount(input, request);
      return andThen(this.#collection(input, tenant).list(fetch, filters, this.#order), (found) => ({
        status,
        ...answer.respond(whole ? withNested(withinRanges(found, ranges), nested) : found, input, request),
      }));
    };
  }

  #create(binding: ResourceBinding, operation: Operation): ResourceHandler {
    const answer = answerOf(this.#document, binding, operation, 201);
    const unwrap = bodyOf(binding);
    return (input, tenant) => {
      if (!answer.many) {
        const body = unwrap(input);
        return andThen(this.#createOne(input, tenant, body), (stored) =>
          this.#answer(answer, this.#withAnsweredOnly(stored, body), input),
        );
      }
      // A list of items sent makes one each, in order; no body (or one item) makes one.
      const value = input.body.value;
      const bodies = Array.isArray(value) ? value.filter(isItem) : [unwrap(input)];
      const made: StoredRecord[] = [];
      const next = (index: number): MaybePromise<HttpResponse> => {
        if (index === bodies.length) return this.#answerMany(answer, made);
        return andThen(this.#createOne(input, tenant, bodies[index]!), (stored) => {
          made.push(this.#withAnsweredOnly(stored, bodies[index]!));
          return next(index + 1);
        });
      };
      return next(0);
    };
  }

  /** Stores one item made from `body`, its key the client's, the store's or a drawn one. */
  #createOne(input: RequestInput, tenant: Tenant, body: Item): MaybePromise<StoredRecord> {
    const { assignedBy } = this.#resource.key!;
    // A key the client must choose (a user name) is a conflict when taken; one it may choose
    // names the item to store, replacing the one there (as the Swagger Petstore does).
    const onTaken = assignedBy === 'client' ? 'conflict' : 'replace';
    const sent = assignedBy === 'server' ? undefined : body[this.#key];
    const attempt = (draw: number): MaybePromise<StoredRecord> => {
      // Where the store's 1, 2, 3… would not fit the document (`^ord_…`, a uuid parameter), kennel names the item.
      const drawn = sent === undefined && !this.#shape.storeKeysFit ? this.#shape.make(++this.#serial) : undefined;
      const draft = {
        sent: sent ?? drawn,
        onTaken: drawn === undefined ? onTaken : 'conflict',
        build: (key: unknown) => this.#record(key, body),
      } as const;
      return andThen(this.#collection(input, tenant).create(draft), (result) => {
        if (result.ok) return result.stored;
        if (result.reason === 'taken' && drawn !== undefined && draw < KEY_DRAWS) return attempt(draw + 1);
        if (result.reason === 'taken')
          throw new ProblemError(
            409,
            'conflict',
            `A ${this.#nouns.one} with ${this.#key} ${String(sent ?? drawn)} exists already`,
          );
        throw storeFull(result.reason, result.limit, this.#nouns.many);
      });
    };
    return attempt(0);
  }

  #read(binding: ResourceBinding, operation: Operation): ResourceHandler {
    const answer = answerOf(this.#document, binding, operation);
    return (input, tenant) => andThen(this.#find(input, tenant), (found) => this.#answer(answer, found, input));
  }

  #write(binding: ResourceBinding, operation: Operation, role: 'replace' | 'update'): ResourceHandler {
    const answer = { ...answerOf(this.#document, binding, operation), location: false };
    const unwrap = bodyOf(binding);
    return (input, tenant) =>
      andThen(this.#find(input, tenant), (old) => {
        const body = unwrap(input);
        const merged = role === 'update' ? { ...old.value, ...body } : body;
        const value = this.#record(old.value[this.#key], merged);
        return andThen(this.#collection(input, tenant).replace(old.key, value), (result) => {
          // Gone between the read and the write (another request or replica deleted it).
          if (!result) throw this.#notFound(old.key);
          return this.#written(answer, result, input);
        });
      });
  }

  #delete(binding: ResourceBinding, operation: Operation): ResourceHandler {
    const answer = { ...answerOf(this.#document, binding, operation), location: false };
    return (input, tenant) => {
      const key = String(input.path[this.#resource.itemParameter!]);
      return andThen(this.#collection(input, tenant).remove(key), (old) => {
        if (!old) throw this.#notFound(key);
        return this.#answer(answer, old, input);
      });
    };
  }

  /**
   * An action on one item (`POST /emails/{id}/cancel`) documented to answer the item itself
   * (its success schema is the item schema): it answers the item its path names, as stored.
   */
  actionAnsweredByItem(operation: Operation, parameter: string): ResourceHandler | undefined {
    const response = successOf(operation);
    if (!response || successSchemaOf(this.#document, operation) !== this.#resource.itemSchema) return undefined;
    const binding: ResourceBinding = { resource: this.#resource, role: 'read', wrappers: {} };
    const answer = { ...answerOf(this.#document, binding, operation), location: false };
    return (input, tenant) =>
      andThen(this.#collection(input, tenant).get(String(input.path[parameter])), (found) => {
        if (!found) throw this.#notFound(String(input.path[parameter]));
        return this.#answer(answer, found, input);
      });
  }

  /** Throws the 404 when the item the path parameter `parameter` names is not in the tenant's store. */
  requireItem(input: RequestInput, tenant: Tenant, parameter: string): MaybePromise<void> {
    const key = String(input.path[parameter]);
    return andThen(this.#collection(input, tenant).get(key), (found) => {
      if (!found) throw this.#notFound(key);
    });
  }

  #find(input: RequestInput, tenant: Tenant): MaybePromise<StoredRecord> {
    const key = String(input.path[this.#resource.itemParameter!]);
    return andThen(this.#collection(input, tenant).get(key), (found) => {
      if (!found) throw this.#notFound(key);
      return found;
    });
  }

  #notFound(key: string): ProblemError {
    return new ProblemError(404, 'not_found', `No ${this.#nouns.one} with ${this.#key} ${key}`);
  }

  #written(answer: Answer, result: WriteResult, input: RequestInput): HttpResponse {
    if (!result.ok) throw storeFull(result.reason, result.limit, this.#nouns.many);
    return this.#answer(answer, result.stored, input);
  }

  /**
   * The stored form of an item: its key first, then what the item schema declares of `body` (made
   * to fit it), and what only the create body declares, as sent: a read may show less than a
   * create sends (`GET /sessions/{id}` without the amount), and the create's answer still shows it.
   */
  #record(key: unknown, body: Item): Item {
    const item = projectItem(
      { ...body, [this.#key]: key },
      this.#resource.itemSchema,
      this.#key,
      this.#document.dereferenced,
    );
    for (const name of this.#sentOnly) if (body[name] !== undefined && !(name in item)) item[name] = body[name];
    return item;
  }

  /** The stored item with what only the create body declares, as sent (the answer's view projects it). */
  #withAnsweredOnly(stored: StoredRecord, body: Item): StoredRecord {
    const extras = this.#answeredOnly.filter((name) => body[name] !== undefined && !(name in stored.value));
    if (extras.length === 0) return stored;
    return { ...stored, value: { ...Object.fromEntries(extras.map((name) => [name, body[name]])), ...stored.value } };
  }

  #answer(answer: Answer, stored: StoredRecord, input: RequestInput): HttpResponse {
    const response: HttpResponse = { status: answer.status };
    if (answer.view) response.json = answer.view(stored);
    if (answer.location) response.headers = { Location: this.#location(stored, input) };
    return response;
  }

  #answerMany(answer: Answer, made: readonly StoredRecord[]): HttpResponse {
    const view = answer.view;
    // Each view is the item's JSON text already: the list is their concatenation.
    return view ? { status: answer.status, json: `[${made.map(view).join(',')}]` } : { status: answer.status };
  }

  #location(stored: StoredRecord, input: RequestInput): string {
    const { itemPath, itemParameter } = this.#resource;
    const path = itemPath!.replace(/\{([^}/]+)\}/g, (_whole, name: string) =>
      encodeURIComponent(name === itemParameter ? stored.key : String(input.path[name])),
    );
    return `${this.#document.basePath}${path}`;
  }
}

/** Checks, before an operation is answered, that the item its path acts on exists (a 404 when not). */
export type ItemGuard = (input: RequestInput, tenant: Tenant) => MaybePromise<void>;

/**
 * Guards by operation id for the operations on one item of a stateful resource that are not its
 * own roles: an action (`POST /orders/{id}/payment`), a GET of something of the item's
 * (`/tickets/{id}/qr`). Where such an operation documents 404, an item that does not exist (never
 * made, or deleted) gets it, as `kennel check` expects; lists under an item are left as they are.
 */
export function itemGuards(options: ResourceHandlerOptions): Map<string, ItemGuard> {
  const guards = new Map<string, ItemGuard>();
  const stateful = options.model.resources.filter((resource) => resource.stateful);
  for (const operation of options.document.operations) {
    if (!operation.responses.some((response) => response.status === '404')) continue;
    const binding = options.model.bindingOf(operation);
    if (binding?.role === 'list' || (binding && binding.resource.itemPath === operation.path)) continue;
    for (const resource of stateful) {
      const parameter = itemParameterOf(resource.path, operation.path);
      if (parameter === undefined) continue;
      const handlers = new ResourceHandlers(resource, options);
      guards.set(operation.id, (input, tenant) => handlers.requireItem(input, tenant, parameter));
      break;
    }
  }
  return guards;
}

/** `ticketId` for `/tickets` and `/tickets/{ticketId}/qr`: the item the path acts on, no other template after it. */
function itemParameterOf(collection: string, path: string): string | undefined {
  if (!path.startsWith(`${collection}/{`)) return undefined;
  return /^\{([^}/]+)\}\/[^{}]+$/.exec(path.slice(collection.length + 1))?.[1];
}

/** Handlers by operation id for every operation the model binds to a stateful resource. */
export function resourceHandlers(options: ResourceHandlerOptions): Map<string, ResourceHandler> {
  const handlers = new Map<string, ResourceHandler>();
  const perResource = new Map<Resource, ResourceHandlers>();
  for (const operation of options.document.operations) {
    const binding = options.model.bindingOf(operation);
    if (!binding?.resource.stateful) continue;
    let bound = perResource.get(binding.resource);
    if (!bound) perResource.set(binding.resource, (bound = new ResourceHandlers(binding.resource, options)));
    const handler = bound.handlerFor(binding, operation);
    if (handler) handlers.set(operation.id, handler);
  }
  for (const operation of options.document.operations) {
    if (handlers.has(operation.id) || options.model.bindingOf(operation)) continue;
    for (const resource of options.model.resources.filter((candidate) => candidate.stateful)) {
      const parameter = itemParameterOf(resource.path, operation.path);
      if (parameter === undefined) continue;
      let bound = perResource.get(resource);
      if (!bound) perResource.set(resource, (bound = new ResourceHandlers(resource, options)));
      const handler = bound.actionAnsweredByItem(operation, parameter);
      if (handler) handlers.set(operation.id, handler);
      break;
    }
  }
  return handlers;
}
