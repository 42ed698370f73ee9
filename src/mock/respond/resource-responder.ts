import { ProblemError } from '../../core/problem.js';
import type { LoadedDocument } from '../../openapi/load.js';
import type { Operation } from '../../openapi/operations.js';
import { mergedInto, mergesMembers } from '../../openapi/member-merge.js';
import { objectShape } from '../../openapi/schema-shape.js';
import {
  bodySchemaOf,
  type Resource,
  type ResourceBinding,
  type ResourceList,
  type ResourceModel,
} from '../../openapi/resource-model.js';
import { andThen, type Collection, type MaybePromise, type Tenant } from '../../store/store-types.js';
import type { Filter, ListOrder, StoredRecord, WriteResult } from '../../store/tenant-collection.js';
import type { HttpResponse } from '../../http/http-response.js';
import type { RequestContext, RequestInput } from '../../http/responder.js';
import { listAnswer } from './list-answer.js';
import { parentMembersOf, withParents, type ParentMember } from './parent-members.js';
import { requiredHeadersOf, withRequiredHeaders } from './required-headers.js';
import { answerOf, answersOf, nouns, storeFull, successOf, type Answer } from './resource-answer.js';
import { nestedAsked, rangesAsked, withNested, withinRanges } from './range-answers.js';
import { itemView, projectItem } from './resource-views.js';
import { keyShapeOf, type KeyShape } from '../../openapi/key-shape.js';

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
export class ResourceHandlers {
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
  readonly #parentMembers: ParentMember[];
  #serial = 0;
  #itemPathParts: string[] | undefined;

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
    this.#parentMembers = parentMembersOf(resource);
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
    const answers = answersOf(this.#document, binding, operation, 201);
    const unwrap = bodyOf(binding);
    return (input, tenant, request) => {
      const answer = answers(request);
      if (!answer.many) {
        const body = unwrap(input);
        return andThen(this.#createOne(input, tenant, body), (stored) =>
          this.#answer(answer, this.#withAnsweredOnly(stored, body), input, request),
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
        build: (key: unknown) => this.#record(key, withParents(body, input.path, this.#parentMembers)),
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
    const answers = answersOf(this.#document, binding, operation);
    return (input, tenant, request) =>
      andThen(this.#find(input, tenant), (found) => this.#answer(answers(request), found, input));
  }

  #write(binding: ResourceBinding, operation: Operation, role: 'replace' | 'update'): ResourceHandler {
    const answers = answersOf(this.#document, binding, operation, undefined, { location: false });
    const unwrap = bodyOf(binding);
    // A merge patch (or JSON:API's PATCH) keeps the members a nested object leaves out.
    type Value = Readonly<Record<string, unknown>>;
    const merge = mergesMembers(operation) ? mergedInto : (before: Value, body: Value) => ({ ...before, ...body });
    return (input, tenant, request) =>
      andThen(this.#find(input, tenant), (old) => {
        const body = unwrap(input);
        const merged = withParents(role === 'update' ? merge(old.value, body) : body, input.path, this.#parentMembers);
        const value = this.#record(old.value[this.#key], merged);
        return andThen(this.#collection(input, tenant).replace(old.key, value), (result) => {
          // Gone between the read and the write (another request or replica deleted it).
          if (!result) throw this.#notFound(old.key);
          return this.#written(answers(request), result, input);
        });
      });
  }

  #delete(binding: ResourceBinding, operation: Operation): ResourceHandler {
    const answers = answersOf(this.#document, binding, operation, undefined, { location: false });
    return (input, tenant, request) => {
      const key = String(input.path[this.#resource.itemParameter!]);
      return andThen(this.#collection(input, tenant).remove(key), (old) => {
        if (!old) throw this.#notFound(key);
        return this.#answer(answers(request), old, input);
      });
    };
  }

  /** Throws the 404 when the item the path parameter `parameter` names is not in the tenant's store. */
  requireItem(input: RequestInput, tenant: Tenant, parameter: string): MaybePromise<void> {
    const key = String(input.path[parameter]);
    return andThen(this.#collection(input, tenant).get(key), (found) => {
      if (!found) throw this.#notFound(key);
    });
  }

  /**
   * Answers `operation` with the stored item the path parameter `parameter` names, as its success
   * response shows it (in its wrapper), or undefined when there is no such item.
   */
  itemAnswer(
    operation: Operation,
    wrapper: string | undefined,
    parameter: string,
  ): (input: RequestInput, tenant: Tenant) => MaybePromise<HttpResponse | undefined> {
    const binding: ResourceBinding = { resource: this.#resource, role: 'read', wrappers: { response: wrapper } };
    const answer = { ...answerOf(this.#document, binding, operation), location: false };
    return (input, tenant) =>
      andThen(this.#collection(input, tenant).get(String(input.path[parameter])), (found) =>
        found ? this.#answer(answer, found, input) : undefined,
      );
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
    if (this.#answeredOnly.length === 0) return stored;
    const extras = this.#answeredOnly.filter((name) => body[name] !== undefined && !(name in stored.value));
    if (extras.length === 0) return stored;
    return { ...stored, value: { ...Object.fromEntries(extras.map((name) => [name, body[name]])), ...stored.value } };
  }

  #answer(answer: Answer, stored: StoredRecord, input: RequestInput, request?: RequestContext): HttpResponse {
    const response: HttpResponse = { status: answer.status };
    if (answer.view) response.json = answer.view(stored);
    if (answer.location) {
      // A Location documented as `format: uri` is absolute, on the origin the request came to.
      const host = request?.headers.host;
      const origin = answer.absoluteLocation && typeof host === 'string' ? `http://${host}` : '';
      response.headers = { Location: `${origin}${this.#location(stored, input)}` };
    }
    return response;
  }

  #answerMany(answer: Answer, made: readonly StoredRecord[]): HttpResponse {
    const view = answer.view;
    // Each view is the item's JSON text already: the list is their concatenation.
    return view ? { status: answer.status, json: `[${made.map(view).join(',')}]` } : { status: answer.status };
  }

  #location(stored: StoredRecord, input: RequestInput): string {
    // The item path split once: literal text at even places, parameter names at odd ones.
    const parts = (this.#itemPathParts ??= this.#resource.itemPath!.split(/\{([^}/]+)\}/));
    const { itemParameter } = this.#resource;
    let location = this.#document.basePath + parts[0]!;
    for (let index = 1; index < parts.length; index += 2) {
      const name = parts[index]!;
      location += encodeURIComponent(name === itemParameter ? stored.key : String(input.path[name]));
      location += parts[index + 1]!;
    }
    return location;
  }
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
    if (!handler) continue;
    const required = requiredHeadersOf(options.document, operation);
    handlers.set(
      operation.id,
      required.size === 0
        ? handler
        : (input, tenant, request) =>
            andThen(handler(input, tenant, request), (response) => withRequiredHeaders(response, required)),
    );
  }
  return handlers;
}
