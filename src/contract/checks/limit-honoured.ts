import type { CheckContext, CheckFailure, Exchange, ScenarioCheck } from '../types.js';
import { failure } from './failure.js';
import { list } from './list-reads.js';
import { createInCollection } from './test-data.js';

function lengthFailure(
  check: string,
  exchange: Exchange,
  what: string,
  expected: string,
  actual: number,
): CheckFailure {
  return failure(check, 'error', exchange, `${what}: ${actual} items`, { expected, actual: `${actual} items` });
}

/** How many items exist, up to `cap` (the answer to the largest allowed limit); undefined if unknown. */
async function countUpTo(context: CheckContext, cap: number): Promise<number | undefined> {
  const { items } = await list(
    context,
    { [context.operation.limit!.name]: String(cap) },
    `${context.operation.id} with the largest limit`,
  );
  return items?.length;
}

/**
 * No finding is a pass only where some limit asked for fewer items than the list holds: a list
 * that never grew past the smallest limit (the document gives no create, the store stayed small)
 * would show the same items whether the limit is honoured or ignored.
 */
function honest(failures: CheckFailure[], total: number, smallest: number) {
  if (failures.length > 0 || total > smallest) return { failures };
  return {
    failures,
    unexercised: `the list never held more than ${total} item(s), no more than the smallest limit asked`,
  };
}

/**
 * A limit-like parameter bounds the list: `limit=N` gives min(N, total) items, no limit gives the
 * default, and a value beyond the maximum (or below a stated minimum) is rejected or clamped, never
 * honoured. The store is
 * first filled past the maximum (unless --read-only) so that every bound can show.
 */
export const limitHonoured: ScenarioCheck = {
  name: 'limit-honoured',
  kind: 'scenario',
  severity: 'error',
  description: 'a limit parameter bounds the list and its default applies',
  skipReason(operation) {
    return operation.role === 'list' && operation.limit ? undefined : 'no limit-like query parameter';
  },
  async run(context) {
    const limit = context.operation.limit!;
    const cap = limit.maximum ?? Math.max(limit.default ?? 0, 20);
    let total = await countUpTo(context, cap);
    if (total !== undefined && total < cap + 1 && !context.settings.readOnly) {
      await createInCollection(context, cap + 1 - total);
      total = await countUpTo(context, cap);
    }
    if (total === undefined)
      return { failures: [], unexercised: `${context.operation.id} never answered 2xx with an array of items` };
    const failures: CheckFailure[] = [];
    if (limit.default !== undefined) {
      const { exchange, items } = await list(context, {}, `${context.operation.id} without ${limit.name}`);
      const expected = Math.min(limit.default, total);
      if (items && items.length !== expected)
        failures.push(
          lengthFailure(
            this.name,
            exchange,
            `without ${limit.name} (default ${limit.default})`,
            `${expected} items`,
            items.length,
          ),
        );
    }
    const sizes = [...new Set([limit.minimum, Math.min(limit.minimum + 6, cap), cap])];
    for (const size of sizes) {
      const { exchange, items } = await list(
        context,
        { [limit.name]: String(size) },
        `${context.operation.id} with ${limit.name}=${size}`,
      );
      const expected = Math.min(size, total);
      if (items && items.length !== expected)
        failures.push(lengthFailure(this.name, exchange, `${limit.name}=${size}`, `${expected} items`, items.length));
    }
    const filter = context.operation.filters[0];
    if (filter) {
      const { exchange, items } = await list(
        context,
        { [filter.name]: filter.values[0]!, [limit.name]: String(limit.minimum) },
        `${context.operation.id} with ${filter.name} and ${limit.name}=${limit.minimum}`,
      );
      if (items && items.length > limit.minimum)
        failures.push(
          lengthFailure(
            this.name,
            exchange,
            `${limit.name}=${limit.minimum} with ${filter.name}`,
            `at most ${limit.minimum} items`,
            items.length,
          ),
        );
    }
    if (limit.maximum !== undefined) {
      for (const size of [limit.maximum + 1, limit.maximum * 10]) {
        const { exchange, items } = await list(
          context,
          { [limit.name]: String(size) },
          `${context.operation.id} with ${limit.name}=${size} (above the maximum ${limit.maximum})`,
          'invalid',
        );
        if (items && items.length > limit.maximum)
          failures.push(
            lengthFailure(
              this.name,
              exchange,
              `${limit.name}=${size} was honoured beyond the maximum ${limit.maximum}`,
              `a 4xx, or at most ${limit.maximum} items`,
              items.length,
            ),
          );
      }
    }
    // Below the minimum only where the schema states one: without it, 0 may be a fair request.
    if (!limit.minimumDocumented) return honest(failures, total, Math.min(...sizes, limit.default ?? Infinity));
    const below = limit.minimum - 1;
    const { exchange, items } = await list(
      context,
      { [limit.name]: String(below) },
      `${context.operation.id} with ${limit.name}=${below} (below the minimum ${limit.minimum})`,
      'invalid',
    );
    // Rejected (4xx), clamped to the minimum, or treated as the default: all fair. Honoured (fewer
    // items than the minimum allows) or unbounded is not.
    const floor = Math.min(limit.minimum, total);
    const ceiling = limit.default ?? cap;
    if (items && (items.length < floor || items.length > ceiling)) {
      failures.push(
        lengthFailure(
          this.name,
          exchange,
          `${limit.name}=${below} (below the minimum ${limit.minimum}) was not rejected or clamped`,
          `a 4xx, or ${floor} to ${ceiling} items`,
          items.length,
        ),
      );
    }
    return honest(failures, total, Math.min(...sizes, limit.default ?? Infinity));
  },
};
