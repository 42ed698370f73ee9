import { successSchemaOf } from '../../openapi/resource-model.js';
import { bodyLinkPaths, linkValues, type BodyLinkPath } from '../prepare/body-links.js';
import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, CheckFailure, Exchange, ScenarioCheck } from '../types.js';
import { operationAt } from '../prepare/url-operation.js';
import { idOf } from './ids.js';
import { sameJson } from './same-json.js';
import { rememberCreated } from './created-writes.js';
import { failure, show } from './failure.js';
import { knownPathValues } from './path-values.js';
import { jsonBody } from './response-body.js';
import { isSuccess, statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

/** Distinct links followed per operation at most. */
const MAX_LINKS = 10;

function linkPathsOf(context: Pick<CheckContext, 'plan'>, operation: PlannedOperation): BodyLinkPath[] {
  return bodyLinkPaths(successSchemaOf(context.plan.document, operation.operation));
}

/** The body of the item a read answered, whether bare or wrapped in `data`. */
function itemId(body: unknown, idProperty: string): unknown {
  const direct = idOf(body, idProperty);
  if (direct !== undefined) return direct;
  const data = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).data : undefined;
  return idOf(data, idProperty);
}

/** A response of the operation to read links from: a create made now, or the valid request's answer. */
async function sourceOf(context: CheckContext): Promise<Exchange | string> {
  const { operation } = context;
  const inPath = operation.parameters.filter((parameter) => parameter.in === 'path');
  const known = knownPathValues(context, operation);
  if (inPath.some((parameter) => known[parameter.name] === undefined))
    return 'no resource id is known to put in the path';
  const request = validRequest(context, operation, `${operation.id}, to follow the links in its body`);
  const exchange = await context.send(request);
  if (request.body && 'value' in request.body) rememberCreated(context, request.body.value, exchange);
  return isSuccess(exchange) ? exchange : `${operation.id} answered ${statusText(exchange)}: no links to follow`;
}

async function follow(
  context: CheckContext,
  check: string,
  source: Exchange,
  link: { name: string; url: string; owner: unknown },
): Promise<CheckFailure[] | 'not followed'> {
  const target = operationAt(link.url, source.request.url, context.settings.baseUrl, context.plan.all);
  if (!target) {
    if (!sameApi(link.url, source.request.url, context.settings.baseUrl)) return 'not followed';
    return [
      failure(check, 'warning', source, `the ${link.name} link ${link.url} names no operation of the document`, {
        expected: 'the URL of a documented GET operation',
        actual: link.url,
      }),
    ];
  }
  if (target.operation.successStatuses.length === 0) return 'not followed';
  const answer = await context.send({
    operation: target.operation,
    intent: 'valid',
    purpose: `following the ${link.name} link ${link.url} from ${source.operation.id}`,
    pathParams: target.pathParams,
    query: target.query,
  });
  if (!answer.response || answer.response.status >= 500) return []; // not-a-server-error's
  if (!isSuccess(answer))
    return [
      failure(
        check,
        'error',
        answer,
        `the ${link.name} link of ${source.operation.id} leads to ${answer.response.status}`,
        {
          expected: `a documented 2xx of ${target.operation.id} (${target.operation.successStatuses.join(', ')})`,
          actual: `${link.url}: ${statusText(answer)}`,
          operationId: source.operation.id,
        },
      ),
    ];
  return sameItem(check, source, answer, link);
}

/** A `self` link of an item leads to that item: the same key, read there. */
function sameItem(
  check: string,
  source: Exchange,
  answer: Exchange,
  link: { name: string; url: string; owner: unknown },
): CheckFailure[] {
  const idProperty = answer.operation.idProperty;
  if (link.name !== 'self' || !idProperty || answer.operation.role !== 'read') return [];
  const own = idOf(link.owner, idProperty);
  const read = itemId(jsonBody(answer), idProperty);
  if (own === undefined || read === undefined || sameJson(own, read)) return [];
  return [
    failure(
      check,
      'error',
      answer,
      `the self link of ${idProperty} ${show(own)} leads to ${idProperty} ${show(read)}`,
      {
        expected: `${answer.operation.id} answering ${idProperty} ${show(own)}`,
        actual: `${link.url}: ${idProperty} ${show(read)}`,
        operationId: source.operation.id,
      },
    ),
  ];
}

function sameApi(url: string, from: string, baseUrl: string): boolean {
  try {
    const target = new URL(url, from);
    const base = new URL(baseUrl);
    return target.origin === base.origin && target.pathname.startsWith(base.pathname.replace(/\/+$/, ''));
  } catch {
    return false;
  }
}

/**
 * Links a response body documents (`links.self`, `links.origin`, HAL `_links.self.href`, a `self`
 * uri) lead somewhere: followed with GET when they name a documented operation under the base URL,
 * each answers a 2xx, and an item's `self` link reads that same item. Links elsewhere (another
 * origin, a web page) are never followed; paging links are the pagination's.
 */
export const bodyLinksResolve: ScenarioCheck = {
  name: 'body-links-resolve',
  kind: 'scenario',
  severity: 'error',
  description: 'links in response bodies (self, related resources) lead to documented operations that answer 2xx',
  skipReason(operation, plan, settings) {
    if (operation.successStatuses.length === 0) return 'the operation documents no successful response';
    if (settings.readOnly && !operation.safe) return 'read-only run: the operation changes state';
    if (operation.operation.method === 'delete') return 'a DELETE answers no resource to link from';
    return linkPathsOf({ plan }, operation).length > 0 ? undefined : 'its success response documents no links';
  },
  async run(context) {
    const source = await sourceOf(context);
    if (typeof source === 'string') return { failures: [], skipped: source };
    const body = jsonBody(source);
    const seen = new Set<string>();
    const links = linkPathsOf(context, context.operation)
      .flatMap((path) => linkValues(body, path).map((value) => ({ name: path.name, ...value })))
      .filter((link) => !seen.has(link.url) && seen.add(link.url))
      .slice(0, MAX_LINKS);
    if (links.length === 0)
      return { failures: [], skipped: `${context.operation.id}'s answer held no documented link` };
    const failures: CheckFailure[] = [];
    let followed = 0;
    for (const link of links) {
      const outcome = await follow(context, this.name, source, link);
      if (outcome === 'not followed') continue;
      followed += 1;
      failures.push(...outcome);
    }
    if (followed === 0 && failures.length === 0)
      return { failures, skipped: 'no link in the answer names a documented GET operation under the base URL' };
    return { failures };
  },
};
