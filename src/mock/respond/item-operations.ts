import type { Operation } from '../../openapi/operations.js';
import { itemWrapperOf } from '../../openapi/item-wrapper.js';
import { successSchemaOf, type Resource } from '../../openapi/resource-model.js';
import type { HttpResponse } from '../../http/http-response.js';
import type { RequestInput } from '../../http/responder.js';
import type { MaybePromise, Tenant } from '../../store/store-types.js';
import { ResourceHandlers, type ResourceHandlerOptions } from './resource-responder.js';

/** Checks, before an operation is answered, that the item its path acts on exists (a 404 when not). */
export type ItemGuard = (input: RequestInput, tenant: Tenant) => MaybePromise<void>;

/** Answers an action with the item it acts on, or undefined when there is no such item. */
export type ItemActionAnswer = (input: RequestInput, tenant: Tenant) => MaybePromise<HttpResponse | undefined>;

interface ItemOperation {
  operation: Operation;
  resource: Resource;
  /** The path parameter naming the item (`ticketId` in `/tickets/{ticketId}/qr`). */
  parameter: string;
}

/**
 * The operations on one item of a stateful resource that are not its own roles: an action
 * (`POST /orders/{id}/payment`), a GET of something of the item's (`/tickets/{id}/qr`), a
 * create under it. Lists under an item are left out.
 */
function itemOperations(options: ResourceHandlerOptions): ItemOperation[] {
  const stateful = options.model.resources.filter((resource) => resource.stateful);
  const found: ItemOperation[] = [];
  for (const operation of options.document.operations) {
    const binding = options.model.bindingOf(operation);
    if (binding?.role === 'list' || (binding && binding.resource.itemPath === operation.path)) continue;
    for (const resource of stateful) {
      const parameter = itemParameterOf(resource.path, operation.path);
      if (parameter === undefined) continue;
      found.push({ operation, resource, parameter });
      break;
    }
  }
  return found;
}

/**
 * Guards by operation id for the item operations (`itemOperations`): where such an operation
 * documents 404, an item that does not exist (never made, or deleted) gets it, as `kennel check`
 * expects.
 */
export function itemGuards(options: ResourceHandlerOptions): Map<string, ItemGuard> {
  const guards = new Map<string, ItemGuard>();
  for (const { operation, resource, parameter } of itemOperations(options)) {
    if (!operation.responses.some((response) => response.status === '404')) continue;
    const handlers = new ResourceHandlers(resource, options);
    guards.set(operation.id, (input, tenant) => handlers.requireItem(input, tenant, parameter));
  }
  return guards;
}

/**
 * Answers by operation id for the item actions (`POST /emails/{id}/cancel`) whose success
 * response is the resource's item (wrapped or not): the item acted on, as stored, rather than the
 * document's example, which names another item (one a client would then fail to read). An item
 * that does not exist is left to the guard (a documented 404) or to the document's answer.
 */
export function itemActionAnswers(options: ResourceHandlerOptions): Map<string, ItemActionAnswer> {
  const answers = new Map<string, ItemActionAnswer>();
  for (const { operation, resource, parameter } of itemOperations(options)) {
    // A create of a kept sub-resource (`POST /emails/{id}/share`) answers from its own store.
    if (operation.method !== 'post' || options.model.bindingOf(operation)?.resource.stateful) continue;
    const schema = successSchemaOf(options.document, operation);
    const wrapper = itemWrapperOf(schema, resource.path);
    if ((wrapper?.item ?? schema) !== resource.itemSchema) continue;
    answers.set(
      operation.id,
      new ResourceHandlers(resource, options).itemAnswer(operation, wrapper?.property, parameter),
    );
  }
  return answers;
}

/**
 * `ticketId` for `/tickets` and `/tickets/{ticketId}/qr`: the item the path acts on, no other
 * template after it. A collection spelled `/tickets/` (Django) counts as `/tickets`.
 */
function itemParameterOf(collection: string, path: string): string | undefined {
  const base = collection.endsWith('/') ? collection.slice(0, -1) : collection;
  if (!path.startsWith(`${base}/{`)) return undefined;
  return /^\{([^}/]+)\}\/[^{}]+$/.exec(path.slice(base.length + 1))?.[1];
}
