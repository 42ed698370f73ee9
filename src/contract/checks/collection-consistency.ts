import { notAList } from './unexercised.js';
import { filterValue, type FilterParameter, type PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, CheckFailure, ScenarioCheck } from '../types.js';
import { readList, searchOnly, wholeListQuery, windowProblem, type Item, type ListRead } from './list-reads.js';
import { changedFields } from './fidelity-values.js';
import { idParameter, idKey } from './ids.js';
import { documentedBodySchema, shownBy } from './shown-properties.js';
import { fitsSlot } from '../prepare/reference-values.js';
import { requestPathValues } from '../prepare/link-expressions.js';
import { sameJson } from './same-json.js';
import { failure, show } from './failure.js';
import { readById } from './read-by-id.js';
import { jsonBody } from './response-body.js';
import { isClientError, isSuccess, statusText } from './response-status.js';

/** Listed items compared with their read by id, at most. */
const SAMPLE_SIZE = 20;

/** A list request and what its answer must be: the first `expected` items of `reference`, at most `limit`. */
interface ListWindow {
  label: string;
  query: Record<string, string>;
  /** What `reference` is, in words (`the whole list`). */
  referenceLabel: string;
  expected: (referenceLength: number) => number;
  limit?: number;
  /** limit=minimum and limit=maximum must be accepted: the schema allows them. */
  boundary?: boolean;
  drift?: boolean;
}

interface Context {
  check: string;
  list: PlannedOperation;
  idProperty: string;
}

function windowFailure(c: Context, window: ListWindow, read: ListRead, reference: readonly Item[]): CheckFailure[] {
  if (!read.items) {
    if (!window.boundary || !isClientError(read.exchange)) return [];
    return [
      failure(c.check, 'error', read.exchange, `${window.label} was refused`, {
        expected: 'a 2xx list: the schema allows this limit',
        actual: statusText(read.exchange),
      }),
    ];
  }
  const expected = Math.min(window.expected(reference.length), window.limit ?? Infinity);
  const problem =
    window.limit !== undefined && read.items.length > window.limit
      ? `${read.items.length} items, more than the limit`
      : windowProblem(read.items, reference, c.idProperty, expected);
  if (problem === undefined) return [];
  const title = window.drift
    ? `the same request twice gave different lists (${window.label})`
    : `${window.label} is not the start of ${window.referenceLabel}`;
  return [
    failure(c.check, 'error', read.exchange, title, {
      expected: `the first ${expected} item(s), in the same order, none skipped`,
      actual: problem,
    }),
  ];
}

/** Unfiltered windows of the whole list: the same request again, limit=minimum, a middle limit, no limit. */
function wholeWindows(list: PlannedOperation, whole: Record<string, string>, total: number): ListWindow[] {
  const windows: ListWindow[] = [
    {
      label: `${list.id} read whole again`,
      query: whole,
      referenceLabel: 'the whole list',
      expected: (n) => n,
      drift: true,
    },
  ];
  const limit = list.limit;
  if (!limit) return windows;
  const sizes = [...new Set([limit.minimum, Math.max(limit.minimum, Math.ceil(total / 2))])];
  for (const size of sizes)
    windows.push({
      label: `${list.id} with ${limit.name}=${size}`,
      query: { [limit.name]: String(size) },
      referenceLabel: 'the whole list',
      expected: (n) => Math.min(size, n),
      limit: size,
      boundary: size === limit.minimum,
    });
  if (limit.default !== undefined)
    windows.push({
      label: `${list.id} without ${limit.name} (default ${limit.default})`,
      query: {},
      referenceLabel: 'the whole list',
      expected: (n) => Math.min(limit.default!, n),
      limit: limit.default,
    });
  return windows;
}

/** Windows of a filtered list read whole: limit=minimum and no limit (its default). */
function filteredWindows(list: PlannedOperation, filter: FilterParameter, value: string): ListWindow[] {
  const limit = list.limit;
  if (!limit) return [];
  const base = { [filter.name]: value };
  const referenceLabel = `${list.id} with ${filter.name}=${value} read whole`;
  const windows: ListWindow[] = [
    {
      label: `${list.id} with ${filter.name}=${value} and ${limit.name}=${limit.minimum}`,
      query: { ...base, [limit.name]: String(limit.minimum) },
      referenceLabel,
      expected: (n) => Math.min(limit.minimum, n),
      limit: limit.minimum,
    },
  ];
  if (limit.default !== undefined)
    windows.push({
      label: `${list.id} with ${filter.name}=${value} without ${limit.name}`,
      query: base,
      referenceLabel,
      expected: (n) => Math.min(limit.default!, n),
      limit: limit.default,
    });
  return windows;
}

