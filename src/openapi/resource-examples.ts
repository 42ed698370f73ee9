import type { LoadedDocument } from './load.js';
import type { Operation } from './operations.js';
import { jsonMediaType } from './operations.js';
import type { ResourceList } from './resource-model.js';

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

/**
 * The items a document shows for a resource, in document order: list examples first, then read
 * and create response examples; one per key value, and only objects that carry the key.
 */
export function exampleItems(
  _document: LoadedDocument,
  operations: Partial<Record<string, Operation>>,
  lists: readonly ResourceList[],
  key: string,
): Item[] {
  const candidates: unknown[] = [
    ...lists.flatMap((list) => successExamples(list.operation).flatMap((example) => listed(example, list.wrapper))),
    ...successExamples(operations.read),
    ...successExamples(operations.create),
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
