import { stringifyJson } from '../../core/json.js';
import {
  danglingReferenceStatus,
  enforcedReferences,
  slotPath,
  type ReferenceEdge,
} from '../../openapi/reference-edges.js';
import { fitsSlot } from '../prepare/reference-values.js';
import type { CheckContext, CheckFailure, Exchange, ScenarioCheck } from '../types.js';
import { unlikelyId } from './ids.js';
import { failure } from './failure.js';
import { documentedStatuses, isSuccess, statusText } from './response-status.js';
import { validRequest } from './valid-request.js';

const NAME = 'unknown-reference-refused';

/** Statuses a document gives a request naming something that does not exist. */
const NOT_THERE = ['404', '409', '422'];

/**
 * The body references a probe can change: one per resource, not guessed, a property or an array
 * of them, or a resource identifier at any depth (`{"type": "patients", "id": …}`).
 */
function probedEdges(edges: readonly ReferenceEdge[]): ReferenceEdge[] {
  const byResource = new Map<string, ReferenceEdge>();
  for (const edge of edges) {
    const reachable = /^\/[^/]+(\/\*)?$/.test(edge.slot.name) || (edge.rule === 'type' && slotPath(edge.slot));
    if (edge.slot.in !== 'body' || edge.guessed || !reachable) continue;
    if (!byResource.has(edge.resource)) byResource.set(edge.resource, edge);
  }
  return [...byResource.values()];
}

/**
 * `body` with the edge's slot naming `unknown` instead (an array of references becomes
 * `[unknown]`); the slot's path starts at the whole body, so a wrapper the body goes in is skipped.
 */
function withReference(body: Record<string, unknown>, edge: ReferenceEdge, unknown: string | number, wrapper?: string) {
  const { path, array } = slotPath(edge.slot)!;
  const inner = wrapper !== undefined && path[0] === wrapper && path.length > 1 ? path.slice(1) : path;
  const set = (at: unknown, [first, ...rest]: string[]): Record<string, unknown> => {
    const object = at !== null && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, unknown>) : {};
    if (rest.length === 0) return { ...object, [first!]: array ? [unknown] : unknown };
    return { ...object, [first!]: set(object[first!], rest) };
  };
  return set(body, inner);
}

function judged(exchange: Exchange, edge: ReferenceEdge, unknown: unknown, enforced: boolean): CheckFailure[] {
  const response = exchange.response;
  if (!response || response.status >= 500) return []; // not-a-server-error's
  const what = `${edge.slot.name.slice(1)} ${stringifyJson(unknown)}, which does not exist`;
  if (isSuccess(exchange)) {
    const promised = exchange.operation.operation.responses
      .map((item) => item.status)
      .filter((status) => NOT_THERE.includes(status));
    return [
      failure(NAME, enforced ? 'error' : 'warning', exchange, `accepted ${what}`, {
        expected: enforced ? `the documented ${promised.join(' or ')}` : 'a 4xx: the reference names nothing',
        actual: statusText(exchange),
      }),
    ];
  }
  const documented = exchange.operation.operation.responses.map((item) => item.status);
  if (documented.includes(String(response.status))) return [];
  const promised = documented.filter((status) => NOT_THERE.includes(status));
  return [
    failure(NAME, promised.length > 0 ? 'error' : 'warning', exchange, `answered ${what} with ${response.status}`, {
      expected:
        promised.length > 0
          ? `the documented ${promised.join(' or ')}`
          : `one of ${documentedStatuses(exchange.operation)}`,
      actual: statusText(exchange),
    }),
  ];
}

/**
 * True when the deployment's own read of the referenced resource says `unknown` is not there
 * (404): a reference the mock cannot judge (a search-only catalogue it answers from examples) is
 * then still known to name nothing.
 */
async function readSaysAbsent(context: CheckContext, edge: ReferenceEdge, unknown: unknown): Promise<boolean> {
  const read = context.plan.collection(edge.resource).read;
  const resource = read?.resource;
  const parameter = resource?.itemParameter;
  if (!read || !parameter || resource.parentParameters.length > 0 || resource.key?.property !== edge.property)
    return false;
  const exchange = await context.send({
    operation: read,
    intent: 'absent',
    purpose: `${read.id} of the ${edge.resource} item ${stringifyJson(unknown)} a reference named`,
    pathParams: { [parameter]: String(unknown) },
  });
  return exchange.response?.status === 404;
}

/**
 * A create or write that names other resources (`performance_id`, `departure_id`) is sent once
 * per referenced resource with that reference naming nothing the deployment has (a random uuid,
 * a large number): it must be refused with the status the document gives such a request (404,
 * 409 or 422 when documented; another 4xx is then an error). Accepting it is an error where the
 * document gives the operation such a status and the reference names a kept resource by its key
 * (`enforcedReferences`, the rule the mock follows too) or the deployment's own read of it answers
 * 404; elsewhere a warning: nothing then says that references are checked, or that it names nothing.
 */
export const unknownReferenceRefused: ScenarioCheck = {
  name: NAME,
  kind: 'scenario',
  severity: 'error',
  description: 'a body naming a resource that does not exist is refused with the documented status',
  skipReason(operation, plan, settings) {
    if (!operation.body || operation.safe) return 'the operation sends no body that names other resources';
    if (probedEdges(plan.references.of(operation.operation)).length === 0) return 'the body names no other resource';
    if (operation.successStatuses.length === 0) return 'the operation documents no successful response';
    return settings.readOnly ? 'read-only run: the operation changes state' : undefined;
  },
  async run(context) {
    const { operation, plan } = context;
    const base = validRequest(context, operation, `${operation.id} naming nothing`);
    const body = base.body && 'value' in base.body ? base.body.value : undefined;
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      return { failures: [], skipped: 'the body is not an object' };
    const failures: CheckFailure[] = [];
    const edges = plan.references.of(operation.operation);
    const enforced = new Set(enforcedReferences(plan.model, operation.operation, edges));
    for (const edge of probedEdges(edges)) {
      const text = unlikelyId(edge.slot.schema, context.random);
      if (text === undefined) continue;
      const unknown = /^\d+$/.test(text) && !fitsSlot(text, edge.slot.schema, false) ? Number(text) : text;
      if (!fitsSlot(unknown, edge.slot.schema, false)) continue;
      const exchange = await context.send({
        ...base,
        intent: 'absent',
        purpose: `${operation.id} with ${edge.slot.name.slice(1)} naming no ${edge.resource} item`,
        body: {
          value: withReference(body as Record<string, unknown>, edge, unknown, operation.body?.wrapper?.property),
        },
      });
      const promised = danglingReferenceStatus(operation.operation) !== undefined;
      const error =
        enforced.has(edge) || (promised && isSuccess(exchange) && (await readSaysAbsent(context, edge, unknown)));
      failures.push(...judged(exchange, edge, unknown, error));
    }
    return { failures };
  },
};