/** Sends every window's request at once and judges each against its reference list. */
async function judgeWindows(
  c: Context,
  context: CheckContext,
  windows: readonly { window: ListWindow; reference: readonly Item[] }[],
): Promise<{ reads: ListRead[]; failures: CheckFailure[] }> {
  const reads = await Promise.all(windows.map(({ window }) => readList(context, c.list, window.query, window.label)));
  const failures = windows.flatMap(({ window, reference }, index) =>
    windowFailure(c, window, reads[index]!, reference),
  );
  return { reads, failures };
}

/** Items the whole list has with the filter's value that the filtered list read whole lacks. */
function filteredMisses(
  c: Context,
  filter: FilterParameter,
  value: string,
  read: ListRead,
  whole: readonly Item[],
): CheckFailure[] {
  if (!read.items) return [];
  const listed = new Set(read.items.map((item) => idKey(item[c.idProperty])));
  const wanted = filterValue(filter, value);
  const missing = whole.filter((item) => item[filter.property] === wanted && !listed.has(idKey(item[c.idProperty])));
  if (missing.length === 0) return [];
  return [
    failure(c.check, 'error', read.exchange, `${c.list.id} with ${filter.name}=${value} misses matching items`, {
      expected: `every item of the whole list with ${filter.property} ${JSON.stringify(value)}`,
      actual: `${missing.length} missing, first ${c.idProperty} ${show(missing[0]![c.idProperty])}`,
    }),
  ];
}

/** An id that stands for two different items across the reads. */
function contentConflicts(c: Context, reads: readonly ListRead[], whole: readonly Item[]): CheckFailure[] {
  const first = new Map(whole.map((item) => [idKey(item[c.idProperty]), item]));
  for (const read of reads) {
    for (const item of read.items ?? []) {
      const known = first.get(idKey(item[c.idProperty]));
      if (!known || sameJson(known, item)) continue;
      const change = changedFields(known, item)[0];
      return [
        failure(c.check, 'error', read.exchange, `an item differs between two reads of ${c.list.id}`, {
          expected: show(known),
          actual: `${show(item)}${change ? ` (/${change.name}: ${change.change})` : ''}`,
        }),
      ];
    }
  }
  return [];
}

/** Up to SAMPLE_SIZE items spread over the list, first and last included. */
function sample(items: readonly Item[]): Item[] {
  if (items.length <= SAMPLE_SIZE) return [...items];
  return Array.from(
    { length: SAMPLE_SIZE },
    (_, index) => items[Math.round((index * (items.length - 1)) / (SAMPLE_SIZE - 1))]!,
  );
}

/** Each sampled listed item equals the same item read by id (its listed fields, if lists show fewer). */
async function readBack(c: Context, context: CheckContext, listed: ListRead): Promise<CheckFailure[]> {
  const items = listed.items ?? [];
  // Read under the parents the list was read under (`/acme/members/1`): an id means nothing elsewhere.
  const parents = requestPathValues(listed.exchange);
  const read = context.plan.collection(c.list.collection!).read;
  if (!read) return [];
  // An id the read's path parameter cannot take (`"string"` where it wants a uuid) cannot be read by id.
  const slot = idParameter(read)?.resolved;
  const readable = sample(items).filter((item) => fitsSlot(item[c.idProperty], slot, true));
  const results = await Promise.all(
    readable.map(async (item) => {
      const id = item[c.idProperty];
      const exchange = await readById(context, read, id, `reading listed ${c.idProperty} ${show(id)} by id`, {
        parents,
      });
      if (!isSuccess(exchange))
        return failure(c.check, 'error', exchange, `a listed item cannot be read by id`, {
          expected: `a 2xx with ${c.idProperty} ${show(id)}`,
          actual: statusText(exchange),
        });
      // Only what the read's schema shows, as the list shows it: a list may carry more (`created_at`).
      const shown = shownBy(documentedBodySchema(context.plan, exchange));
      const compared = Object.fromEntries(Object.entries(item).filter(([name, value]) => shown(name, value)));
      const change = changedFields(compared, jsonBody(exchange))[0];
      return change
        ? failure(c.check, 'error', exchange, `a listed item differs from the same item read by id`, {
            expected: show(item),
            actual: `${show(jsonBody(exchange))} (/${change.name}: ${change.change})`,
          })
        : undefined;
    }),
  );
  const found = results.filter((result) => result !== undefined);
  return found
    .slice(0, 1)
    .map((first) => ({ ...first, title: `${first.title} (${found.length} of ${results.length})` }));
}

