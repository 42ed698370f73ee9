import { inRange, type RangeFilter } from '../openapi/range-filters.js';
import type { ResourceList } from '../openapi/resource-model.js';
import type { RequestInput } from '../http/responder.js';

/** The range filters a request sent, each with its value. */
export function rangesAsked(list: ResourceList, input: RequestInput): { filter: RangeFilter; operand: unknown }[] {
  return list.ranges.flatMap((filter) =>
    input.query[filter.name] === undefined ? [] : [{ filter, operand: input.query[filter.name] }],
  );
}

/** The stored items whose values lie within every range asked. */
export function withinRanges<T extends { value: Record<string, unknown> }>(
  items: readonly T[],
  ranges: readonly { filter: RangeFilter; operand: unknown }[],
): T[] {
  return items.filter((item) =>
    ranges.every(({ filter, operand }) => inRange(item.value[filter.property], filter, operand)),
  );
}
