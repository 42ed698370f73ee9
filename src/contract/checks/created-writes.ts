import type { CheckContext, CreatedResource, Exchange, RunState } from '../types.js';
import { jsonBody } from './response-body.js';
import { isSuccess } from './response-status.js';

/**
 * Records what a successful create returned, so later checks can read it back. Only creates: a
 * replace or update of an item the run made is followed by `followWrites`, not recorded again.
 */
export function rememberCreated(context: CheckContext, sent: unknown, exchange: Exchange): void {
  const operation = context.operation;
  const returned = jsonBody(exchange);
  if (operation.role !== 'create' || !operation.collection || !isSuccess(exchange)) return;
  if (!isObject(sent) || !isObject(returned)) return;
  const resource = {
    sent,
    returned,
    id: operation.idProperty ? returned[operation.idProperty] : undefined,
    scope: new URL(exchange.request.url).pathname,
  };
  const list = context.state.created.get(operation.collection) ?? [];
  list.push(resource);
  context.state.created.set(operation.collection, list);
}

/**
 * Keeps the run's record of the items it created true to its own later writes: an item a check
 * replaced (`PUT`) or updated (`PATCH`) is recorded as the response shows it, else as written
 * (through the body's item wrapper); a deleted one is forgotten. Checks that expect created items in a list (a filter, freshness,
 * consistency) then expect them as they are, not as they were created.
 */
export function followWrites(state: RunState, exchange: Exchange): void {
  const { role, collection, idProperty } = exchange.operation;
  if (!isSuccess(exchange)) return;
  if (role !== 'replace' && role !== 'update' && role !== 'delete') {
    followAction(state, exchange);
    return;
  }
  if (!collection || !idProperty) return;
  const created = state.created.get(collection);
  const index = created?.findIndex((resource) => targets(exchange, resource)) ?? -1;
  if (!created || index < 0) return;
  if (role === 'delete') {
    created.splice(index, 1);
    return;
  }
  const resource = created[index]!;
  const written = writtenItem(exchange);
  if (!written) return;
  const sent = role === 'replace' ? written : { ...resource.sent, ...written };
  const answer = jsonBody(exchange);
  // A replace answered without the item holds what was written, no more: the fields it left out
  // are gone (or the server's defaults), never what they were before.
  const returned =
    isObject(answer) && idProperty in answer
      ? answer
      : role === 'replace'
        ? written
        : { ...resource.returned, ...written };
  created[index] = { ...resource, sent, returned: { ...returned, [idProperty]: resource.id } };
}

/**
 * An action on an item the run created (`POST /boards/{id}/archive`) that answers the item, with
 * the same id: the item is now as the answer shows it (`state: archived`), so checks that look
 * for it under a filter look for it as it is. One that answers no item (204) leaves it unknown.
 */
function followAction(state: RunState, exchange: Exchange): void {
  const method = exchange.request.method.toUpperCase();
  const answer = jsonBody(exchange);
  // A create under the item (`POST /boards/7/cards`) makes another item, whatever id it is given.
  if (method === 'GET' || method === 'HEAD' || method === 'DELETE' || exchange.operation.role === 'create') return;
  const path = new URL(exchange.request.url).pathname;
  for (const created of state.created.values()) {
    const index = created.findIndex((resource) => actsOn(path, resource));
    if (index < 0) continue;
    const resource = created[index]!;
    if (isObject(answer) && answersItem(answer, resource)) created[index] = { ...resource, returned: answer };
    else created[index] = { ...resource, changedUnseen: true };
    return;
  }
}

/** The path is one segment under the item's own (`/boards/7/archive` for `/boards` item 7). */
function actsOn(path: string, resource: CreatedResource): boolean {
  if (resource.id === undefined || resource.scope === undefined || !path.startsWith(`${resource.scope}/`)) return false;
  const [id, action, ...rest] = path.slice(resource.scope.length + 1).split('/');
  return action !== undefined && action !== '' && rest.length === 0 && safeDecode(id!) === String(resource.id);
}

/** The answer carries the item's id where the create's answer did. */
function answersItem(answer: Record<string, unknown>, resource: CreatedResource): boolean {
  const key = Object.keys(resource.returned).find((name) => resource.returned[name] === resource.id);
  return key !== undefined && answer[key] === resource.id;
}

/** The request names this item: its URL path is the item's collection path plus its id. */
function targets(exchange: Exchange, resource: CreatedResource): boolean {
  if (resource.id === undefined || resource.scope === undefined) return false;
  const path = new URL(exchange.request.url).pathname;
  if (!path.startsWith(`${resource.scope}/`)) return false;
  const rest = path.slice(resource.scope.length + 1);
  return !rest.includes('/') && safeDecode(rest) === String(resource.id);
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The item a replace or update wrote: inside the body's item wrapper (`{"ticket": {...}}`) when it has one. */
function writtenItem(exchange: Exchange): Record<string, unknown> | undefined {
  const body = parsedObject(exchange.request.body);
  const wrapper = exchange.operation.body?.wrapper?.property;
  if (!body || wrapper === undefined) return body;
  const item = body[wrapper];
  return isObject(item) ? item : body;
}

function parsedObject(body: string | undefined): Record<string, unknown> | undefined {
  if (body === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
