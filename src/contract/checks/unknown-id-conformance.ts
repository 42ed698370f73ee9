import { responseFor } from '../../openapi/operations.js';
import type { PlannedOperation } from '../prepare/plan.js';
import type { CheckContext, CheckFailure, Exchange, ScenarioCheck } from '../types.js';
import { idParameter, knowable, unlikelyId, idOf } from './ids.js';
import { failure } from './failure.js';
import { fitsParameter } from './path-values.js';
import { readById } from './read-by-id.js';
import { jsonBody } from './response-body.js';
import { statusText } from './response-status.js';

/**
 * Ids no deployment is likely to have: zero, negative, just beyond 2^53 (a double rounds it), the
 * int64 maximum and just beyond both ends, letters, other scripts, an emoji, and digits of other
 * scripts (some parsers read `١` as 1).
 */
const UNKNOWN_IDS = [
  '0',
  '-1',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  'kennel-unknown',
  'кот',
  '🐕',
  '١',
  '１',
];

function documents(operation: PlannedOperation, status: number): boolean {
  return operation.operation.responses.some((response) => response.status === String(status));
}

/** What is wrong with the answer to a read of `text`, an id the deployment is not known to have. */
function judge(check: string, exchange: Exchange, text: string, allowed: boolean, idProperty?: string): CheckFailure[] {
  const status = exchange.response?.status;
  if (status === undefined || (status >= 300 && status < 400)) return [];
  const say = (severity: 'error' | 'warning', title: string, expected: string, actual = statusText(exchange)) => [
    failure(check, severity, exchange, title, { expected, actual }),
  ];
  if (status >= 500) return say('error', `server error ${status} for the unknown id ${text}`, 'a 4xx (404)');
  const operation = exchange.operation;
  if (status < 300) {
    const got = idProperty ? idOf(jsonBody(exchange), idProperty) : undefined;
    if (allowed && got !== undefined && String(got) === text) return [];
    // Only a documented 404 promises that absent ids are refused; without one, a 2xx is wrong only
    // when it visibly serves another resource, and even then the document did not rule it out.
    const promised = documents(operation, 404);
    if (!promised && got === undefined) return [];
    return say(
      promised && knowable(operation) ? 'error' : 'warning',
      `the unknown id ${text} answered ${status} with another resource`,
      'a 4xx (404)',
      `${status} with ${idProperty ?? 'id'} ${String(got)}`,
    );
  }
  if (allowed) {
    if (documents(operation, 404))
      return status === 404 ? [] : say('error', `the unknown id ${text} answered ${status}`, '404');
    // Documented exactly, by a range (`4XX`) or by `default`: the document has an answer for it.
    return responseFor(operation.operation, status)
      ? []
      : say('warning', `the unknown id ${text} answered undocumented ${status}`, 'a documented 4xx');
  }
  // An id the schema refuses may be a 404 or a 400 (status-code-conformance weighs an undocumented 400).
  if (status === 404 || status === 400) return [];
  return say('warning', `the malformed id ${text} answered ${status}`, '404 or 400');
}

/**
 * Reads of ids that do not exist, at the edges of the id type and outside it, get a 4xx: the
 * documented 404 for ids the schema allows (a 400 too for ids it refuses), never a 5xx, never
 * another resource.
 */
export const unknownIdConformance: ScenarioCheck = {
  name: 'unknown-id-conformance',
  kind: 'scenario',
  severity: 'error',
  description: 'extreme, malformed and non-Latin unknown ids get a 4xx, never a 5xx or another resource',
  skipReason(operation) {
    if (operation.role !== 'read') return 'not an operation that reads one resource by id';
    return operation.parameters.some((parameter) => parameter.in === 'path') ? undefined : 'no path parameter';
  },
  async run(context: CheckContext) {
    const { operation, plan } = context;
    const parameter = idParameter(operation)!;
    const known = new Set(
      [
        ...context.state.pool.ids(operation.collection),
        ...(context.state.created.get(operation.collection!) ?? []).map((resource) => resource.id),
      ].map(String),
    );
    // First an unlikely id of the parameter's own type (a uuid for a uuid), then the edge cases.
    const typed = unlikelyId(parameter.resolved, context.random);
    const candidates = [...(typed === undefined ? [] : [typed]), ...UNKNOWN_IDS];
    const ids = [...new Set(candidates)].filter((text) => !known.has(text)).slice(0, context.settings.maxExamples);
    const idProperty = operation.idProperty ?? plan.collection(operation.collection!).list?.idProperty;
    const results = await Promise.all(
      ids.map(async (text) => {
        const allowed = fitsParameter(plan, parameter, text);
        const purpose = `${operation.id} for ${allowed ? 'the unknown' : 'the malformed'} id ${text}`;
        const exchange = await readById(context, operation, text, purpose, { intent: allowed ? 'absent' : 'invalid' });
        return judge(this.name, exchange, text, allowed, idProperty);
      }),
    );
    return { failures: results.flat() };
  },
};