/** The largest limit the schema allows, refused with a 4xx. */
function refusedWhole(c: Context, read: ListRead): CheckFailure[] {
  const status = read.exchange.response?.status ?? 0;
  if (!c.list.limit || status < 400 || status >= 500) return [];
  return [
    failure(c.check, 'error', read.exchange, `${c.list.id} with its largest ${c.list.limit.name} was refused`, {
      expected: 'a 2xx list: the schema allows this limit',
      actual: statusText(read.exchange),
    }),
  ];
}

function duplicates(c: Context, read: ListRead): CheckFailure[] {
  const problem = windowProblem(read.items ?? [], [], c.idProperty, 0);
  return problem === undefined
    ? []
    : [failure(c.check, 'error', read.exchange, `${c.list.id} lists an item twice`, { actual: problem })];
}

/**
 * While a collection is small enough to read whole: every shorter list (limit=minimum, a middle
 * limit, the default, each filter value) is the start of the matching whole list, a filtered list
 * holds every matching item, ids are unique, the same request twice answers the same, and listed
 * items equal the items read by id. Any stable order passes; items created in between are allowed.
 */
export const collectionConsistency: ScenarioCheck = {
  name: 'collection-consistency',
  kind: 'scenario',
  severity: 'error',
  description: 'pages, filtered lists and reads by id agree with the whole collection',
  skipReason(operation) {
    if (operation.role !== 'list' || !operation.collection || !operation.idProperty)
      return 'not a list of identified resources';
    const search = searchOnly(operation);
    if (search) return search;
    return wholeListQuery(operation) ? undefined : 'the limit parameter documents no maximum or default';
  },
  async run(context) {
    const list = context.operation;
    const c: Context = { check: this.name, list, idProperty: list.idProperty! };
    const query = wholeListQuery(list)!;
    const first = await readList(context, list, query.query, `${list.id} read whole`);
    if (!first.items) return { failures: refusedWhole(c, first), unexercised: notAList(first.exchange) };
    if (first.items.length >= query.cap)
      return { failures: [], skipped: `the collection holds ${query.cap} or more items: too many to read whole` };
    const whole = first.items;
    const filtered = list.filters.flatMap((filter) =>
      filter.values.slice(0, context.settings.maxExamples).map((value) => ({ filter, value })),
    );
    const [unfiltered, filteredWholes] = await Promise.all([
      judgeWindows(
        c,
        context,
        wholeWindows(list, query.query, whole.length).map((window) => ({ window, reference: whole })),
      ),
      Promise.all(
        filtered.map(({ filter, value }) =>
          readList(
            context,
            list,
            { ...query.query, [filter.name]: value },
            `${list.id} with ${filter.name}=${value} read whole`,
          ),
        ),
      ),
    ]);
    const filteredFailures = filtered.flatMap(({ filter, value }, index) => [
      ...duplicates(c, filteredWholes[index]!),
      ...filteredMisses(c, filter, value, filteredWholes[index]!, whole),
    ]);
    const [inFiltered, readBackFailures] = await Promise.all([
      judgeWindows(
        c,
        context,
        filtered.flatMap(({ filter, value }, index) => {
          const reference = filteredWholes[index]!.items;
          return reference ? filteredWindows(list, filter, value).map((window) => ({ window, reference })) : [];
        }),
      ),
      readBack(c, context, first),
    ]);
    const reads = [...unfiltered.reads, ...filteredWholes, ...inFiltered.reads];
    return {
      failures: [
        ...duplicates(c, first),
        ...unfiltered.failures,
        ...filteredFailures,
        ...inFiltered.failures,
        ...contentConflicts(c, reads, whole),
        ...readBackFailures,
      ],
    };
  },
};
