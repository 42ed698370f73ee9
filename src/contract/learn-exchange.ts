import { isSuccess, jsonBody } from './checks/support.js';
import { evaluate } from './link-expressions.js';
import type { Exchange } from './types.js';
import type { ValuePool } from './value-pool.js';

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
  pool.learn(resource, Array.isArray(body) ? body : [body], pathScope(exchange));
}

/** The path parameters the request was sent with (`{ServiceSid: "VA1"}`), as text. */
function pathScope(exchange: Exchange): Record<string, string> {
  const scope: Record<string, string> = {};
  for (const parameter of exchange.operation.parameters) {
    if (parameter.in !== 'path') continue;
    const value = evaluate(`$request.path.${parameter.name}`, exchange);
    if (value?.ok) scope[parameter.name] = String(value.value);
  }
  return scope;
}
