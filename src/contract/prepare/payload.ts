import type { PlannedOperation } from './plan.js';

type Item = Record<string, unknown>;

const isItem = (value: unknown): value is Item => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * What a client reads from a success body: a list's items out of their envelope
 * (`{"data": [...], "links": {...}}` → the array), a single item out of its wrapper
 * (`{"data": {...}}` → the object), else the body itself. A body that is not in the documented
 * envelope is returned as it is, for the checks to judge.
 */
export function payloadOf(operation: Pick<PlannedOperation, 'payload'>, body: unknown): unknown {
  const { items, item } = operation.payload;
  if (items !== undefined) return isItem(body) && Array.isArray(body[items]) ? body[items] : body;
  if (item !== undefined) return isItem(body) && isItem(body[item]) ? body[item] : body;
  return body;
}

/** The items of a list body (through its envelope), or undefined when it holds no array. */
export function listedItems(operation: Pick<PlannedOperation, 'payload'>, body: unknown): unknown[] | undefined {
  const payload = payloadOf(operation, body);
  return Array.isArray(payload) ? payload : undefined;
}
