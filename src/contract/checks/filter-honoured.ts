import type { CheckContext, CheckFailure, Exchange, ScenarioCheck } from '../types.js';
import { tallyOf } from './unexercised.js';
import { asOperand, inRange, rangeSlackMs, rangeValues } from '../../openapi/range-filters.js';
import { filterValue, type RangeFilter, type TextFilter } from '../prepare/plan.js';
import { nestedValue } from '../../openapi/resource-list.js';
import { sameJson } from './same-json.js';
import { failure, show } from './failure.js';
import { jsonBody } from './response-body.js';
import { isSuccess } from './response-status.js';
import { validRequest } from './valid-request.js';
import { list, searchOnly } from './list-reads.js';
import { createInCollection } from './test-data.js';
import { awaitListed } from './awaited-listing.js';
import { idKey } from './ids.js';

/**
 * A range parameter keeps the items on its side of its bound: the list read once, then with the
 * bound at the middle of the values it showed; every item then lies on that side (a day of slack
 * where a date meets a date-time).
 */
async function judgeRange(
  context: CheckContext,
  check: string,
  range: RangeFilter,
): Promise<{ judged: number; failures: CheckFailure[] }> {
  const { operation } = context;
  const query = { ...validRequest(context, operation, 'a list').query };
  if (operation.limit?.maximum !== undefined) query[operation.limit.name] = String(operation.limit.maximum);
  const first = await list(context, query, `${operation.id} to see ${range.property}`);
  const values = (first.items ?? [])
    .flatMap((item) => rangeValues((item as Record<string, unknown>)?.[range.property], range))
    .sort((a, b) => a.at - b.at);
  const middle = values[Math.floor(values.length / 2)];
  const operand = middle && asOperand(middle.value, range);
  if (operand === undefined) return { judged: 0, failures: [] };
  const { exchange, items } = await list(
    context,
    { ...query, [range.name]: operand },
    `${operation.id} with ${range.name}=${operand}`,
  );
  if (!items) return { judged: 0, failures: [] };
  const slack = rangeSlackMs(range);
  const strays = items.filter(
    (item) =>
      item === null ||
      typeof item !== 'object' ||
      !inRange((item as Record<string, unknown>)[range.property], range, operand, slack),
  );
  if (strays.length === 0) return { judged: items.length, failures: [] };
  const side = range.bound === 'lower' ? 'before' : 'after';
  return {
    judged: items.length,
    failures: [
      failure(
        check,
        'error',
        exchange,
        `${range.name}=${operand} returned ${strays.length} of ${items.length} items with ${range.property} ${side} it`,
        {
          expected: `every item with ${range.property} ${range.bound === 'lower' ? 'at or after' : 'at or before'} ${operand}`,
          actual: show(strays.slice(0, 3)),
        },
      ),
    ],
  };
}

/** A field matches a free-text filter loosely: equal, or containing it whatever the letter case (a search may be fuzzy). */
function matchesText(value: unknown, text: string): boolean {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  return String(value).toLowerCase().includes(text.toLowerCase());
}

/** The field value of the listed items that most items do not share, so that a filter by it must leave some out. */
function telling(items: readonly unknown[], path: readonly string[]): string | undefined {
  const values = items
    .map((item) => nestedValue(item, path))
    .filter((value) => typeof value === 'string' && value !== '');
  const counts = new Map<string, number>();
  for (const value of values as string[]) counts.set(value, (counts.get(value) ?? 0) + 1);
  const rarest = [...counts].sort((a, b) => a[1] - b[1])[0];
  if (!rarest) return undefined;
  // A value every other one contains (`Porto` within `Porto Alegre`) would not tell a loose match from an ignored filter.
  const others = values.filter((value) => value !== rarest[0]) as string[];
  return others.length > 0 && others.every((value) => !matchesText(value, rarest[0])) ? rarest[0] : undefined;
}

/**
 * A free-text filter keeps the items whose field matches it: with the value the request already
 * sends (a required `venue_id`), else with a value read from the unfiltered list that some items
 * do not have. Items without the field are not judged.
 */
async function judgeText(
  context: CheckContext,
  check: string,
  filter: TextFilter,
  reads: Exchange[],
): Promise<{ judged: number; failures: CheckFailure[] }> {
  const { operation } = context;
  const query = { ...validRequest(context, operation, 'a list').query };
  if (operation.limit?.maximum !== undefined) query[operation.limit.name] = String(operation.limit.maximum);
  let text = query[filter.name];
  if (text === undefined) {
    const first = await list(context, query, `${operation.id} to see ${filter.path.join('.')}`);
    text = telling(first.items ?? [], filter.path);
    if (text === undefined) return { judged: 0, failures: [] };
  }
  const field = filter.path.join('.');
  const { exchange, items } = await list(
    context,
    { ...query, [filter.name]: text },
    `${operation.id} with ${filter.name}=${text}`,
  );
  reads.push(exchange);
  if (!items) return { judged: 0, failures: [] };
  const judged = items.filter((item) => nestedValue(item, filter.path) !== undefined);
  const strays = judged.filter((item) => !matchesText(nestedValue(item, filter.path), text));
  if (strays.length === 0) return { judged: judged.length, failures: [] };
  return {
    judged: judged.length,
    failures: [
      failure(
        check,
        'error',
        exchange,
        `${filter.name}=${text} returned ${strays.length} of ${items.length} items with another ${field}`,
        { expected: `every item with ${field} matching ${show(text)}`, actual: show(strays.slice(0, 3)) },
      ),
    ],
  };
}

