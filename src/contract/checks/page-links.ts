import { stringifyJson } from '../../core/json.js';
import { mayBeAbsent } from '../../openapi/pagination.js';
import { nextRequest, nextStep, pageFieldValue, pageLink, type PageRel } from '../prepare/next-page.js';
import type { CheckContext, CheckFailure, Exchange, RequestSpec } from '../types.js';
import { failure } from './failure.js';
import { jsonBody } from './response-body.js';
import { isSuccess, statusText } from './response-status.js';

const NAME = 'pagination-followed';

type Item = Record<string, unknown>;

/** One page read while following a list: what was sent, what came back, and its items' identities. */
export interface Page {
  request: RequestSpec;
  exchange: Exchange;
  keys: string[];
}

/** An item's identity across pages: its key, else its whole JSON text. */
export function identity(context: CheckContext, item: unknown): string {
  const idProperty = context.operation.idProperty;
  const key = idProperty && item !== null && typeof item === 'object' ? (item as Item)[idProperty] : undefined;
  return stringifyJson(key ?? item);
}

function problem(exchange: Exchange, title: string, details: Partial<CheckFailure> = {}): CheckFailure {
  return failure(NAME, 'error', exchange, title, details);
}

/** Keys of one side missing from the other, both ways, as text (empty when the pages hold the same items). */
function difference(expected: readonly string[], actual: readonly string[]): string {
  const want = new Set(expected);
  const got = new Set(actual);
  const missing = expected.filter((key) => !got.has(key));
  const extra = actual.filter((key) => !want.has(key));
  const parts = [
    missing.length > 0 ? `missing ${missing.slice(0, 3).join(', ')}` : '',
    extra.length > 0 ? `unexpected ${extra.slice(0, 3).join(', ')}` : '',
  ];
  return parts.filter(Boolean).join('; ');
}

/**
 * Follows the `rel` link of `from` and expects the page `to` (the same items): a link that does
 * not resolve, or resolves to other items, is a finding; undefined `to` only asks that it resolve.
 */
async function follow(
  context: CheckContext,
  from: Page,
  rel: PageRel,
  page: number,
  to: Page | undefined,
): Promise<{ failures: CheckFailure[]; landed?: Page }> {
  const step = pageLink(context.operation, from.exchange, rel);
  if (step.kind === 'unreadable') return { failures: [problem(from.exchange, step.why)] };
  const request = nextRequest(from.request, step, `${context.operation.id}, the ${rel} link of page ${page}`);
  if (!request || step.kind !== 'url') return { failures: [] };
  const exchange = await context.send(request);
  const items = jsonBody(exchange);
  if (!isSuccess(exchange) || !Array.isArray(items)) {
    // A 5xx is not-a-server-error's finding.
    if (!exchange.response || exchange.response.status >= 500) return { failures: [] };
    const title = `the ${rel} link of page ${page} does not resolve: ${statusText(exchange)}`;
    const expected = `a documented 2xx (${context.operation.successStatuses.join(', ')})`;
    return { failures: [problem(exchange, title, { expected, actual: `${statusText(exchange)} for ${step.text}` })] };
  }
  const landed = { request, exchange, keys: items.map((item) => identity(context, item)) };
  const wrong = to ? difference(to.keys, landed.keys) : '';
  if (!to || !wrong) return { failures: [], landed };
  const where = to === from ? `page ${page} itself` : `page ${page - 1}`;
  const title = `the ${rel} link of page ${page} does not lead to ${where}: it shows other items`;
  return { failures: [problem(exchange, title, { expected: `the items of ${where}`, actual: wrong })], landed };
}

/**
 * The first page has nothing before it: a `prev` link there (where the document lets it be
 * absent or null) points at no page a client should read.
 */
function prevOnFirst(context: CheckContext, first: Page): CheckFailure[] {
  const step = pageLink(context.operation, first.exchange, 'prev');
  if (step.kind !== 'url') return [];
  const list = context.operation.list;
  const field = list?.pagination.fields.find((candidate) => candidate.meaning === 'prev');
  if (field && list && !mayBeAbsent(list.siblings, field)) return [];
  return [
    problem(first.exchange, `the first page has a prev link (${step.text})`, {
      expected: 'no prev link on the first page (absent or null)',
      actual: step.text,
    }),
  ];
}

