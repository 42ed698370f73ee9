import { asOperand, rangeValues } from '../../openapi/range-filters.js';
import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, Exchange } from '../types.js';
import { idKey } from './ids.js';
import { knownPathValues } from './path-values.js';
import { jsonBody } from './response-body.js';
import { isSuccess } from './response-status.js';
import { requiredQuery } from './valid-request.js';

export type Item = Record<string, unknown>;

/** A list read: the exchange, and the items when the answer is a 2xx array of objects. */
export interface ListRead {
  exchange: Exchange;
  items: Item[] | undefined;
}

/**
 * How to read a list whole: its limit-like parameter at the maximum (else the default). A read
 * that returns fewer items than that is the whole collection; undefined when no bound is documented.
 */
export function wholeListQuery(list: PlannedOperation): { query: Record<string, string>; cap: number } | undefined {
  if (!list.limit) return { query: {}, cap: Infinity };
  const cap = list.limit.maximum ?? list.limit.default;
  return cap === undefined ? undefined : { query: { [list.limit.name]: String(cap) }, cap };
}

/**
 * Why a list can never show the whole collection, or undefined: a search needs query parameters
 * (`GET /trips?from=…&to=…`) that created items do not tell.
 */
export function searchOnly(list: PlannedOperation): string | undefined {
  const needed = list.parameters
    .filter((parameter) => parameter.in === 'query' && parameter.required && parameter.name !== list.limit?.name)
    .map((parameter) => parameter.name);
  return needed.length === 0
    ? undefined
    : `a search: it needs ${needed.join(', ')}, so it never lists the whole collection`;
}

/**
 * Sends one list request; the items are remembered as seen (ids, foreign-key values). A
 * sub-collection is listed under `parents` (those its items were created under), else under
 * parents the run knows.
 */
export async function readList(
  context: CheckContext,
  list: PlannedOperation,
  query: Record<string, string>,
  purpose: string,
  parents: Record<string, string> = {},
): Promise<ListRead> {
  // A sub-resource's list (`/devices/{deviceId}/comments`) is read under the parents it was
  // created under when known, else the ones a create or a read of it would use: never a default.
  const given = Object.fromEntries(
    Object.entries(parents).filter(([name]) => list.parameters.some((p) => p.in === 'path' && p.name === name)),
  );
  const pathParams = { ...knownPathValues({ ...context, operation: list }, list), ...given };
  const exchange = await context.send({
    operation: list,
    intent: 'valid',
    purpose,
    query: { ...requiredQuery(context, list), ...query },
    ...(Object.keys(pathParams).length > 0 ? { pathParams } : {}),
  });
  const body = jsonBody(exchange);
  const items =
    isSuccess(exchange) && Array.isArray(body) && body.every((item) => item !== null && typeof item === 'object')
      ? (body as Item[])
      : undefined;
  return { exchange, items };
}

/** Lists with `query`; returns the exchange and the items when the answer is a 2xx array. */
export async function list(
  context: CheckContext,
  query: Record<string, string>,
  purpose: string,
  intent: Exchange['intent'] = 'valid',
): Promise<{ exchange: Exchange; items: unknown[] | undefined }> {
  const operation = context.operation;
  // A sub-resource is listed under the parents its creates and reads use (`readList`).
  const exchange = await context.send({
    operation,
    intent,
    purpose,
    pathParams: knownPathValues(context, operation),
    query: { ...requiredQuery(context, operation), ...query },
  });
  const body = jsonBody(exchange);
  const items = isSuccess(exchange) && Array.isArray(body) ? body : undefined;
  return { exchange, items };
}

/**
 * Range parameters (`startDate`, `endDate`) that keep every one of `items` in the list: a list may
 * show a window by default (the next 7 days), and items made for a check can lie outside it.
 */
export function coveringRanges(list: PlannedOperation, items: readonly Item[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const range of list.ranges) {
    const values = items.map((item) => rangeValues(item[range.property], range));
    if (values.length === 0 || values.some((found) => found.length === 0)) continue;
    const sorted = values.flat().sort((a, b) => a.at - b.at);
    const operand = asOperand((range.bound === 'lower' ? sorted[0] : sorted.at(-1))!.value, range);
    if (operand !== undefined) query[range.name] = operand;
  }
  return query;
}

/**
 * Why `page` is not the first items of `whole` (in the same order, none skipped), or undefined.
 * Items whose id `whole` does not have count as created in between (a shared store) and are
 * passed over; `expected` is how many items the page must hold at least.
 */
export function windowProblem(
  page: readonly Item[],
  whole: readonly Item[],
  idProperty: string,
  expected: number,
): string | undefined {
  const keys = page.map((item) => idKey(item[idProperty]));
  const twice = keys.find((key, index) => keys.indexOf(key) !== index);
  if (twice !== undefined) return `${idProperty} ${twice} is listed twice`;
  const wholeKeys = whole.map((item) => idKey(item[idProperty]));
  const known = new Set(wholeKeys);
  const kept = keys.filter((key) => known.has(key));
  const wrong = kept.findIndex((key, index) => key !== wholeKeys[index]);
  if (wrong !== -1) {
    const skipped = wholeKeys[wrong]!;
    const fate = keys.includes(skipped) ? 'is listed later' : 'is missing';
    return `item ${wrong + 1} is ${idProperty} ${kept[wrong]}, where the whole list has ${skipped} (which ${fate})`;
  }
  if (page.length < expected)
    return `${page.length} items where ${expected} were expected (${wholeKeys.length} in the whole list)`;
  return undefined;
}
