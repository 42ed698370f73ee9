// Clinic's list conventions: page[number]/page[size], sort, and the list document with its
// pagination links and meta.total. A query parameter out of its schema is a 400 naming it.
import { integerText, single, type Incoming } from '../http-kit.js';
import type { Clinic } from './context.js';

const DEFAULT_SIZE = 20;
const MAX_SIZE = 50;

/** The one value of a query parameter (400 when repeated). */
export function queryValue(api: Clinic, request: Incoming, name: string): string | undefined {
  return single(request.query, name, (detail) =>
    api.refuse(400, 'Invalid query parameter', detail, { parameter: name }),
  );
}

function pageParameter(api: Clinic, request: Incoming, name: string, max: number, fallback: number): number {
  const text = queryValue(api, request, name);
  if (text === undefined) return fallback;
  const value = integerText(text);
  if (value !== undefined && value >= 1 && value <= max) return value;
  throw api.refuse(400, 'Invalid query parameter', `${name} must be an integer from 1 to ${max}`, { parameter: name });
}

/** One sort key: an attribute's value of an item, and the direction. */
export type SortKey<T> = { value: (item: T) => string | number; descending: boolean };

/** The `sort` parameter as keys over `sortable` (400 for any other attribute). */
export function sortKeys<T>(
  api: Clinic,
  request: Incoming,
  sortable: Readonly<Record<string, (item: T) => string | number>>,
): SortKey<T>[] {
  const text = queryValue(api, request, 'sort');
  if (text === undefined) return [];
  return text.split(',').flatMap((field) => {
    const descending = field.startsWith('-');
    const value = sortable[descending ? field.slice(1) : field];
    if (value) return [{ value, descending }];
    if (api.on('unknown-sort-accepted')) return [];
    throw api.refuse(400, 'Invalid sort', `Cannot sort on ${field}`, { parameter: 'sort' });
  });
}

/** `items` sorted by `keys`, ties by id order (the order they have). */
export function sorted<T>(items: readonly T[], keys: readonly SortKey<T>[]): T[] {
  return [...items].sort((a, b) => {
    for (const { value, descending } of keys) {
      const [x, y] = [value(a), value(b)];
      if (x !== y) return (x < y ? -1 : 1) * (descending ? -1 : 1);
    }
    return 0;
  });
}

/** The list document of `items`: one page, links and meta. */
export function listDocument<T>(
  api: Clinic,
  request: Incoming,
  items: readonly T[],
  options: { write: (item: T) => Record<string, unknown>; sizeIgnored?: boolean; sizeUnbounded?: boolean },
): Record<string, unknown> {
  const number = pageParameter(api, request, 'page[number]', Number.MAX_SAFE_INTEGER, 1);
  const asked = pageParameter(api, request, 'page[size]', options.sizeUnbounded ? 1000 : MAX_SIZE, DEFAULT_SIZE);
  const size = options.sizeIgnored ? DEFAULT_SIZE : asked;
  const page = items.slice((number - 1) * size, number * size);
  const last = Math.max(1, Math.ceil(items.length / size));
  const linkTo = (target: number) => pageLink(api, request, target, asked);
  const hasNext = number < last || api.on('next-on-last-page');
  const links: Record<string, unknown> = {
    self: linkTo(number),
    first: linkTo(1),
    last: linkTo(last),
    prev: number > 1 ? linkTo(number - 1) : null,
    next: hasNext ? linkTo(api.on('next-repeats-page') ? number : number + 1) : null,
  };
  if (api.variant.links === 'path-objects')
    for (const rel of ['prev', 'next']) if (links[rel] === null) delete links[rel];
  const total = api.on('total-is-page-count') ? page.length : items.length;
  return { data: page.map(options.write), links, meta: { total, ...api.variant.extraMeta } };
}

function pageLink(api: Clinic, request: Incoming, number: number, size: number): string | { href: string } {
  const query = new URLSearchParams(request.query);
  query.set('page[number]', String(number));
  query.set('page[size]', String(size));
  return api.link(`${request.path}?${query.toString()}`);
}
