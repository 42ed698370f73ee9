import LinkHeader from 'http-link-header';
import { ProblemError } from '../../core/problem.js';
import type { ResourceList } from '../../openapi/resource-model.js';
import type { PageFieldMeaning, PageParameter } from '../../openapi/pagination.js';
import type { RequestContext, RequestInput } from '../../http/responder.js';

/** Which part of a list a request asks for: items from `offset`, at most `limit` (Infinity: all). */
export interface PageWindow {
  offset: number;
  limit: number;
  /** The page number asked for (page-numbered lists). */
  number?: number;
}

/** A page as answered: its window, how many items it holds, how many match in all (when counted). */
export interface AnsweredPage extends PageWindow {
  count: number;
  /** Items matching the request in all; undefined when only `more` was found out. */
  total: number | undefined;
  /** Items follow this page. */
  more: boolean;
  /** The key of the page's last item (for `starting_after`-style cursors). */
  lastKey: string | undefined;
}

/** The request's URL with some query parameters set (or removed): links to other pages. */
export type PageUrl = (changes: Record<string, string | undefined>) => string;

const CURSOR_PREFIX = 'kennel:';

/**
 * A list whose document gives its next page only as a link (`links.next`, a `Link` header) and no
 * page parameter still has pages: its links carry this cursor of kennel's own, as a real server's
 * carry one the document never names.
 */
const LINK_CURSOR: PageParameter = { name: 'kennel_cursor', kind: 'cursor', first: 0 };

/**
 * The query a page is read from: the validated parameters, and kennel's own cursor from the raw
 * query (validation keeps only documented parameters).
 */
export function pagingQuery(
  list: ResourceList,
  input: RequestInput,
  request: Pick<RequestContext, 'query'>,
): Readonly<Record<string, unknown>> {
  const cursor = request.query[LINK_CURSOR.name];
  return pageParameterOf(list) === LINK_CURSOR && typeof cursor === 'string'
    ? { ...input.query, [LINK_CURSOR.name]: cursor }
    : input.query;
}

/** The parameter that chooses the page: the documented one, else kennel's own cursor for link-only paging. */
function pageParameterOf(list: ResourceList): PageParameter | undefined {
  const { parameter, next } = list.pagination;
  if (parameter) return parameter;
  return next?.kind === 'link' || next?.kind === 'header' ? LINK_CURSOR : undefined;
}

