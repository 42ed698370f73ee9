import type { Operation } from './operations.js';
import { jsonMediaType } from './operations.js';
import type { ResourceList } from './resource-types.js';

type Item = Record<string, unknown>;

const isItem = (value: unknown): value is Item => typeof value === 'object' && value !== null && !Array.isArray(value);

function successExamples(operation: Operation | undefined): unknown[] {
  if (!operation) return [];
  return operation.responses
    .filter((response) => /^2\d\d$/.test(response.status))
    .flatMap((response) => [...(jsonMediaType(response.content)?.examples.values() ?? [])]);
}

function listed(example: unknown, wrapper: string | undefined): unknown[] {
  const array = wrapper === undefined ? example : isItem(example) ? example[wrapper] : undefined;
  return Array.isArray(array) ? array : [];
}

/** The item of a read or create example: itself, or the one object it wraps (`{"data": {...}}`) carrying the key. */
function single(example: unknown, key: string): unknown {
  if (!isItem(example) || key in example) return example;
  const wrapped = Object.values(example).filter((value) => isItem(value) && key in value);
  return wrapped.length === 1 ? wrapped[0] : example;
}

/**
 * The items a document shows for a resource, in document order: list examples first, then read
 * and create response examples (unwrapped); one per key value, and only objects that carry the key.
 */
export function exampleItems(
  operations: Partial<Record<string, Operation>>,
  lists: readonly ResourceList[],
  key: string,
): Item[] {
  const candidates: unknown[] = [
    ...lists.flatMap((list) => successExamples(list.operation).flatMap((example) => listed(example, list.wrapper))),
    ...successExamples(operations.read).map((example) => single(example, key)),
    ...successExamples(operations.create).map((example) => single(example, key)),
  ];
  const seen = new Set<string>();
  const items: Item[] = [];
  for (const candidate of candidates) {
    if (!isItem(candidate) || candidate[key] === undefined || candidate[key] === null) continue;
    const id = JSON.stringify(candidate[key]);
    if (seen.has(id)) continue;
    seen.add(id);
    items.push(candidate);
  }
  return items;
}
