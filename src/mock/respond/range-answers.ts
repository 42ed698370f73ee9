import { inRange, type RangeFilter } from '../../openapi/range-filters.js';
import type { NestedFilter, ResourceList } from '../../openapi/resource-model.js';
import { nestedValue } from '../../openapi/resource-list.js';
import type { RequestInput } from '../../http/responder.js';

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

/** The nested filters a request sent (`city` for `address.city`), each with its value. */
export function nestedAsked(list: ResourceList, input: RequestInput): { filter: NestedFilter; value: unknown }[] {
  return list.nestedFilters.flatMap((filter) =>
    input.query[filter.name] === undefined ? [] : [{ filter, value: input.query[filter.name] }],
  );
}

/** The stored items whose nested fields equal every value asked. */
export function withNested<T extends { value: Record<string, unknown> }>(
  items: readonly T[],
  nested: readonly { filter: NestedFilter; value: unknown }[],
): T[] {
  return items.filter((item) => nested.every(({ filter, value }) => nestedValue(item.value, filter.path) === value));
}
