import { parse } from 'content-type';
import { valueAt } from '../../openapi/json-pointer.js';
import type { JsonSchema } from '../../openapi/openapi-types.js';
import { essenceOf, isJsonMediaType } from '../../openapi/operations.js';
import { primaryType } from '../../openapi/schema-shape.js';
import type { CheckPlan } from '../prepare/plan.js';
import type { Exchange, ResponseCheck } from '../types.js';
import { failure } from './failure.js';
import { documentedResponse } from './response-status.js';

function essence(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    return parse(header).type;
  } catch {
    return essenceOf(header);
  }
}

/** A documented media type covers the declared one: the same type, or a range (`image/*`, any type). */
function covers(range: string, actual: string): boolean {
  if (range === actual || range === '*/*') return true;
  return range.endsWith('/*') && actual.startsWith(range.slice(0, -1));
}

/**
 * Media types a client dispatches on, whose specifications require them on the wire: RFC 9457's
 * problem types (a problem told from a payload), and JSON:API's (v1.1: servers MUST send JSON:API
 * documents as `application/vnd.api+json`; its clients read resource objects only under it).
 */
function isDispatchingType(mediaType: string): boolean {
  return /^application\/(problem\+(json|xml)|vnd\.api\+json)$/.test(mediaType);
}

/**
 * Another JSON type than the documented one is only a warning where the document is vague (it
 * says `application/json`, or a vendor `+json` a plain JSON answer still serves), not where it
 * declares only types a client dispatches on (`application/problem+json`).
 */
function leniencyApplies(expected: readonly string[], actual: string): boolean {
  return isJsonMediaType(actual) && expected.some(isJsonMediaType) && !expected.every(isDispatchingType);
}

/**
 * JSON where the document gives an object schema under non-JSON media types only (a Swagger 2.0
 * `produces: [application/x-tar]` that also covers the operation's error bodies): the document
 * cannot mean the object as a tar stream; a JSON error is its inconsistency, not the deployment's.
 */
function objectUnderOpaqueTypes(plan: CheckPlan, exchange: Exchange, actual: string): boolean {
  const content = documentedResponse(exchange)?.content ?? [];
  if (!isJsonMediaType(actual) || content.length === 0) return false;
  return content.every((media) => {
    if (isJsonMediaType(media.mediaType) || !media.schema) return false;
    const schema = valueAt(plan.document.dereferenced, media.schema.pointer) as JsonSchema | undefined;
    return typeof schema === 'object' && primaryType(schema) === 'object';
  });
}

/**
 * A response with a body declares the media type the spec documents for it (parameters such as
 * `charset` are fine). Undocumented statuses must still be JSON (of any JSON type) when the API
 * speaks JSON.
 */
export const contentTypeConformance: ResponseCheck = {
  name: 'content-type-conformance',
  kind: 'response',
  severity: 'error',
  description: 'responses with a body carry the documented Content-Type',
  inspect(plan, exchange) {
    const response = exchange.response;
    if (!response || response.text === '' || exchange.request.method === 'HEAD') return [];
    const actual = essence(response.headers['content-type']);
    const documented = documentedResponse(exchange)?.content.map((media) => essenceOf(media.mediaType)) ?? [];
    // An undocumented status need only be JSON when the API speaks JSON: any JSON type will do
    // (`application/problem+json`, a vendor `+json`), the document naming none for it.
    if (documented.length === 0 && actual && isJsonMediaType(actual)) return [];
    const expected = documented.length > 0 ? documented : plan.errorSchema ? ['application/json'] : [];
    if (expected.length === 0 || (actual && expected.some((range) => covers(range, actual)))) return [];
    const shown = actual ?? '(none)';
    if (actual && (leniencyApplies(expected, actual) || objectUnderOpaqueTypes(plan, exchange, actual))) {
      return [
        failure(
          this.name,
          'warning',
          exchange,
          `Content-Type ${shown} instead of ${expected.join(' or ')} for ${exchange.purpose}`,
          { expected: expected.join(' or '), actual: shown },
        ),
      ];
    }
    return [
      failure(this.name, this.severity, exchange, `Content-Type ${shown} for ${exchange.purpose}`, {
        expected: expected.join(' or '),
        actual: shown,
      }),
    ];
  },
};
