import type { Exchange, ResponseCheck, RunState } from '../types.js';
import { failure, show } from './failure.js';
import { answersItsPathItem } from './ids.js';
import { jsonBody } from './response-body.js';
import { isSuccess } from './response-status.js';

/** The key a server-keyed create answered, when this exchange is one to judge. */
function issuedKey(exchange: Exchange): string | undefined {
  const { operation } = exchange;
  const key = operation.resource?.key;
  if (operation.role !== 'create' || key?.assignedBy !== 'server' || !operation.idProperty) return undefined;
  if (exchange.intent !== 'valid' || !isSuccess(exchange)) return undefined;
  // A 200 beside a documented 201 may be the answer "it was already there": not a new key.
  const status = exchange.response!.status;
  if (status !== 201 && operation.successStatuses.includes(201)) return undefined;
  const body = jsonBody(exchange);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const id = (body as Record<string, unknown>)[operation.idProperty];
  if (id === undefined || id === null || (exchange.request.body ?? '').includes(show(id))) return undefined;
  if (answersItsPathItem(exchange, id)) return undefined;
  return show(id);
}

/**
 * A key the server assigns names one item for good: every create of the run (whichever check
 * sent it) gets a key no earlier create of the same collection got, even one deleted since
 * (a client that kept the old key would reach the new item).
 */
export const idsNeverReused: ResponseCheck = {
  name: 'ids-never-reused',
  kind: 'response',
  severity: 'error',
  description: 'a key the server assigns is never handed out twice, even after a delete',
  inspect(_plan, exchange, state?: RunState) {
    const key = state && issuedKey(exchange);
    if (!state || key === undefined) return [];
    const scope = new URL(exchange.request.url).pathname;
    const issued = state.issuedIds.get(scope) ?? new Map<string, string>();
    state.issuedIds.set(scope, issued);
    const first = issued.get(key);
    if (first === undefined) {
      issued.set(key, exchange.purpose);
      return [];
    }
    const idProperty = exchange.operation.idProperty!;
    return [
      failure(this.name, 'error', exchange, `${idProperty} ${key} was handed out twice`, {
        expected: `a new ${idProperty}`,
        actual: `${key}, first given by ${first}`,
      }),
    ];
  },
};
