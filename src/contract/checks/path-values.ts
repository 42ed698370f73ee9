import { exactNumbers } from '../../core/json.js';
import { coerceParameter } from '../../openapi/parameter-value.js';
import { collectionNamedBy } from '../../openapi/reference-edges.js';
import type { CheckPlan, PlannedOperation, PlannedParameter } from '../prepare/plan.js';
import { ReferenceFiller } from '../prepare/reference-values.js';
import { pathParamsIn } from '../prepare/url-operation.js';
import type { CheckContext } from '../types.js';

/**
 * Known values for an operation's path parameters, each from the collection it names (a parent's
 * too). Reads and POSTs (adding to a resource) may use any known id; PUT and PATCH only resources
 * this run created (never change the deployment's own); a DELETE none (it would remove what later
 * checks read).
 */
export function knownPathValues(context: CheckContext, operation: PlannedOperation): Record<string, string> {
  return new ReferenceFiller(context, operation).pathParameters();
}

/**
 * The path parameter's schema allows `value` as path text (after the coercion a server applies):
 * an id the deployment gave for a collection may still break another operation's parameter
 * (a uuid-formatted `email_id` where emails are numbered), and a valid request must be valid.
 */
export function fitsParameter(plan: CheckPlan, parameter: PlannedParameter, value: unknown): boolean {
  const coerced = coerceParameter(String(value), parameter.resolved, parameter.explode);
  if (!coerced.ok) return false;
  return !parameter.schema || plan.validators.at(parameter.schema.pointer)(exactNumbers(coerced.value)).length === 0;
}

/**
 * The collection whose member a path parameter names: the operation's own collection for its item
 * parameter (`petId` of `/pets/{petId}`), else the collection the path names before it (`ownerId`
 * of `/owners/{ownerId}/pets`, a list's or a create's parent, names an owner, not a pet).
 */
export function collectionOfPathParameter(
  plan: CheckPlan,
  operation: PlannedOperation,
  parameter: PlannedParameter,
): string | undefined {
  const resource = operation.resource;
  const ownItem = resource?.itemPath === operation.operation.path && resource.itemParameter === parameter.name;
  if (ownItem && operation.collection) return operation.collection;
  const collections = { has: (path: string) => plan.model.resources.some((known) => known.path === path) };
  return collectionNamedBy(operation.operation.path, parameter.name, collections);
}

/** The document has an operation that can tell the run ids of `collection`: a list or a create. */
export function documentsIdSource(plan: CheckPlan, collection: string | undefined): boolean {
  if (!collection) return false;
  const { list, create } = plan.collection(collection);
  return list !== undefined || create !== undefined;
}

/**
 * The path parameters of `template` (`/projects/{projectId}/tasks`) in a URL path that ends with
 * it (`/v1/projects/7/tasks`): the parents an item created there lives under.
 */
export function parentsInScope(scope: string | undefined, template: string): Record<string, string> {
  return (scope === undefined ? undefined : pathParamsIn(template, scope)) ?? {};
}