/**
 * An enum query parameter named after a property of the listed items filters by that property:
 * every item returned has that value, and a resource created with it is among them.
 */
export const filterHonoured: ScenarioCheck = {
  name: 'filter-honoured',
  kind: 'scenario',
  severity: 'error',
  description: 'a filter named after an item field (enum, flag, text, nested, range) returns only matching items',
  skipReason(operation) {
    return operation.role === 'list' &&
      (operation.filters.length > 0 || operation.ranges.length > 0 || operation.textFilters.length > 0)
      ? undefined
      : 'no query parameter filters a property of the listed items';
  },
  async run(context) {
    const { operation } = context;
    const failures: CheckFailure[] = [];
    const cap = operation.limit?.maximum;
    let patient = true;
    // A search's query narrows what it lists: items created without that query need not show in it.
    const search = searchOnly(operation) !== undefined;
    let judged = 0;
    const reads: Exchange[] = [];
    for (const filter of operation.filters) {
      for (const text of filter.values.slice(0, context.settings.maxExamples)) {
        const value = filterValue(filter, text);
        const created = context.state.created.get(operation.collection ?? '') ?? [];
        if (!search && !created.some((resource) => resource.returned[filter.property] === value))
          await createInCollection(context, 1, { [filter.property]: value });
        const query: Record<string, string> = {
          ...validRequest(context, operation, 'a list').query,
          [filter.name]: text,
        };
        if (cap !== undefined) query[operation.limit!.name] = String(cap);
        const { exchange, items } = await list(context, query, `${operation.id} with ${filter.name}=${text}`);
        reads.push(exchange);
        if (!items) continue;
        judged += items.length;
        const strays = items.filter(
          (item) =>
            item === null || typeof item !== 'object' || (item as Record<string, unknown>)[filter.property] !== value,
        );
        if (strays.length > 0) {
          failures.push(
            failure(
              this.name,
              this.severity,
              exchange,
              `${filter.name}=${text} returned ${strays.length} of ${items.length} items with another ${filter.property}`,
              { expected: `every item with ${filter.property} ${show(value)}`, actual: show(strays.slice(0, 3)) },
            ),
          );
          continue;
        }
        const idProperty = operation.idProperty;
        // Only those created under the parents listed (a sub-resource's other parents hold others).
        const listed = new URL(exchange.request.url).pathname;
        const mine = (context.state.created.get(operation.collection ?? '') ?? []).filter(
          (resource) =>
            resource.returned[filter.property] === value &&
            resource.id !== undefined &&
            resource.changedUnseen !== true &&
            (resource.scope === undefined || resource.scope === listed),
        );
        if (search || !idProperty || mine.length === 0 || (cap !== undefined && items.length >= cap)) continue;
        const missing = mine.filter(
          (resource) => !items.some((item) => sameJson((item as Record<string, unknown>)[idProperty], resource.id)),
        );
        if (missing.length === 0) continue;
        // A list that lags its writes shows them after a while: that is list-freshness's warning.
        const again = await awaitListed(
          context,
          operation,
          { query, ids: missing.map((resource) => idKey(resource.id)) },
          `${operation.id} with ${filter.name}=${text} (again)`,
          { patient },
        );
        if (again.missing.length > 0) {
          patient = false;
          failures.push(
            failure(
              this.name,
              this.severity,
              again.exchange,
              `${filter.name}=${text} misses ${missing.length} resource(s) created with it (first: ${show(missing[0]!.id)})`,
              {
                expected: `items including ${idProperty} ${show(missing[0]!.id)}`,
                actual: `${again.items?.length ?? 0} items without it, read ${again.reads + 1} times`,
              },
            ),
          );
        }
      }
    }
    for (const filter of operation.textFilters) {
      const outcome = await judgeText(context, this.name, filter, reads);
      judged += outcome.judged;
      failures.push(...outcome.failures);
    }
    for (const range of operation.ranges) {
      const outcome = await judgeRange(context, this.name, range);
      judged += outcome.judged;
      failures.push(...outcome.failures);
    }
    if (judged === 0 && failures.length === 0) {
      // No filtered list answered with items at all: the filter was never exercised.
      if (reads.length > 0 && !reads.some((exchange) => isSuccess(exchange) && Array.isArray(jsonBody(exchange))))
        return { failures, unexercised: `no filtered list answered 2xx with an array of items: ${tallyOf(reads)}` };
      return { failures, skipped: 'every filtered list came back empty: no item to judge the filter by' };
    }
    return { failures };
  },
};
