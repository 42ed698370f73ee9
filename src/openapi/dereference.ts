import { tokensOf } from './json-pointer.js';
import { contradictsTarget } from './ref-siblings.js';

/**
 * A bundled document (every `$ref` local) with each `$ref` replaced by the object it points at.
 * Referenced objects are shared, so cyclic schemas give a cyclic graph; a `$ref` with sibling
 * keywords becomes a shallow merge of its target and the siblings, but a sibling `type` that
 * contradicts the target's (ref-siblings.ts). Work is linear in the size of
 * the document however deep or long the chains of references are (swagger-parser's dereference
 * gives up past 500 levels of nesting, which a chain of 300 nested schemas reaches).
 * `$ref`s that point nowhere are left as they are (the loader has reported them).
 */
export function dereferenceDocument<T extends object>(document: T): T {
  const root = structuredClone(document) as unknown as Record<string, unknown>;
  const withSiblings: { holder: Container; key: string | number; ref: RefObject }[] = [];
  const stack: Container[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const [key, child] of entriesOf(node)) {
      if (!isObject(child)) continue;
      if (isRef(child)) {
        if (Object.keys(child).length > 1) {
          withSiblings.push({ holder: node, key, ref: child });
          stack.push(child);
        } else {
          const target = targetOf(root, child.$ref);
          if (target !== undefined) setEntry(node, key, target);
        }
        continue;
      }
      stack.push(child);
    }
  }
  const merged = new Map<RefObject, unknown>();
  for (const { holder, key, ref } of withSiblings) setEntry(holder, key, mergeOf(root, ref, merged, new Set()));
  return root as unknown as T;
}

type Container = Record<string, unknown> | unknown[];
interface RefObject {
  $ref: string;
  [sibling: string]: unknown;
}

function isObject(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function isRef(value: Container): value is RefObject {
  return !Array.isArray(value) && typeof (value as { $ref?: unknown }).$ref === 'string';
}

function entriesOf(node: Container): [string | number, unknown][] {
  return Array.isArray(node) ? node.map((value, index) => [index, value]) : Object.entries(node);
}

function setEntry(node: Container, key: string | number, value: unknown): void {
  (node as Record<string | number, unknown>)[key] = value;
}

/** The value a local `$ref` names, following `$ref`s met on the way (chains, refs inside refs); undefined when none. */
export function targetOf(root: unknown, ref: string, seen = new Set<string>()): unknown {
  if (!ref.startsWith('#') || seen.has(ref)) return undefined;
  seen.add(ref);
  let tokens: string[];
  try {
    tokens = tokensOf(ref);
  } catch {
    return undefined;
  }
  let node: unknown = root;
  for (const token of tokens) {
    if (isObject(node) && isRef(node) && Object.keys(node).length === 1) node = targetOf(root, node.$ref, seen);
    if (!isObject(node)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  if (isObject(node) && isRef(node) && Object.keys(node).length === 1) return targetOf(root, node.$ref, seen);
  return node;
}

function mergeOf(root: Container, ref: RefObject, merged: Map<RefObject, unknown>, seen: Set<RefObject>): unknown {
  const done = merged.get(ref);
  if (done !== undefined) return done;
  const { $ref, ...siblings } = ref;
  let target = targetOf(root, $ref);
  if (isObject(target) && isRef(target) && !seen.has(target)) {
    seen.add(target);
    target = mergeOf(root, target, merged, seen);
  }
  const result = isObject(target) && !Array.isArray(target) ? { ...target, ...compatible(siblings, target) } : ref;
  merged.set(ref, result);
  return result;
}

/** The siblings of a `$ref` but a `type` the target declares otherwise. */
function compatible(siblings: Record<string, unknown>, target: Record<string, unknown>): Record<string, unknown> {
  if (!contradictsTarget(siblings.type, target.type)) return siblings;
  const { type: _contradicting, ...rest } = siblings;
  return rest;
}
