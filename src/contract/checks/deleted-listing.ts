import { nextRequest, nextStep } from '../prepare/next-page.js';
import type { CheckContext, CheckFailure, RequestSpec } from '../types.js';
import { failure, show } from './failure.js';
import { idKey } from './ids.js';
import { searchOnly, wholeListQuery } from './list-reads.js';
import { knownPathValues } from './path-values.js';
import { jsonBody } from './response-body.js';
import { isSuccess } from './response-status.js';
import { requiredQuery } from './valid-request.js';

/** Pages read at most looking for a deleted item. */
const MOST_PAGES = 10;

/**
 * A deleted item (its read answers 404 or 410) is not listed either: a list that still shows it,
 * on any of its first pages read at the largest limit (a soft delete that forgot the list), is an
 * error. Not finding it proves nothing more than those pages; a search is not read.
 */
export async function listedAfterDelete(
  context: CheckContext,
  subject: { id: unknown; pathParams: Record<string, string> },
  check: string,
): Promise<CheckFailure[]> {
  const { operation, plan } = context;
  const list = plan.collection(operation.collection!).list;
  const whole = list && !searchOnly(list) ? wholeListQuery(list) : undefined;
  const key = operation.idProperty;
  if (!list || !whole || !key) return [];
  const parents = Object.fromEntries(
    Object.entries(subject.pathParams).filter(([name]) =>
      list.parameters.some((p) => p.in === 'path' && p.name === name),
    ),
  );
  const pathParams = { ...knownPathValues({ ...context, operation: list }, list), ...parents };
  let request: RequestSpec | undefined = {
    operation: list,
    intent: 'valid',
    purpose: `${list.id} after deleting ${show(subject.id)}`,
    query: { ...requiredQuery(context, list), ...whole.query },
    ...(Object.keys(pathParams).length > 0 ? { pathParams } : {}),
  };
  for (let page = 1; request && page <= MOST_PAGES; page += 1) {
    const exchange = await context.send(request);
    const items = jsonBody(exchange);
    if (!isSuccess(exchange) || !Array.isArray(items)) return [];
    const listed = items.some((item) => idKey((item as Record<string, unknown> | null)?.[key]) === idKey(subject.id));
    if (listed)
      return [
        failure(check, 'error', exchange, `deleted ${show(subject.id)} is still listed by ${list.id}`, {
          expected: `no item with ${key} ${show(subject.id)}: its read answers it is gone`,
          actual: `listed on page ${page}`,
        }),
      ];
    const step = nextStep(list, exchange, request);
    if (step.kind === 'end' || step.kind === 'unreadable') return [];
    request = nextRequest(request, step, `${list.id} after deleting ${show(subject.id)}, page ${page + 1}`);
  }
  return [];
}
