import { stringifyJson } from '../../core/json.js';
import type { ReferenceEdge } from '../../openapi/reference-edges.js';
import { jsonBody } from '../checks/response-body.js';
import { isSuccess } from '../checks/response-status.js';
import { validRequest } from '../checks/valid-request.js';
import { nextRequest, nextStep } from '../prepare/next-page.js';
import type { CheckPlan, PlannedOperation } from '../prepare/plan.js';
import { fitsSlot, valuesFor } from '../prepare/reference-values.js';
import type { CheckContext, Exchange, RequestSpec } from '../types.js';

/** How far discovery reads: pages per list, items per list, requests per search. */
export const EXPLORATION_BOUNDS = { pages: 5, items: 300, searchAttempts: 12, candidatesPerSlot: 6 };

/** A context for one operation of discovery (the run's state, a seeded random source). */
export type ContextFor = (operation: PlannedOperation) => CheckContext;

/**
 * The lists discovery reads: the selected ones, and every list of a resource that feeds a slot
 * of a selected operation (transitively), producers before consumers.
 */
export function discoveryTargets(plan: CheckPlan): PlannedOperation[] {
  const wanted = new Set<string>();
  const pending = [...plan.operations];
  const visited = new Set<PlannedOperation>();
  while (pending.length > 0) {
    const operation = pending.pop()!;
    if (visited.has(operation)) continue;
    visited.add(operation);
    if (operation.role === 'list') wanted.add(operation.id);
    for (const edge of plan.references.of(operation.operation))
      for (const producer of plan.all)
        if (producer.role === 'list' && producer.collection === edge.resource) pending.push(producer);
  }
  return plan.order.filter((operation) => wanted.has(operation.id) && operation.successStatuses.length > 0);
}

/** Reads a list and its next pages (bounded), each page learned by the run as it arrives. */
export async function readPages(context: CheckContext, first: RequestSpec): Promise<Exchange[]> {
  const { operation } = context;
  const pages: Exchange[] = [];
  const visited = new Set<string>();
  let request: RequestSpec | undefined = first;
  let items = 0;
  while (request && pages.length < EXPLORATION_BOUNDS.pages && items < EXPLORATION_BOUNDS.items) {
    const exchange = await context.send(request);
    pages.push(exchange);
    const listed = jsonBody(exchange);
    if (!isSuccess(exchange) || !Array.isArray(listed)) break;
    items += listed.length;
    visited.add(exchange.request.url);
    const step = nextStep(operation, exchange, request);
    const next = nextRequest(request, step, `${operation.id} (discovery, page ${pages.length + 1})`);
    if (step.kind === 'url' && visited.has(step.url)) break;
    request = next;
  }
  return pages;
}

/** The values a required query reference can take: its documented example first, then values the deployment showed. */
function candidates(context: CheckContext, edge: ReferenceEdge): string[] {
  const documented = edge.slot.example === undefined ? [] : [edge.slot.example];
  const seen = valuesFor(context, edge)
    .filter((value) => fitsSlot(value, edge.slot.schema, true))
    .slice(0, EXPLORATION_BOUNDS.candidatesPerSlot);
  return [
    ...new Set([...documented, ...seen].map((value) => (typeof value === 'string' ? value : stringifyJson(value)))),
  ];
}

/** Combinations of candidates, the earliest ones of every slot first (a diagonal walk), at most `max`. */
export function combinations(lists: readonly string[][], max: number): string[][] {
  const found: string[][] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  const walk = (index: number, budget: number, picked: string[]): void => {
    if (found.length >= max) return;
    if (index === lists.length) {
      if (budget === 0) found.push(picked);
      return;
    }
    for (let at = 0; at <= Math.min(budget, lists[index]!.length - 1); at += 1)
      walk(index + 1, budget - at, [...picked, lists[index]![at]!]);
  };
  for (let sum = 0; sum <= longest * lists.length && found.length < max; sum += 1) walk(0, sum, []);
  return found;
}

/** Two slots fed by one resource (an origin and a destination) get different values when they can. */
const distinctWhereTheyShare = (edges: readonly ReferenceEdge[], values: readonly string[]): boolean =>
  edges.every((edge, index) =>
    edges.every((other, at) => at <= index || other.resource !== edge.resource || values[at] !== values[index]),
  );

/**
 * A search whose required query parameters are references (`origin`, `destination`): tries
 * combinations of documented examples and values the deployment showed until one answers a
 * non-empty list (bounded), then reads its pages. The query that worked is kept for the checks.
 */
async function search(context: CheckContext, edges: readonly ReferenceEdge[]): Promise<void> {
  const { operation } = context;
  const base = validRequest(context, operation, `${operation.id} (discovery)`);
  const lists = edges.map((edge) => candidates(context, edge));
  const tries = combinations(lists, EXPLORATION_BOUNDS.searchAttempts * 4)
    .filter((values) => distinctWhereTheyShare(edges, values))
    .slice(0, EXPLORATION_BOUNDS.searchAttempts);
  for (const values of tries.length > 0 ? tries : [[]]) {
    const query = { ...base.query };
    edges.forEach((edge, index) => {
      if (values[index] !== undefined) query[edge.slot.name] = values[index]!;
    });
    const purpose = `${operation.id} (discovery: searching ${edges.map((edge) => edge.slot.name).join(', ')})`;
    const exchange = await context.send({ ...base, query, purpose });
    const listed = jsonBody(exchange);
    if (!isSuccess(exchange) || !Array.isArray(listed) || listed.length === 0) continue;
    context.state.workingQueries.set(operation.id, query);
    await readPages(context, { ...base, query, purpose: `${operation.id} (discovery)` });
    return;
  }
}

/** Required query parameters of a list that are references: what makes it a search. */
function searchSlots(context: CheckContext): ReferenceEdge[] {
  const { operation, plan } = context;
  const required = new Set(
    operation.parameters.filter((parameter) => parameter.in === 'query' && parameter.required).map((p) => p.name),
  );
  return plan.references
    .of(operation.operation)
    .filter((edge) => edge.slot.in === 'query' && required.has(edge.slot.name));
}

/**
 * Discovery: reads the lists a client would, producers before consumers, through their
 * envelopes and pages (bounded), and explores searches keyed by references, so that the run's
 * value pool holds ids and values of the deployment before any check builds a request.
 */
export async function explore(plan: CheckPlan, contextFor: ContextFor): Promise<void> {
  for (const operation of discoveryTargets(plan)) {
    const context = contextFor(operation);
    const slots = searchSlots(context);
    if (slots.length > 0) await search(context, slots);
    else await readPages(context, validRequest(context, operation, `${operation.id} (discovery)`));
  }
}
