import { stringifyJson } from '../../core/json.js';
import { nextRequest, nextStep, type NextStep } from '../next-page.js';
import type { PlannedOperation } from '../plan.js';
import type { CheckContext, CheckFailure, Exchange, RequestSpec, ScenarioCheck } from '../types.js';
import { failure, isSuccess, jsonBody, statusText, validRequest } from './support.js';

/** Pages followed at most: enough to reach the end of a small collection, few enough for a large one. */
const MOST_PAGES = 12;

const NAME = 'pagination-followed';

type Item = Record<string, unknown>;

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

/** An item's identity across pages: its key, else its whole JSON text. */
function identity(operation: PlannedOperation, item: unknown): string {
  const key =
    operation.idProperty && item !== null && typeof item === 'object'
      ? (item as Item)[operation.idProperty]
      : undefined;
  return stringifyJson(key ?? item);
}

/** What following the pages found: every item's identity in order, and whether the last page was reached. */
interface Walk {
  seen: string[];
  ended: boolean;
  failures: CheckFailure[];
}

function problem(exchange: Exchange, title: string, details: Partial<CheckFailure> = {}): CheckFailure {
  return failure(NAME, 'error', exchange, title, details);
}

/** Judges one page: within the limit asked, no item a page before showed. */
function judgePage(
  context: CheckContext,
  exchange: Exchange,
  items: readonly unknown[],
  asked: number | undefined,
  seen: Set<string>,
  page: number,
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  if (asked !== undefined && items.length > asked)
    failures.push(
      problem(exchange, `page ${page} holds ${items.length} items where the limit asked for at most ${asked}`, {
        expected: `at most ${asked} items`,
        actual: `${items.length} items`,
      }),
    );
  const repeated = items.map((item) => identity(context.operation, item)).filter((key) => seen.has(key));
  if (repeated.length > 0 && repeated.length === items.length)
    failures.push(
      problem(exchange, `the next link leads back to a page already read: page ${page} shows only earlier items`, {
        expected: 'a next link to a page not yet read',
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
  const walked: Walk = { seen: [], ended: false, failures: [] };
  const seen = new Set<string>();
  const visited = new Set<string>();
  const keyOf = (item: unknown) => identity(context.operation, item);
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
    walked.failures.push(...judgePage(context, exchange, items, asked, seen, page));
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
  const missed = items.map((item) => identity(context.operation, item)).filter((key) => !paged.has(key));
  if (missed.length === 0) return [];
  return [
    problem(whole, `the pages end before the list does: ${missed.length} item(s) of one read are on no page`, {
      expected: 'the next pages to reach every item',
      actual: `${walked.seen.length} items through next pages, missing ${missed.slice(0, 3).join(', ')}`,
    }),
  ];
}

/**
 * Follows a list's next pages (a `links.next`, a cursor, a `Link` header, page numbers) to the
 * end, bounded: every page is judged by the response checks as it arrives; an item on two pages,
 * a page larger than the limit, a next link on the last page (to an empty page), a link that
 * loops or does not resolve, or pages that stop before the list does are findings.
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
    const { operation } = context;
    const base = validRequest(context, operation, `${operation.id}, page 1 (following the next pages)`);
    const asked = pageSize(operation);
    const first =
      asked === undefined ? base : { ...base, query: { ...base.query, [operation.limit!.name]: String(asked) } };
    const walked = await walk(context, first, asked);
    const failures = [...walked.failures, ...(await completeness(context, first, walked))];
    if (walked.seen.length === 0 && failures.length === 0)
      return { failures, skipped: 'the list showed no items to page through' };
    return { failures };
  },
};
