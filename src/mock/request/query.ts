import type { Context } from 'koa';

/** A request's query parameters: repeated names become arrays, as Koa gives them. */
export type Query = Record<string, string | string[] | undefined>;

const CACHE = Symbol('kennel.query');

/**
 * The query of `ctx`, parsed once in linear time. Koa's own `ctx.query` calls `getAll` for every
 * name, which is quadratic: a 16 KB query of 3,500 parameters held the event loop for 0.3 s.
 */
export function queryOf(ctx: Context): Query {
  const cached = (ctx.state as Record<symbol, Query | undefined>)[CACHE];
  if (cached) return cached;
  const query = parseQuery(ctx.querystring);
  (ctx.state as Record<symbol, Query>)[CACHE] = query;
  return query;
}

/** Parses a query string (without `?`); names become own properties, `__proto__` included. */
export function parseQuery(text: string): Query {
  const query: Query = {};
  if (text === '') return query;
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = Object.hasOwn(query, name) ? query[name] : undefined;
    const next =
      previous === undefined ? value : Array.isArray(previous) ? (previous.push(value), previous) : [previous, value];
    if (name === '__proto__') {
      Object.defineProperty(query, name, { value: next, writable: true, enumerable: true, configurable: true });
    } else {
      query[name] = next;
    }
  }
  return query;
}
