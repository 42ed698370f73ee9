import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, CheckFailure, Exchange, RequestSpec, ScenarioCheck } from '../types.js';
import { failure } from './failure.js';
import { isSuccess, statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

/** The operation takes the header parameter `name` (any letter case). */
function takesHeader(operation: PlannedOperation, name: string): boolean {
  return operation.parameters.some((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === name);
}

const documents = (operation: PlannedOperation, status: string): boolean =>
  operation.operation.responses.some((response) => response.status === status);

/** What the document promises: 304 to a read naming the current ETag, 412 to an update naming a stale one. */
function promise(operation: PlannedOperation): 'not-modified' | 'precondition' | undefined {
  if (operation.role === 'read' && takesHeader(operation, 'if-none-match') && documents(operation, '304'))
    return 'not-modified';
  if (
    (operation.role === 'update' || operation.role === 'replace') &&
    takesHeader(operation, 'if-match') &&
    documents(operation, '412')
  )
    return 'precondition';
  return undefined;
}

const etagOf = (exchange: Exchange): string | undefined => exchange.response?.headers.etag;

/** A read naming the ETag the item was just answered with gets 304 (RFC 9110 §13.1.2). */
async function notModified(context: CheckContext, check: string): Promise<{ failures: CheckFailure[]; why?: string }> {
  const request = validRequest(context, context.operation, `a read of a known ${context.operation.id} item`);
  const first = await context.send(request);
  const etag = etagOf(first);
  if (!isSuccess(first) || etag === undefined) return { failures: [], why: `the read answered ${statusText(first)}` };
  const again = await context.send({
    ...request,
    headers: { ...request.headers, 'if-none-match': etag },
    purpose: `the same read with If-None-Match: ${etag}`,
  });
  if (again.response?.status === 304) return { failures: [] };
  return {
    failures: [
      failure(
        check,
        'error',
        again,
        `a read with If-None-Match naming its current ETag answered ${statusText(again)}`,
        {
          expected: '304 Not Modified',
          actual: statusText(again),
        },
      ),
    ],
  };
}

/**
 * An update naming the ETag read before an earlier update is refused with 412 and changes nothing
 * (RFC 9110 §13.1.1): the earlier update gave the item a new ETag.
 */
async function preconditionFailed(
  context: CheckContext,
  check: string,
): Promise<{ failures: CheckFailure[]; why?: string }> {
  const { operation } = context;
  const read = operation.collection ? context.plan.collection(operation.collection).read : undefined;
  if (!read) return { failures: [], why: 'the collection has no read by id' };
  const update = validRequest(context, operation, `an update of a created item`);
  const readRequest: RequestSpec = {
    operation: read,
    intent: 'valid',
    purpose: 'reading the item',
    pathParams: update.pathParams,
  };
  const before = etagOf(await context.send(readRequest));
  if (before === undefined) return { failures: [], why: 'the read answered no ETag' };
  const first = await context.send({ ...update, headers: { ...update.headers, 'if-match': before } });
  if (!isSuccess(first)) return { failures: [], why: `the update with the current ETag answered ${statusText(first)}` };
  const after = etagOf(await context.send({ ...readRequest, purpose: 'reading the updated item' }));
  const stale = await context.send({
    ...validRequest(context, operation, 'an update naming the ETag from before the last update'),
    pathParams: update.pathParams,
    headers: { ...update.headers, 'if-match': before },
  });
  if (stale.response?.status === 412) return { failures: [] };
  const unchanged = after === before ? ` (the update left the ETag ${before} as it was)` : '';
  return {
    failures: [
      failure(check, 'error', stale, `an update with a stale If-Match answered ${statusText(stale)}${unchanged}`, {
        expected: '412 Precondition Failed, nothing changed',
        actual: statusText(stale),
      }),
    ],
  };
}

/** ETags the document promises are honoured: If-None-Match on reads (304), If-Match on updates (412). */
export const conditionalRequests: ScenarioCheck = {
  name: 'conditional-requests',
  kind: 'scenario',
  severity: 'error',
  description: 'a read naming the current ETag gets 304; an update naming a stale one gets 412',
  skipReason(operation, _plan, settings) {
    const promised = promise(operation);
    if (!promised) return 'the document promises no 304 to If-None-Match nor 412 to If-Match here';
    return promised === 'precondition' && settings.readOnly ? 'read-only run: the operation changes state' : undefined;
  },
  async run(context) {
    const promised = promise(context.operation);
    const outcome =
      promised === 'not-modified'
        ? await notModified(context, this.name)
        : await preconditionFailed(context, this.name);
    return outcome.why === undefined ? { failures: outcome.failures } : { failures: [], unexercised: outcome.why };
  },
};
