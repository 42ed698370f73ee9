import type { CheckPlan, PlannedOperation, PlannedParameter } from '../prepare/plan.js';
import type { CheckContext, CheckFailure, Exchange, RequestSpec, ScenarioCheck } from '../types.js';
import { idParameter, knowable, unlikelyId } from './ids.js';
import { failure } from './failure.js';
import { collectionOfPathParameter } from './path-values.js';
import { readById } from './read-by-id.js';
import { statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

const documents404 = (operation: PlannedOperation): boolean =>
  operation.operation.responses.some((response) => response.status === '404');

/** The path parameter an operation acts through: the last template of its path (`ticketId` of `/tickets/{ticketId}/qr`). */
function lastPathParameter(operation: PlannedOperation): PlannedParameter | undefined {
  const last = /\{([^}/]+)\}[^{]*$/.exec(operation.operation.path)?.[1];
  return operation.parameters.find((parameter) => parameter.in === 'path' && parameter.name === last);
}

/**
 * Operations on one item besides its read, judged here for an unknown id: a DELETE, an action
 * (`POST /orders/{id}/cancel`), a GET of something of the item's (`/tickets/{id}/qr`). Not a PUT
 * (it may create the item) nor a PATCH (its body would have to be valid for an item kennel does
 * not have); not a list or a create into a parent (their parameter names the parent, which exists).
 */
function itemOperation(operation: PlannedOperation): PlannedParameter | undefined {
  const method = operation.operation.method;
  if (operation.role === 'list' || operation.role === 'read') return undefined;
  if (method !== 'delete' && method !== 'post' && method !== 'get') return undefined;
  const parameter = lastPathParameter(operation);
  if (!parameter) return undefined;
  // A GET or POST of the item path itself is not one of these (the model would know it); a DELETE is.
  const ofTheItem = operation.operation.path.endsWith(`{${parameter.name}}`);
  return method === 'delete' || !ofTheItem ? parameter : undefined;
}

/** Whether the document lets a client know which ids of the collection `parameter` names exist. */
function knowableThrough(plan: CheckPlan, operation: PlannedOperation, parameter: PlannedParameter): boolean {
  const collection = collectionOfPathParameter(plan, operation, parameter);
  return plan.model.resources.some((resource) => resource.path === collection && resource.stateful);
}

/** A valid request to an item operation, its item parameter naming `id`. */
function itemRequest(context: CheckContext, parameter: PlannedParameter, id: string, purpose: string): RequestSpec {
  const base = validRequest(context, context.operation, purpose);
  return { ...base, intent: 'absent', pathParams: { ...base.pathParams, [parameter.name]: id } };
}

function judged(check: string, exchange: Exchange, absent: string, knowable: boolean, read: boolean): CheckFailure[] {
  const status = exchange.response?.status;
  if (status === undefined || status >= 500 || status === 404 || (!read && status === 410)) return [];
  const success = status < 300;
  // Where the document gives no way to create (or key) these items, kennel cannot know the id is absent.
  // Another 4xx than a read's 404 is the read's error; an item operation's is a warning (it refused, at least).
  const severity = success ? (knowable ? 'error' : 'warning') : read ? 'error' : 'warning';
  const what = read ? `id ${absent}` : `${exchange.operation.operation.method.toUpperCase()} of id ${absent}`;
  return [
    failure(check, severity, exchange, `answered ${status} for ${what}, which does not exist`, {
      expected: '404',
      actual: statusText(exchange),
    }),
  ];
}

/** An id of the parameter's type that the run has not seen for the collection. */
function absentId(context: CheckContext, parameter: PlannedParameter | undefined, collection: string | undefined) {
  const known = collection
    ? [
        ...context.state.pool.ids(collection),
        ...(context.state.created.get(collection) ?? []).map((resource) => resource.id),
      ].map(String)
    : [];
  let absent = unlikelyId(parameter?.resolved, context.random);
  for (let tries = 0; absent !== undefined && known.includes(absent) && tries < 5; tries += 1)
    absent = unlikelyId(parameter?.resolved, context.random);
  return absent;
}

/**
 * A well-formed id that does not exist gets the documented 404, not a 200 with nothing in it:
 * on the item's read, and on the other operations on one item that document a 404 (a DELETE, an
 * action, a GET of something of the item's), which must not succeed for nothing.
 */
export const notFoundConformance: ScenarioCheck = {
  name: 'not-found-conformance',
  kind: 'scenario',
  severity: 'error',
  description: 'unknown ids get the documented 404',
  skipReason(operation, _plan, settings) {
    if (operation.role !== 'read' && !itemOperation(operation))
      return 'not an operation that reads or acts on one resource by id';
    if (!documents404(operation)) return 'the operation documents no 404';
    return operation.role !== 'read' && !operation.safe && settings.readOnly ? 'read-only run' : undefined;
  },
  async run(context) {
    const { operation, plan } = context;
    const read = operation.role === 'read';
    const parameter = read ? idParameter(operation) : itemOperation(operation)!;
    const collection = read ? operation.collection : parameter && collectionOfPathParameter(plan, operation, parameter);
    const absent = absentId(context, parameter, collection);
    if (absent === undefined) return { failures: [], skipped: 'the id parameter allows only listed values' };
    const purpose = `${operation.id} for id ${absent}, which does not exist`;
    const exchange = read
      ? await readById(context, operation, absent, purpose, { intent: 'absent' })
      : await context.send(itemRequest(context, parameter!, absent, purpose));
    const known = read ? knowable(operation) : knowableThrough(plan, operation, parameter!);
    return { failures: judged(this.name, exchange, absent, known, read) };
  },
};
