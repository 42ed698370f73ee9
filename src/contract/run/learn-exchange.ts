import { jsonBody } from '../checks/response-body.js';
import { isSuccess } from '../checks/response-status.js';
import { evaluate, requestPathValues } from '../prepare/link-expressions.js';
import type { Exchange } from '../types.js';
import type { ValuePool } from '../prepare/value-pool.js';

/**
 * Records what a successful valid exchange showed: the items of a list (through its envelope),
 * the item a create, read, write or action answered (through its wrapper); a deleted item's key
 * is forgotten. Answers to deliberately invalid requests teach nothing.
 */
export function learnFrom(pool: ValuePool, exchange: Exchange): void {
  if (exchange.intent !== 'valid' || !isSuccess(exchange)) return;
  const operation = exchange.operation;
  const resource = operation.produces;
  if (operation.role === 'delete') {
    const parameter = operation.resource?.itemParameter;
    const key = parameter ? evaluate(`$request.path.${parameter}`, exchange) : undefined;
    if (resource && key?.ok) pool.forget(resource, key.value);
    return;
  }
  const body = jsonBody(exchange);
  if (body === undefined) return;
  pool.learn(resource, Array.isArray(body) ? body : [body], requestPathValues(exchange));
}
