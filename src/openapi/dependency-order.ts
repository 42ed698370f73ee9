import type { Operation } from './operations.js';
import type { ReferenceEdges } from './reference-edges.js';
import type { ResourceModel } from './resource-model.js';

/**
 * The operations in an order where producers come before consumers: an operation that lists or
 * creates a resource runs before every operation with a slot that resource feeds (RESTler's
 * producer-consumer order). Operations otherwise keep document order; a cycle is broken by
 * taking the earliest operation still waiting.
 */
export function dependencyOrder(
  operations: readonly Operation[],
  model: ResourceModel,
  references: ReferenceEdges,
): Operation[] {
  const producers = new Map<string, Operation[]>();
  for (const operation of operations) {
    const binding = model.bindingOf(operation);
    if (!binding || (binding.role !== 'list' && binding.role !== 'create')) continue;
    const list = producers.get(binding.resource.path) ?? [];
    list.push(operation);
    producers.set(binding.resource.path, list);
  }
  const waitsFor = new Map<Operation, Set<Operation>>();
  for (const operation of operations) {
    const needs = new Set<Operation>();
    for (const edge of references.of(operation))
      for (const producer of producers.get(edge.resource) ?? []) if (producer !== operation) needs.add(producer);
    waitsFor.set(operation, needs);
  }
  const ordered: Operation[] = [];
  const done = new Set<Operation>();
  const pending = [...operations];
  while (pending.length > 0) {
    const ready = pending.findIndex((operation) => [...waitsFor.get(operation)!].every((need) => done.has(need)));
    const [next] = pending.splice(ready === -1 ? 0 : ready, 1);
    ordered.push(next!);
    done.add(next!);
  }
  return ordered;
}
