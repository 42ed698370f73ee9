import { valueAt } from './json-pointer.js';

/**
 * The local `$ref` targets a schema at `pointer` reaches, deepest first, that themselves hold
 * references: compiled in this order, each compile finds its references compiled already.
 *
 * ajv compiles a schema's references recursively, one level of its own stack per reference, so a
 * chain of a few hundred schemas each referring to the next (`Model0.next → Model1 → …`) overflows
 * the call stack, and the failed compile leaves half-compiled validators behind. Schemas without
 * references are left out: ajv inlines or compiles them without going deeper.
 */
export function referencesFirst(document: unknown, pointer: string): string[] {
  const order: string[] = [];
  const seen = new Set<string>([pointer]);
  // An explicit stack (a recursive walk would overflow where ajv does): [pointer, its refs, next index].
  const stack: [string, string[], number][] = [[pointer, localRefsIn(valueAt(document, pointer)), 0]];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const [at, refs, index] = top;
    if (index === refs.length) {
      stack.pop();
      if (at !== pointer) order.push(at);
      continue;
    }
    top[2] = index + 1;
    const next = refs[index]!;
    if (seen.has(next)) continue;
    seen.add(next);
    const nested = localRefsIn(valueAt(document, next));
    if (nested.length > 0) stack.push([next, nested, 0]);
  }
  return order;
}

/** Every local `$ref` (`#/…`) inside `schema`, without following them. */
function localRefsIn(schema: unknown): string[] {
  const refs = new Set<string>();
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      pending.push(...(node as unknown[]));
      continue;
    }
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) refs.add(value);
      else if (typeof value === 'object') pending.push(value);
    }
  }
  return [...refs];
}
