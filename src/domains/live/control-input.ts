import { ProblemError } from '../../core/problem.js';
import type { Responder } from '../../http/responder.js';

/** What a control API handler is given: the request's validated path, query and body. */
export type Input = Parameters<Responder>[1];

/** `key` of a parsed body or parameter object, read as an own property: a `__proto__` key is never read through. */
export function own(record: unknown, key: string): unknown {
  return typeof record === 'object' && record !== null && Object.hasOwn(record, key)
    ? (record as Record<string, unknown>)[key]
    : undefined;
}

/** A 400 naming the body field that is not what the operation takes. */
export function invalidBody(key: string, expected: string): ProblemError {
  return new ProblemError(400, 'invalid_body', `Request body is invalid: /${key} must be ${expected}`);
}

/** A body field that must be a string (the validator has checked it; this holds even if it was fooled). */
export function text(input: Input, key: string): string {
  const value = own(input.body.value, key);
  if (typeof value !== 'string') throw invalidBody(key, 'a string');
  return value;
}

/** An optional body field, undefined when absent, refused when not of `type`. */
export function optional<T>(input: Input, key: string, type: 'string' | 'boolean' | 'number'): T | undefined {
  const value = own(input.body.value, key);
  if (value !== undefined && typeof value !== type) throw invalidBody(key, `a ${type}`);
  return value as T | undefined;
}

/** `value` when it is one of `allowed`. */
export function member<T extends string>(key: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw invalidBody(key, `one of ${allowed.join(', ')}`);
  return value as T;
}

/** A record value as data of its own: an object keeps only its own fields, with no `__proto__`. */
export function ownData(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== '__proto__'));
}

/** A path parameter, as text. */
export function param(input: Input, name: string): string {
  return String(own(input.path, name));
}

/** A query parameter the spec declares as a string; undefined when absent. */
export function query(input: Input, name: string): string | undefined {
  return own(input.query, name) as string | undefined;
}

/** The newest `limit` items (the query parameter, validated by the spec as 1..10000), all when absent. */
export function newest<T>(input: Input, items: T[]): T[] {
  const limit = own(input.query, 'limit');
  return limit === undefined ? items : items.slice(-Number(limit));
}
