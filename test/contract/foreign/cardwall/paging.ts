// Cardwall's two pagination styles: `page`/`per_page` with an RFC 8288 Link header (boards), and an
// opaque `cursor` with `limit` in a {data, meta} envelope (cards, comments).
import { integerText, single, type Incoming } from '../http-kit.js';
import type { Cardwall } from './context.js';

/** The base path of the document's server URL. */
const CARDWALL_BASE = '/v1';
export const BOARDS_PER_PAGE = { default: 20, max: 100 };

/** A bounded integer query parameter, its default when absent; anything else is a 400. */
export function boundedInteger(
  api: Cardwall,
  request: Incoming,
  name: string,
  bounds: { min: number; max: number; fallback: number },
): number {
  const text = single(request.query, name, (detail) => api.refuse(400, detail));
  if (text === undefined) return bounds.fallback;
  const value = integerText(text);
  if (value === undefined || value < bounds.min || value > bounds.max)
    throw api.refuse(400, `${name} must be an integer from ${bounds.min} to ${bounds.max}: got ${text}`);
  return value;
}

/** An enum query parameter, undefined when absent. */
export function enumQuery<T extends string>(
  api: Cardwall,
  request: Incoming,
  name: string,
  choices: readonly T[],
): T | undefined {
  const text = single(request.query, name, (detail) => api.refuse(400, detail));
  if (text === undefined || choices.includes(text as T)) return text as T | undefined;
  throw api.refuse(400, `${name} must be one of ${choices.join(', ')}: got ${text}`);
}

/** One page of `items` by page/per_page, with its Link and X-Total-Count headers. */
export function linkPage<T>(
  api: Cardwall,
  request: Incoming,
  items: readonly T[],
): { page: T[]; headers: Record<string, string> } {
  const page = boundedInteger(api, request, 'page', { min: 1, max: 1_000_000, fallback: 1 });
  const max = api.on('per-page-above-max') ? 1000 : BOARDS_PER_PAGE.max;
  const asked = boundedInteger(api, request, 'per_page', { min: 1, max, fallback: BOARDS_PER_PAGE.default });
  const perPage = api.on('boards-per-page-ignored') ? BOARDS_PER_PAGE.default : asked;
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const target = (number: number) => pageUrl(api, request, number, asked);
  const links: string[] = [];
  if (page < last || api.on('boards-next-on-last-page'))
    links.push(`<${target(api.on('boards-next-same-page') ? page : page + 1)}>; rel="next"`);
  if (page > 1) links.push(`<${target(Math.min(page - 1, last))}>; rel="prev"`);
  if (api.variant.links === 'absolute') links.push(`<${target(1)}>; rel="first"`, `<${target(last)}>; rel="last"`);
  const headers: Record<string, string> = api.on('total-count-missing')
    ? {}
    : { 'x-total-count': String(items.length) };
  if (links.length > 0) headers.link = links.join(', ');
  return { page: items.slice((page - 1) * perPage, page * perPage), headers };
}

function pageUrl(api: Cardwall, request: Incoming, page: number, perPage: number): string {
  const query = new URLSearchParams(request.query);
  query.set('page', String(page));
  query.set('per_page', String(perPage));
  const path = `${CARDWALL_BASE}${request.path}?${query.toString()}`;
  return api.variant.links === 'absolute' ? `${request.origin}${path}` : path;
}

/** One page of `items` by cursor/limit, as {data, meta}. */
export function cursorPage<T extends { id: string }>(
  api: Cardwall,
  request: Incoming,
  items: readonly T[],
  limits: { fallback: number; kind: 'cards' | 'comments' },
): { data: T[]; meta: Record<string, unknown> } {
  const cursor = single(request.query, 'cursor', (detail) => api.refuse(400, detail));
  const limit = boundedInteger(api, request, 'limit', { min: 1, max: 50, fallback: limits.fallback });
  const start = cursor === undefined ? 0 : startOf(api, cursor, items);
  const cards = limits.kind === 'cards';
  const data = items.slice(start, start + limit + (cards && api.on('cards-limit-plus-one') ? 1 : 0));
  const end = start + limit;
  const restart = cards && api.on('cards-cursor-restarts');
  const next = end < items.length ? cursorFor(api, restart ? 0 : end, items) : null;
  if (next === null && cards && api.on('cards-next-cursor-omitted')) return { data, meta: { has_more: false } };
  return { data, meta: { next_cursor: next, has_more: next !== null } };
}

function cursorFor<T extends { id: string }>(api: Cardwall, start: number, items: readonly T[]): string {
  const text = api.variant.cursor === 'offset' ? `o:${start}` : `a:${start === 0 ? '' : items[start - 1]!.id}`;
  return Buffer.from(text).toString('base64url');
}

function startOf<T extends { id: string }>(api: Cardwall, cursor: string, items: readonly T[]): number {
  const text = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const offset = /^o:(\d{1,9})$/.exec(text);
  if (offset && api.variant.cursor === 'offset') return Number(offset[1]);
  const after = /^a:(.*)$/.exec(text);
  if (after && api.variant.cursor === 'after-id') {
    if (after[1] === '') return 0;
    const index = items.findIndex((item) => item.id === after[1]);
    if (index >= 0) return index + 1;
  }
  throw api.refuse(400, `cursor is not one this list gave: ${cursor}`);
}
