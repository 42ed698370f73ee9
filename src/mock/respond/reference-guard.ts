import { ProblemError } from '../../core/problem.js';
import type { LoadedDocument } from '../../openapi/load.js';
import type { Operation } from '../../openapi/operations.js';
import {
  danglingReferenceStatus,
  enforcedReferences,
  inferReferences,
  slotPath,
  type ReferenceEdge,
} from '../../openapi/reference-edges.js';
import type { ResourceModel } from '../../openapi/resource-model.js';
import { andThen, type MaybePromise, type Tenant } from '../../store/store-types.js';
import type { RequestInput } from '../../http/responder.js';

/** Refuses a request whose body names a resource the tenant does not hold; resolves when every reference is there. */
export type ReferenceGuard = (operation: Operation, input: RequestInput, tenant: Tenant) => MaybePromise<void>;

const SAFE_METHODS = new Set(['get', 'head', 'options', 'trace']);

interface Reference {
  edge: ReferenceEdge;
  value: unknown;
}

/** The scalar values the body gives the edges' properties, at any depth (each item of an array of references). */
function referencesIn(body: unknown, edges: readonly ReferenceEdge[]): Reference[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const found: Reference[] = [];
  for (const edge of edges) {
    const { path, array } = slotPath(edge.slot)!;
    const value = path.reduce<unknown>(
      (at, property) =>
        at !== null && typeof at === 'object' && !Array.isArray(at)
          ? (at as Record<string, unknown>)[property]
          : undefined,
      body,
    );
    const values = array ? (Array.isArray(value) ? value : []) : [value];
    for (const item of values)
      if (typeof item === 'string' || typeof item === 'number') found.push({ edge, value: item });
  }
  return found;
}

function refusal(status: number, missing: Reference): ProblemError {
  const { edge, value } = missing;
  const property = slotPath(edge.slot)!.path.join('.');
  return new ProblemError(
    status,
    'unknown_reference',
    `${property} ${JSON.stringify(value)} names no item of ${edge.resource} (no ${edge.property} ${String(value)})`,
  );
}

/**
 * The mock's check of the references a body makes (docs/mock-behaviour.md): where the document
 * gives an operation a status for a request naming nothing (422, 404 or 409), a body property
 * that names a kept resource by its key (`shelf_id`, `tag_ids`) must name one the tenant holds,
 * else the request gets that status. Elsewhere references are accepted as sent.
 */
export function referenceGuard(document: LoadedDocument, model: ResourceModel): ReferenceGuard {
  const references = inferReferences(document, model);
  const enforced = new Map<string, { status: number; edges: ReferenceEdge[] }>();
  for (const operation of document.operations) {
    if (SAFE_METHODS.has(operation.method.toLowerCase())) continue;
    const edges = enforcedReferences(model, operation, references.of(operation));
    const status = danglingReferenceStatus(operation);
    if (edges.length > 0 && status !== undefined) enforced.set(operation.id, { status, edges });
  }
  return (operation, input, tenant) => {
    const rule = enforced.get(operation.id);
    if (!rule || !input.body.present) return;
    const check = (remaining: readonly Reference[]): MaybePromise<void> => {
      const [first, ...rest] = remaining;
      if (!first) return;
      return andThen(tenant.collection(first.edge.resource).get(String(first.value)), (found) => {
        if (!found) throw refusal(rule.status, first);
        return check(rest);
      });
    };
    return check(referencesIn(input.body.value, rule.edges));
  };
}
