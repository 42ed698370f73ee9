import type { CheckContext, CheckFailure, Exchange, ScenarioCheck } from '../types.js';
import { tallyOf } from './unexercised.js';
import { asOperand, inRange, rangeSlackMs, rangeValues } from '../../openapi/range-filters.js';
import { filterValue, type RangeFilter } from '../plan.js';
import { failure, isSuccess, jsonBody, sameJson, show, validRequest } from './support.js';
import { createInCollection, list } from './list-support.js';
import { awaitListed, idKey, searchOnly } from './collection-support.js';

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

/**
 * An enum query parameter named after a property of the listed items filters by that property:
 * every item returned has that value, and a resource created with it is among them.
 */
export const filterHonoured: ScenarioCheck = {
  name: 'filter-honoured',
  kind: 'scenario',
  severity: 'error',
  description: 'an enum filter named after an item property returns exactly the matching items',
  skipReason(operation) {
    return operation.role === 'list' && (operation.filters.length > 0 || operation.ranges.length > 0)
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
          query,
          missing.map((resource) => idKey(resource.id)),
          `${operation.id} with ${filter.name}=${text} (again)`,
          patient,
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
