// Stagedoor's paged lists: `page` and `limit`, the `links` of a page and the optional Link header.
import { integerText, single, type Incoming } from '../http-kit.js';
import type { Stagedoor } from './context.js';

export const MAX_LIMIT = 50;

export interface PageRequest {
  page: number;
  limit: number;
}

export interface Page<T> {
  data: T[];
  links: Record<string, string | null>;
  /** The page's number, for items that show it. */
  page: number;
  headers: Record<string, string>;
  total: number;
}

/** Reads `page` and `limit`, refusing what the document's bounds refuse (unless a fault lets it through). */
export function readPageRequest(api: Stagedoor, request: Incoming): PageRequest {
  const refuse = (detail: string) => api.badRequest(detail);
  const pageText = single(request.query, 'page', refuse);
  const limitText = single(request.query, 'limit', refuse);
  let page = pageText === undefined ? 1 : integerText(pageText);
  if (page === 0 && api.on('page-zero-accepted')) page = 1;
  if (page === undefined || page < 1) throw refuse(`page must be an integer of at least 1, got ${pageText}`);
  const limit = limitText === undefined ? api.variant.defaultLimit : integerText(limitText);
  const allowed =
    limit !== undefined &&
    ((limit >= 1 && limit <= MAX_LIMIT) ||
      (limit === 0 && api.on('limit-zero-accepted')) ||
      (limit > MAX_LIMIT && api.on('limit-above-max-honoured')));
  if (!allowed) throw refuse(`limit must be an integer from 1 to ${MAX_LIMIT}, got ${limitText}`);
  return { page, limit: limit };
}

/** The requested page of `items`, with its links (and faults). */
export function pageOf<T>(api: Stagedoor, request: Incoming, items: readonly T[], wanted: PageRequest): Page<T> {
  const { page, limit } = wanted;
  const lastPage = Math.max(1, Math.ceil(items.length / Math.max(limit, 1)));
  if (page > lastPage && api.on('page-beyond-last-500')) throw new RangeError(`page ${page} is past the last page`);
  const start = (page - 1) * limit - (page > 1 && api.on('items-repeated-across-pages') ? 1 : 0);
  const count = limit + (api.on('page-larger-than-limit') ? 1 : 0);
  const data = items.slice(start, start + count);
  const link = (target: number, { withLimit = true } = {}) =>
    pageLink(api, request, target, withLimit ? limit : undefined);
  let next: string | undefined;
  if (page < lastPage) next = link(page + 1, { withLimit: !api.on('next-drops-limit') });
  else if (api.on('next-on-last-page')) next = link(page + 1);
  else if (api.on('next-loops-to-first')) next = link(1);
  let prev: string | undefined;
  if (page > 1) prev = link(page - 1);
  else if (api.on('prev-on-first-page')) prev = link(0);
  const links: Record<string, string | null> = api.on('links-self-missing') ? {} : { self: link(page) };
  for (const [rel, target] of [
    ['next', next],
    ['prev', prev],
  ] as const) {
    if (target !== undefined) links[rel] = target;
    else if (api.variant.missingLink === 'null') links[rel] = null;
  }
  return { data, links, page, headers: linkHeader(api, next, prev), total: items.length };
}

/** The URL of page `target` of this list: the request's other parameters kept, in their order. */
function pageLink(api: Stagedoor, request: Incoming, target: number, limit: number | undefined): string {
  const query = new URLSearchParams();
  for (const [name, value] of request.query) if (name !== 'page' && name !== 'limit') query.append(name, value);
  query.set('page', String(target));
  if (limit !== undefined) query.set('limit', String(limit));
  const path = `/v2${request.path}?${query.toString()}`;
  return api.variant.absoluteLinks ? `${request.origin}${path}` : path;
}

function linkHeader(api: Stagedoor, next: string | undefined, prev: string | undefined): Record<string, string> {
  if (!api.variant.linkHeader) return {};
  const parts = [
    ...(next === undefined ? [] : [`<${next}>; rel="next"`]),
    ...(prev === undefined ? [] : [`<${prev}>; rel="prev"`]),
  ];
  return parts.length === 0 ? {} : { link: parts.join(', ') };
}