/** The opaque cursor kennel hands out for an offset. */
export function cursorFor(offset: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${offset}`).toString('base64url');
}

function offsetOfCursor(name: string, cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString();
  const offset = text.startsWith(CURSOR_PREFIX) ? Number(text.slice(CURSOR_PREFIX.length)) : NaN;
  if (Number.isSafeInteger(offset) && offset >= 0) return offset;
  throw new ProblemError(400, 'invalid_parameter', `query parameter "${name}" is not a cursor this list gave`);
}

/**
 * The window a list request asks for: `limit` (its default when absent, never above the array's
 * `maxItems`), from the page number, offset or cursor it sends. A cursor that names an item
 * (`starting_after=<id>`) is found with `indexOf`.
 */
export function pageWindow(
  list: ResourceList,
  query: Readonly<Record<string, unknown>>,
  indexOf: (key: string) => number | undefined = () => undefined,
): PageWindow {
  const asked = list.limit ? query[list.limit.name] : undefined;
  const limit = Math.min(
    typeof asked === 'number' ? asked : (list.limit?.default ?? Infinity),
    list.maxItems ?? Infinity,
  );
  const parameter = pageParameterOf(list);
  const sent = parameter ? query[parameter.name] : undefined;
  if (!parameter || sent === undefined) return { offset: 0, limit };
  if (parameter.kind === 'offset') return { offset: Math.max(0, Number(sent)), limit };
  if (parameter.kind === 'page') {
    const pages = Math.max(0, Number(sent) - parameter.first);
    // Without a page size everything is on the first page; the pages after it are empty.
    return { offset: Number.isFinite(limit) ? pages * limit : pages > 0 ? Infinity : 0, limit, number: Number(sent) };
  }
  const text = String(sent);
  if (list.pagination.next?.kind === 'after-last') {
    const index = indexOf(text);
    if (index === undefined)
      throw new ProblemError(400, 'invalid_parameter', `query parameter "${parameter.name}" names no item`);
    return { offset: index + 1, limit };
  }
  return { offset: offsetOfCursor(parameter.name, text), limit };
}

/** Query changes that lead to the page starting at `offset`, or undefined when the list has no page parameter. */
function pageAt(
  list: ResourceList,
  page: AnsweredPage,
  offset: number,
): Record<string, string | undefined> | undefined {
  const parameter = pageParameterOf(list);
  if (!parameter) return undefined;
  if (parameter.kind === 'offset') return { [parameter.name]: String(offset) };
  if (parameter.kind === 'page')
    return Number.isFinite(page.limit)
      ? { [parameter.name]: String(parameter.first + Math.floor(offset / page.limit)) }
      : undefined;
  if (offset === 0) return { [parameter.name]: undefined };
  if (list.pagination.next?.kind === 'after-last') return undefined;
  return { [parameter.name]: cursorFor(offset) };
}

/** The pages around `page` as query changes: next, previous, first and last (when known). */
function neighbours(list: ResourceList, page: AnsweredPage) {
  const step = Number.isFinite(page.limit) ? page.limit : page.count;
  const last = page.total !== undefined && step > 0 ? Math.max(0, Math.ceil(page.total / step) - 1) * step : undefined;
  const afterLast =
    list.pagination.next?.kind === 'after-last' && page.lastKey !== undefined && list.pagination.parameter
      ? { [list.pagination.parameter.name]: page.lastKey }
      : undefined;
  return {
    next: page.more ? (afterLast ?? pageAt(list, page, page.offset + step)) : undefined,
    prev: page.offset > 0 ? pageAt(list, page, Math.max(0, page.offset - step)) : undefined,
    first: pageAt(list, page, 0),
    last: last === undefined ? undefined : pageAt(list, page, last),
  };
}

/** The value a paging field takes for `page` (undefined: leave the field out, or null where that is allowed). */
export function fieldValue(meaning: PageFieldMeaning, list: ResourceList, page: AnsweredPage, url: PageUrl): unknown {
  const around = neighbours(list, page);
  const link = (changes: Record<string, string | undefined> | undefined) => (changes ? url(changes) : null);
  const token = (changes: Record<string, string | undefined> | undefined) =>
    changes && list.pagination.parameter ? (changes[list.pagination.parameter.name] ?? null) : null;
  const step = Number.isFinite(page.limit) ? page.limit : Math.max(page.count, 1);
  switch (meaning) {
    case 'self':
      return url({});
    case 'next':
    case 'prev':
    case 'first':
    case 'last':
      return link(around[meaning]);
    case 'nextToken':
      return token(around.next);
    case 'prevToken':
      return token(around.prev);
    case 'total':
      return page.total;
    case 'pages':
      return page.total === undefined ? undefined : Math.ceil(page.total / step);
    case 'page':
      return (
        page.number ??
        (list.pagination.parameter?.kind === 'page' ? list.pagination.parameter.first : 1) +
          Math.floor(page.offset / step)
      );
    case 'limit':
      return Number.isFinite(page.limit) ? page.limit : undefined;
    case 'offset':
      return page.offset;
    case 'hasMore':
      return page.more;
  }
}

/** A `Link` header (RFC 8288) with the next, previous, first and last pages, or undefined when there are none. */
export function linkHeader(list: ResourceList, page: AnsweredPage, url: PageUrl): string | undefined {
  const header = new LinkHeader();
  for (const [rel, changes] of Object.entries(neighbours(list, page)))
    if (changes) header.set({ rel, uri: url(changes) });
  return header.refs.length > 0 ? header.toString() : undefined;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Links to pages of this very list, on the origin the request came to (`http://127.0.0.1:4010/api/stops?page=2`). */
export function pageUrl(basePath: string, request: RequestContext): PageUrl {
  const origin = `http://${headerText(request.headers.host) ?? 'localhost'}`;
  return (changes) => {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query)) {
      if (name in changes || value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, item);
    }
    for (const [name, value] of Object.entries(changes)) if (value !== undefined) query.set(name, value);
    const search = query.toString();
    return `${origin}${basePath}${request.path}${search ? `?${search}` : ''}`;
  };
}

/** True when answering the list needs every matching item counted (a total, a page count or a last page). */
export function needsTotal(list: ResourceList): boolean {
  return (
    list.pagination.fields.some((field) => ['total', 'pages', 'last'].includes(field.meaning)) ||
    list.pagination.linkHeader
  );
}