/** True when the walk began at the list's very first page: no page parameter sent, or its first value. */
function startsAtFirst(context: CheckContext, first: Page): boolean {
  const parameter = context.operation.list?.pagination.parameter;
  const sent = parameter ? first.request.query?.[parameter.name] : undefined;
  if (!parameter || sent === undefined) return true;
  return parameter.kind !== 'cursor' && Number(sent) === parameter.first;
}

/**
 * The links of the first pages agree with the pages the walk read: page 1's `self` (and `first`,
 * when page 1 is the list's first page) show page 1, page 2's `prev` leads back to page 1, and
 * the `last` page has no next page.
 */
export async function pageLinkFindings(context: CheckContext, pages: readonly Page[]): Promise<CheckFailure[]> {
  const [first, second] = pages;
  if (!first) return [];
  const atFirst = startsAtFirst(context, first);
  const failures = atFirst ? prevOnFirst(context, first) : [];
  failures.push(...(await follow(context, first, 'self', 1, first)).failures);
  if (atFirst) failures.push(...(await follow(context, first, 'first', 1, first)).failures);
  if (second) failures.push(...(await follow(context, second, 'prev', 2, first)).failures);
  const last = await follow(context, first, 'last', 1, undefined);
  failures.push(...last.failures);
  if (last.landed && nextStep(context.operation, last.landed.exchange, last.landed.request).kind === 'url')
    failures.push(
      problem(last.landed.exchange, 'the last link of page 1 leads to a page that has a next link', {
        expected: 'no next link on the last page',
      }),
    );
  return failures;
}

/** The page parameter's value for the page right after the `count` pages read from `first`. */
function pastLastValue(context: CheckContext, first: Page, count: number, items: number): string | undefined {
  const parameter = context.operation.list?.pagination.parameter;
  if (!parameter || parameter.kind === 'cursor') return undefined;
  const sent = Number(first.request.query?.[parameter.name] ?? parameter.first);
  if (!Number.isFinite(sent)) return undefined;
  return String(parameter.kind === 'page' ? sent + count : sent + items);
}

/**
 * The page after the last (by the page number or offset parameter) is an empty page or a 4xx the
 * document gives (a 5xx is not-a-server-error's finding, an undocumented status
 * status-code-conformance's): items there are items the pages never reached.
 */
export async function pastTheLast(context: CheckContext, pages: readonly Page[]): Promise<CheckFailure[]> {
  const first = pages[0];
  const last = pages.at(-1);
  if (!first || !last || last.keys.length === 0) return [];
  const parameter = context.operation.list!.pagination.parameter!;
  const items = pages.reduce((sum, page) => sum + page.keys.length, 0);
  const value = pastLastValue(context, first, pages.length, items);
  if (value === undefined) return [];
  const exchange = await context.send({
    ...first.request,
    url: undefined,
    query: { ...first.request.query, [parameter.name]: value },
    purpose: `${context.operation.id}, ${parameter.name}=${value}: the page after the last`,
  });
  const listed = jsonBody(exchange);
  if (!isSuccess(exchange) || !Array.isArray(listed) || listed.length === 0) return [];
  const keys = listed.map((item) => identity(context, item));
  return [
    problem(exchange, `the page after the last (${parameter.name}=${value}) lists ${listed.length} item(s)`, {
      expected: 'an empty page or a documented 4xx',
      actual: `${statusText(exchange)} listing ${keys.slice(0, 3).join(', ')}`,
    }),
  ];
}

/**
 * After pages that ended: the count the first page's envelope gives (`total`, `meta.total_count`)
 * is the number of items the pages showed. More items than that were counted twice or invented;
 * fewer, lost between pages (or the count is wrong).
 */
export function totalFindings(context: CheckContext, pages: readonly Page[]): CheckFailure[] {
  const first = pages[0];
  // A walk begun past the first item never shows the ones before it, which the total counts.
  if (!first || !startsAtFirst(context, first)) return [];
  const total = pageFieldValue(context.operation, first.exchange, 'total');
  if (typeof total !== 'number' || !Number.isInteger(total)) return [];
  const shown = new Set(pages.flatMap((page) => page.keys)).size;
  if (shown === total) return [];
  return [
    problem(first.exchange, `the pages show ${shown} item(s) where the first page's total says ${total}`, {
      expected: `${total} items over the pages`,
      actual: `${shown} distinct items over ${pages.length} page(s)`,
    }),
  ];
}
