import { underItemPath } from '../../openapi/naming.js';
import { objectShape } from '../../openapi/schema-shape.js';
import type { CheckPlan, PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, RequestSpec } from '../types.js';
import { idParameter } from './ids.js';
import { sameJson } from './same-json.js';
import { validRequest } from './valid-request.js';

/**
 * The actions on one item of a collection: POSTs to a fixed path under the item path
 * (`POST /reservations/{reservationId}/payment`, `/orders/{id}/cancel`), whatever role the
 * resource model gives them (a POST that returns an object looks like a create). A path that is
 * itself read (`GET /orders/{id}/items`) is a sub-collection, not an action, and is left out.
 */
export function itemActions(plan: CheckPlan, collection: string): PlannedOperation[] {
  return postsUnderItem(plan, collection, false);
}

/** Creates of the item's own sub-collections (`POST /cards/{id}/comments`, listed by a GET there). */
export function childCreates(plan: CheckPlan, collection: string): PlannedOperation[] {
  return postsUnderItem(plan, collection, true);
}

/** POSTs to fixed paths below the item path: actions, or (`listed`) creates of a sub-collection. */
function postsUnderItem(plan: CheckPlan, collection: string, listed: boolean): PlannedOperation[] {
  const itemPath = plan.collection(collection).read?.resource?.itemPath;
  if (!itemPath) return [];
  const read = new Set(plan.all.filter((o) => o.operation.method === 'get').map((o) => o.operation.path));
  return plan.operations.filter((planned) => {
    const { path, method } = planned.operation;
    const under = underItemPath(itemPath, path);
    return method === 'post' && under !== undefined && !under.includes('{') && read.has(path) === listed;
  });
}

/** A valid request to `action` naming the item `id` (its parents' keys in `pathParams`). */
export function actionRequest(
  context: CheckContext,
  action: PlannedOperation,
  item: { id: unknown; pathParams: Record<string, string> },
  purpose: string,
): RequestSpec {
  const base = validRequest({ ...context, operation: action }, action, purpose);
  // The item's own parameter, named as its read names it (an action may look like a create, which names none).
  const read = context.plan.collection(context.operation.collection!).read!;
  const name = idParameter(read)?.name ?? 'id';
  return { ...base, pathParams: { ...base.pathParams, ...item.pathParams, [name]: String(item.id) } };
}

/**
 * The state properties an action moved (`/status: "held" → "paid"`): properties with an enum in
 * the item schema whose value differs between two reads of the item. Empty when nothing a client
 * can see as a state changed (the action may then be repeatable, a deposit, a comment).
 */
export function stateChanges(itemSchema: unknown, before: unknown, after: unknown): string[] {
  if (!isObject(before) || !isObject(after)) return [];
  const { properties } = objectShape(itemSchema as Parameters<typeof objectShape>[0]);
  return Object.entries(properties)
    .filter(([, schema]) => typeof schema === 'object' && Array.isArray(schema.enum))
    .filter(([name]) => name in before && name in after && !sameJson(before[name], after[name]))
    .map(([name]) => `/${name}: ${JSON.stringify(before[name])} → ${JSON.stringify(after[name])}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** True when `operation` documents one of `statuses`. */
export function documentsAny(operation: PlannedOperation, statuses: readonly number[]): boolean {
  return operation.operation.responses.some((response) => statuses.map(String).includes(response.status));
}
