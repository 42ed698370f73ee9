// The Museum's paged lists (getMuseumHours, listSpecialEvents): `page` from 1 (default 1) and
// `limit` from 1 to 30 (default 10); a list is a bare array, a page after the last is empty.
import { integerText, isFullDate, single, type Incoming } from '../http-kit.js';
import type { Museum } from './context.js';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 30;

type List = 'hours' | 'events';

/** The requested slice of `items`, after reading and checking `page` and `limit`. */
export function pageOf<T>(api: Museum, request: Incoming, list: List, items: readonly T[]): T[] {
  const { page, limit } = readPaging(api, request, list);
  const ignoresPage =
    (list === 'hours' && api.on('hours-page-ignored')) || (list === 'events' && api.on('events-page-ignored'));
  const start = ignoresPage ? 0 : (page - 1) * limit;
  const extra = list === 'hours' && api.on('hours-page-larger-than-limit') ? 1 : 0;
  return items.slice(start, start + limit + extra);
}

function readPaging(api: Museum, request: Incoming, list: List): { page: number; limit: number } {
  const refuse = (detail: string) => api.badRequest(detail);
  const hours = list === 'hours';
  const pageText = single(request.query, 'page', refuse);
  const limitText = single(request.query, 'limit', refuse);
  const page = pageText === undefined ? 1 : integerText(pageText);
  if (page === undefined || page < 1) throw refuse(`page must be an integer of at least 1, got ${pageText}`);
  const fallback = hours && api.on('hours-default-limit-7') ? 7 : DEFAULT_LIMIT;
  let limit = limitText === undefined ? fallback : integerText(limitText);
  if (limit === undefined && hours && api.on('hours-limit-non-integer-accepted')) limit = fallback;
  const aboveMax = limit !== undefined && limit > MAX_LIMIT && hours && api.on('hours-limit-above-max-honoured');
  if (limit === undefined || limit < 1 || (limit > MAX_LIMIT && !aboveMax))
    throw refuse(`limit must be an integer from 1 to ${MAX_LIMIT}, got ${limitText}`);
  return { page, limit: hours && api.on('hours-limit-ignored') ? DEFAULT_LIMIT : limit };
}

/** A date query parameter (`startDate`, `endDate`), or undefined when absent. */
export function readDate(api: Museum, request: Incoming, name: string, { lenient = false } = {}): string | undefined {
  const text = single(request.query, name, (detail) => api.badRequest(detail));
  if (text === undefined || isFullDate(text)) return text;
  if (lenient) return undefined;
  throw api.badRequest(`${name} must be a date (YYYY-MM-DD), got ${JSON.stringify(text)}`);
}
