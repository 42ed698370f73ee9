import { nextRequest, nextStep, type NextStep } from '../prepare/next-page.js';
import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, CheckFailure, Exchange, RequestSpec, ScenarioCheck } from '../types.js';
import { identity, pageLinkFindings, pastTheLast, totalFindings, type Page } from './page-links.js';
import { coveringRanges } from './list-reads.js';
import { createResources } from './test-data.js';
import { failure } from './failure.js';
import { jsonBody } from './response-body.js';
import { isSuccess, statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

/** Pages followed at most: enough to reach the end of a small collection, few enough for a large one. */
const MOST_PAGES = 12;

const NAME = 'pagination-followed';

/**
 * The page size to ask for: the documented default when it is below the maximum (several pages
 * of a collection that one read at the maximum shows whole), else half the maximum.
 */
function pageSize(operation: PlannedOperation): number | undefined {
  const limit = operation.limit;
  if (!limit) return undefined;
  if (limit.maximum === undefined) return limit.default;
  if (limit.default !== undefined && limit.default < limit.maximum) return limit.default;
  return Math.max(limit.minimum, Math.floor(limit.maximum / 2));
}

/** What following the pages found: every item's identity in order, and whether the last page was reached. */
interface Walk {
  seen: string[];
  ended: boolean;
  failures: CheckFailure[];
  /** The pages read with a list in them, in order. */
  pages: Page[];
}

function problem(exchange: Exchange, title: string, details: Partial<CheckFailure> = {}): CheckFailure {
  return failure(NAME, 'error', exchange, title, details);
}

/** One page as read: its number (from 1), the exchange and its items. */
interface PageRead {
  page: number;
  exchange: Exchange;
  items: readonly unknown[];
}

/** Judges one page: within the limit asked, no item a page before showed. */
function judgePage(
  context: CheckContext,
  { page, exchange, items }: PageRead,
  asked: number | undefined,
  seen: Set<string>,
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  if (asked !== undefined && items.length > asked)
    failures.push(
      problem(exchange, `page ${page} holds ${items.length} items where the limit asked for at most ${asked}`, {
        expected: `at most ${asked} items`,
        actual: `${items.length} items`,
      }),
    );
  const via = context.operation.list?.pagination.next?.kind === 'counter' ? 'the next page number' : 'the next link';
  const repeated = items.map((item) => identity(context, item)).filter((key) => seen.has(key));
  if (repeated.length > 0 && repeated.length === items.length)
    failures.push(
      problem(exchange, `${via} leads back to a page already read: page ${page} shows only earlier items`, {
        expected: 'a next page not yet read',
        actual: `listed again: ${repeated.slice(0, 3).join(', ')}`,
      }),
    );
  else if (repeated.length > 0)
    failures.push(
      problem(exchange, `page ${page} repeats ${repeated.length} item(s) an earlier page listed`, {
        expected: 'each item on one page only',
        actual: `listed again: ${repeated.slice(0, 3).join(', ')}`,
      }),
    );
  return failures;
}

/** Why a next step cannot be taken (a loop, an unreadable link), as a failure; undefined when it can. */
function stepProblem(exchange: Exchange, step: NextStep, visited: ReadonlySet<string>): CheckFailure | undefined {
  if (step.kind === 'unreadable') return problem(exchange, step.why, { expected: 'a next link a client can follow' });
  if (step.kind === 'url' && visited.has(step.url))
    return problem(exchange, `the next link leads back to a page already read (${step.text})`, {
      expected: 'a next link to a page not yet read',
      actual: step.text,
    });
  return undefined;
}

/** A page that did not answer with a list: a next link that does not resolve (a 5xx is not-a-server-error's). */
function unresolved(context: CheckContext, exchange: Exchange, page: number): CheckFailure[] {
  if (page === 1 || !exchange.response || exchange.response.status >= 500) return [];
  return [
    problem(exchange, `the next link of page ${page - 1} does not resolve: ${statusText(exchange)}`, {
      expected: `a documented 2xx (${context.operation.successStatuses.join(', ')})`,
      actual: statusText(exchange),
    }),
  ];
}

/** A warning for a next link on another origin, once per walk. */
function foreignLink(exchange: Exchange, step: NextStep, walked: Walk): CheckFailure[] {
  if (step.kind !== 'url' || !step.foreign || walked.failures.some((item) => item.severity === 'warning')) return [];
  const title = `the next link names another origin (${step.text}): followed on the tested one`;
  return [
    failure(NAME, 'warning', exchange, title, {
      expected: 'a next link on the origin that answered',
      actual: step.text,
    }),
  ];
}

/** Follows the next pages from `first`, judging each; stops at the end, a problem or the bound. */
async function walk(context: CheckContext, first: RequestSpec, asked: number | undefined): Promise<Walk> {
  const walked: Walk = { seen: [], ended: false, failures: [], pages: [] };
  const seen = new Set<string>();
  const visited = new Set<string>();
  const keyOf = (item: unknown) => identity(context, item);
  let request: RequestSpec | undefined = first;
  let shortWithNext: Exchange | undefined;
  for (let page = 1; request && page <= MOST_PAGES; page += 1) {
    const exchange = await context.send(request);
    const items = jsonBody(exchange);
    if (!isSuccess(exchange) || !Array.isArray(items))
      return { ...walked, failures: [...walked.failures, ...unresolved(context, exchange, page)] };
    if (shortWithNext && items.length === 0)
      walked.failures.push(
        problem(shortWithNext, `the last page (${page - 1}) has a next link, to an empty page`, {
          expected: 'no next link on the last page',
        }),
      );
    walked.failures.push(...judgePage(context, { page, exchange, items }, asked, seen));
    walked.pages.push({ request, exchange, keys: items.map(keyOf) });
    // A page of nothing but earlier items: following on would go round in circles.
    if (items.length > 0 && items.every((item) => seen.has(keyOf(item)))) return walked;
    for (const item of items) seen.add(keyOf(item));
    walked.seen.push(...items.map(keyOf));
    visited.add(exchange.request.url);
    const step = nextStep(context.operation, exchange, request);
    const trouble = stepProblem(exchange, step, visited);
    if (trouble) return { ...walked, failures: [...walked.failures, trouble] };
    walked.failures.push(...foreignLink(exchange, step, walked));
    if (step.kind === 'end') return { ...walked, ended: true };
    shortWithNext = asked !== undefined && items.length < asked ? exchange : undefined;
    request = nextRequest(request, step, `${context.operation.id}, page ${page + 1} (following the next page)`);
  }
  return walked;
}

/** After pages that ended: one read at the largest limit must show nothing the pages missed. */
async function completeness(context: CheckContext, first: RequestSpec, walked: Walk): Promise<CheckFailure[]> {
  const limit = context.operation.limit;
  if (!limit?.maximum || !walked.ended) return [];
  const query = { ...first.query, [limit.name]: String(limit.maximum) };
  const whole = await context.send({
    ...first,
    query,
    purpose: `${context.operation.id} read whole, to compare with its pages`,
  });
  const items = jsonBody(whole);
  if (!isSuccess(whole) || !Array.isArray(items)) return [];
  const paged = new Set(walked.seen);
  const missed = items.map((item) => identity(context, item)).filter((key) => !paged.has(key));
  if (missed.length === 0) return [];
  return [
    problem(whole, `the pages end before the list does: ${missed.length} item(s) of one read are on no page`, {
      expected: 'the next pages to reach every item',
      actual: `${walked.seen.length} items through next pages, missing ${missed.slice(0, 3).join(', ')}`,
    }),
  ];
}

/** Resources created at most to make a second page. */
const MOST_CREATED = 4;

/** A page size that splits `count` items into about three pages, when the limit parameter allows one below `count`. */
function smallerPageSize(operation: PlannedOperation, count: number): number | undefined {
  const limit = operation.limit;
  if (!limit || count < 2) return undefined;
  const size = Math.max(limit.minimum, 1, Math.ceil(count / 3));
  return size < count ? size : undefined;
}

/**
 * The page parameter at the list's first page, where the request names one: a required offset or
 * page number is generated like any value, and a walk begun mid-list cannot reach every item.
 */
function atFirstPage(operation: PlannedOperation, query: Record<string, string> | undefined): Record<string, string> {
  const parameter = operation.list?.pagination.parameter;
  if (!parameter || parameter.kind === 'cursor' || query?.[parameter.name] === undefined) return {};
  return { [parameter.name]: String(parameter.first) };
}

/** The first request of a walk: the list as `validRequest` builds it, at `size` items a page when given. */
function firstRequest(
  context: CheckContext,
  size: number | undefined,
  query: Record<string, string> = {},
): RequestSpec {
  const { operation } = context;
  const base = validRequest(context, operation, `${operation.id}, page 1 (following the next pages)`);
  const limited = size === undefined ? {} : { [operation.limit!.name]: String(size) };
  return { ...base, query: { ...base.query, ...atFirstPage(operation, base.query), ...query, ...limited } };
}

/**
 * Creates enough resources in the list's collection for a second page at the smallest page size
 * (a few at most), when the run may write; the query that keeps them in view (a date window).
 */
async function createForSecondPage(
  context: CheckContext,
  listed: number,
): Promise<{ query: Record<string, string>; created: number } | undefined> {
  const { operation, plan, settings } = context;
  const create = operation.collection ? plan.collection(operation.collection).create : undefined;
  if (!operation.limit || !create?.body || settings.readOnly) return undefined;
  const wanted = Math.max(operation.limit.minimum, 1) + 1 - listed;
  if (wanted < 1 || wanted > MOST_CREATED) return undefined;
  const { created } = await createResources(context, create, wanted);
  const items = created
    .map(({ exchange }) => jsonBody(exchange))
    .filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object');
  return created.length === 0 ? undefined : { query: coveringRanges(operation, items), created: created.length };
}

/**
 * Walks at least two pages when the collection has the items for them: a list that fits on one
 * page at the first page size is walked again at a smaller one, after creating a few items when
 * it holds too few.
 */
async function walkTwoPages(context: CheckContext): Promise<{ walked: Walk; asked: number | undefined }> {
  const asked = pageSize(context.operation);
  const walked = await walk(context, firstRequest(context, asked), asked);
  if (!walked.ended || walked.pages.length !== 1 || walked.failures.length > 0) return { walked, asked };
  let listed = walked.seen.length;
  let query: Record<string, string> = {};
  if (smallerPageSize(context.operation, listed) === undefined) {
    const made = await createForSecondPage(context, listed);
    if (!made) return { walked, asked };
    listed += made.created;
    query = made.query;
  }
  const smaller = smallerPageSize(context.operation, listed);
  if (smaller === undefined) return { walked, asked };
  return { walked: await walk(context, firstRequest(context, smaller, query), smaller), asked: smaller };
}

/**
 * Follows a list's next pages (a `links.next`, a cursor, a `Link` header, page numbers) to the
 * end, bounded, over at least two pages when the collection allows (a smaller page size, a few
 * items created): every page is judged by the response checks as it arrives; an item on two
 * pages, a page larger than the limit, a next link on the last page (to an empty page), a link
 * that loops or does not resolve, pages that stop before the list does, a `prev` link on the
 * first page, `self`/`first`/`prev`/`last` links that lead elsewhere than they say, or items on
 * the page after the last are findings.
 */
export const paginationFollowed: ScenarioCheck = {
  name: NAME,
  kind: 'scenario',
  severity: 'error',
  description: 'following the next pages reads each item once, within the limit, to the last page',
  skipReason(operation) {
    if (operation.role !== 'list') return 'not a list';
    if (!operation.list?.pagination.next) return 'the list documents no way to the next page';
    return operation.successStatuses.length === 0 ? 'the operation documents no successful response' : undefined;
  },
  async run(context) {
    const { walked } = await walkTwoPages(context);
    const first = walked.pages[0]?.request ?? firstRequest(context, pageSize(context.operation));
    const failures = [
      ...walked.failures,
      ...(await completeness(context, first, walked)),
      ...(await pageLinkFindings(context, walked.pages)),
      ...(walked.ended ? totalFindings(context, walked.pages) : []),
      ...(walked.ended ? await pastTheLast(context, walked.pages) : []),
    ];
    if (walked.seen.length === 0 && failures.length === 0)
      return { failures, skipped: 'the list showed no items to page through' };
    if (walked.pages.length < 2 && failures.length === 0)
      return {
        failures,
        unexercised: `the list showed one page only (${walked.seen.length} item(s)): no next page to follow`,
      };
    return { failures };
  },
};
