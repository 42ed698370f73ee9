import { stringifyJson } from '../../core/json.js';
import { asOperand, rangeValues } from '../../openapi/range-filters.js';
import type { PlannedOperation } from '../plan.js';
import type { CheckContext, Exchange, Intent } from '../types.js';
import { rememberCreated } from './created-writes.js';
import { generation, testDataBody } from './generation.js';
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

/** Waits between re-reads of a list that misses a created item: about 1.5 s in all. */
const RETRY_PAUSES_MS = [100, 200, 400, 800];

/** An id as text, the same for 7 and 7n: ids compare by it. */
export function idKey(value: unknown): string {
  return stringifyJson(value);
}

/** The id of an item (undefined when it has none). */
export function idOf(item: unknown, idProperty: string): unknown {
  return item !== null && typeof item === 'object' ? (item as Item)[idProperty] : undefined;
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
  intent: Intent = 'valid',
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
    intent,
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

/** A resource created by `createResources`, with the exchange that created it. */
export interface CreatedId {
  id: unknown;
  exchange: Exchange;
}

/**
 * Creates `count` resources at once through the collection's create (required properties plus
 * `overrides`): those created with an id, and every create's exchange (for why none was).
 */
export async function createResources(
  context: CheckContext,
  create: PlannedOperation,
  count: number,
  overrides: Record<string, unknown> = {},
): Promise<{ created: CreatedId[]; exchanges: Exchange[] }> {
  const createContext = { ...context, operation: create };
  // Under the parents the run knows, as lists and reads of the sub-collection default to them.
  const pathParams = knownPathValues(createContext, create);
  const bodies = Array.from({ length: count }, () => ({
    // The create's own reference slots (`performance_id`) take values the deployment showed.
    ...testDataBody(create.body!.schema, generation(createContext)),
    ...overrides,
  }));
  const exchanges = await Promise.all(
    bodies.map((value, index) =>
      context.send({
        operation: create,
        intent: 'valid',
        purpose: `creating test data in ${create.collection} (${index + 1} of ${count})`,
        body: { value },
        ...(Object.keys(pathParams).length > 0 ? { pathParams } : {}),
      }),
    ),
  );
  const created = exchanges.flatMap((exchange, index) => {
    if (!isSuccess(exchange)) return [];
    rememberCreated(createContext, bodies[index]!, exchange);
    const id = create.idProperty ? idOf(jsonBody(exchange), create.idProperty) : undefined;
    return id === undefined ? [] : [{ id, exchange }];
  });
  return { created, exchanges };
}

/** A timer, not a clock: checks wait between re-reads but never read the time. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What re-reading a list until it holds some ids found. */
export interface ListedOutcome extends ListRead {
  /** Ids (as `idKey`) still absent after the last read. */
  missing: string[];
  /** Time spent waiting and reading after the first read, in ms (0: all there at once). */
  waitedMs: number;
  reads: number;
}

/**
 * Reads `query` until every id of `ids` is listed, re-reading after growing pauses (about 1.5 s
 * in all): a deployment whose lists lag behind its writes shows how far behind. Not `patient`:
 * one read (once a list has never shown a created item, waiting again only slows the run).
 */
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

/** What the run created in the list's collection with one of `ids`, as returned. */
function createdWith(context: CheckContext, list: PlannedOperation, ids: readonly string[]): Item[] {
  const created = context.state.created.get(list.collection ?? '') ?? [];
  return created.filter((resource) => ids.includes(idKey(resource.id))).map((resource) => resource.returned);
}

export async function awaitListed(
  context: CheckContext,
  list: PlannedOperation,
  asked: Record<string, string>,
  ids: readonly string[],
  purpose: string,
  patient = true,
  parents: Record<string, string> = {},
): Promise<ListedOutcome> {
  const idProperty = list.idProperty!;
  const query = { ...coveringRanges(list, createdWith(context, list, ids)), ...asked };
  let read = await readList(context, list, query, purpose, 'valid', parents);
  const absent = (outcome: ListRead): string[] => {
    const listed = new Set((outcome.items ?? []).map((item) => idKey(item[idProperty])));
    return ids.filter((id) => !listed.has(id));
  };
  let missing = read.items ? absent(read) : [];
  let waitedMs = 0;
  let reads = 1;
  for (const wait of patient ? RETRY_PAUSES_MS : []) {
    if (missing.length === 0 || !read.items) break;
    await pause(wait);
    read = await readList(context, list, query, `${purpose} (again after ${waitedMs + wait} ms)`, 'valid', parents);
    waitedMs += wait + read.exchange.durationMs;
    reads += 1;
    if (read.items) missing = absent(read);
  }
  return { ...read, missing, waitedMs, reads };
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
