import LinkHeader from 'http-link-header';
import { valueAt } from '../../openapi/json-pointer.js';
import type { NextPage, PageFieldMeaning } from '../../openapi/pagination.js';
import { listedItems } from './payload.js';
import type { PlannedOperation } from './plan.js';
import type { Exchange, RequestSpec } from '../types.js';

/** Where the next page is: a URL to follow, a request with another page parameter, or nowhere. */
export type NextStep =
  | { kind: 'url'; url: string; text: string; foreign: boolean }
  | { kind: 'query'; query: Record<string, string> }
  | { kind: 'end' }
  | { kind: 'unreadable'; why: string };

function bodyValue(exchange: Exchange, path: readonly string[]): unknown {
  const json = exchange.response?.json;
  if (!json?.ok) return undefined;
  return valueAt(json.value, `/${path.map((token) => token.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`);
}

/**
 * A link resolved against the URL of the request that got it (relative links are fine). A link
 * to another origin (a deployment behind a proxy naming its public host) is followed on the
 * tested origin, and said so (`foreign`).
 */
function resolved(text: string, exchange: Exchange): NextStep {
  let url: URL;
  try {
    url = new URL(text, exchange.request.url);
  } catch {
    return { kind: 'unreadable', why: `the next link ${JSON.stringify(text)} is not a URL` };
  }
  const tested = new URL(exchange.request.url);
  const foreign = url.origin !== tested.origin;
  if (foreign) {
    url.protocol = tested.protocol;
    url.host = tested.host;
  }
  return { kind: 'url', url: url.toString(), text, foreign };
}

function fromHeader(exchange: Exchange, rel: string = 'next'): NextStep {
  const header = exchange.response?.headers.link;
  if (!header) return { kind: 'end' };
  try {
    const link = LinkHeader.parse(header).rel(rel)[0];
    return link ? resolved(link.uri, exchange) : { kind: 'end' };
  } catch {
    return { kind: 'unreadable', why: `the Link header ${JSON.stringify(header)} is not RFC 8288` };
  }
}

/** The page parameter's value in the request just sent (its first value when absent). */
function current(request: RequestSpec, name: string, first: number): number {
  const sent = request.url ? new URL(request.url).searchParams.get(name) : request.query?.[name];
  const value = Number(sent ?? first);
  return Number.isFinite(value) ? value : first;
}

function counted(
  operation: PlannedOperation,
  next: Extract<NextPage, { kind: 'counter' }>,
  request: RequestSpec,
  items: readonly unknown[],
): NextStep {
  const limitName = operation.limit?.name;
  const sentLimit = limitName ? Number(request.query?.[limitName] ?? operation.limit?.default ?? NaN) : NaN;
  // Without a next link, a page shorter than the limit (or empty) is the last.
  if (items.length === 0 || (Number.isFinite(sentLimit) && items.length < sentLimit)) return { kind: 'end' };
  const first = operation.list?.pagination.parameter?.first ?? (next.step === 'page' ? 1 : 0);
  const at = current(request, next.parameter, first);
  const value = next.step === 'page' ? at + 1 : at + items.length;
  return { kind: 'query', query: { ...request.query, [next.parameter]: String(value) } };
}

/** A link's target: the text itself, or a link object's `href` (`{"href": "…"}`, HAL and JSON:API). */
function linkText(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const href = (value as Record<string, unknown>).href;
  return typeof href === 'string' ? href : value;
}

/** The next page after `exchange` (a 2xx list answer to `request`), the way the document says to find it. */
export function nextStep(operation: PlannedOperation, exchange: Exchange, request: RequestSpec): NextStep {
  const next = operation.list?.pagination.next;
  if (!next) return { kind: 'end' };
  const json = exchange.response?.json;
  const items = listedItems(operation, json?.ok ? json.value : undefined) ?? [];
  switch (next.kind) {
    case 'link': {
      const value = linkText(bodyValue(exchange, next.path));
      if (value === undefined || value === null || value === '') return { kind: 'end' };
      return typeof value === 'string'
        ? resolved(value, exchange)
        : { kind: 'unreadable', why: 'the next link is not text' };
    }
    case 'header':
      return fromHeader(exchange);
    case 'token': {
      const value = bodyValue(exchange, next.path);
      if (value === undefined || value === null || value === '') return { kind: 'end' };
      return { kind: 'query', query: { ...request.query, [next.parameter]: String(value) } };
    }
    case 'after-last': {
      const last = items.at(-1) as Record<string, unknown> | undefined;
      const key = operation.idProperty && last ? last[operation.idProperty] : undefined;
      if (bodyValue(exchange, next.flag) !== true || key === undefined) return { kind: 'end' };
      return { kind: 'query', query: { ...request.query, [next.parameter]: String(key) } };
    }
    case 'counter':
      return counted(operation, next, request, items);
  }
}

/** The value of the page's first envelope field that means `meaning` (`total`, `pages`), if any. */
export function pageFieldValue(operation: PlannedOperation, exchange: Exchange, meaning: PageFieldMeaning): unknown {
  const field = operation.list?.pagination.fields.find((candidate) => candidate.meaning === meaning);
  return field ? bodyValue(exchange, field.path) : undefined;
}

/** A link of a page to another page of the same list, besides `next`. */
export type PageRel = 'self' | 'prev' | 'first' | 'last';

/** Where a page's documented `rel` link leads: the body's field, else a `Link` header's; `end` when absent or null. */
export function pageLink(operation: PlannedOperation, exchange: Exchange, rel: PageRel): NextStep {
  const field = operation.list?.pagination.fields.find((candidate) => candidate.meaning === rel);
  if (field) {
    const value = linkText(bodyValue(exchange, field.path));
    if (typeof value === 'string' && value !== '') return resolved(value, exchange);
    if (value !== undefined && value !== null && value !== '')
      return { kind: 'unreadable', why: `the ${rel} link is not text` };
  }
  return operation.list?.pagination.linkHeader ? fromHeader(exchange, rel) : { kind: 'end' };
}

/** The request for a next step: the link as is, or the same list with the next page's query. */
export function nextRequest(request: RequestSpec, step: NextStep, purpose: string): RequestSpec | undefined {
  if (step.kind === 'url') return { ...request, url: step.url, query: {}, purpose };
  if (step.kind === 'query') return { ...request, url: undefined, query: step.query, purpose };
  return undefined;
}
