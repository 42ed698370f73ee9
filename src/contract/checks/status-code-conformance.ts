import type { Exchange, ResponseCheck } from '../types.js';
import { failure } from './failure.js';
import { documentedResponse, documentedStatuses, statusText } from './response-status.js';

/**
 * A plausible request whose doubt lies only in its body (`{}` for a schema without `required`, a
 * body reference kennel invented), refused by an operation that documents how it refuses bodies
 * (400 or 422): the deployment should have used that status. Doubt in the path (a parent kennel
 * could not name) may fairly get an undocumented 404.
 */
function refusesBodyUndocumented(exchange: Exchange): boolean {
  if (exchange.intent !== 'valid' || exchange.acceptance !== 'plausible') return false;
  if ((exchange.invented ?? []).some((slot) => slot.startsWith('path.') || slot.startsWith('query.'))) return false;
  return exchange.request.body !== undefined && exchange.operation.validationStatuses.length > 0;
}

/**
 * Every status must be documented for its operation. A client mistake (invalid input, missing or
 * bad credentials, an absent id) or a merely plausible valid request answered with an undocumented
 * 4xx is only a warning (the document may simply not list that rejection), unless it documents a
 * status for exactly this mistake (a schema-invalid body of `createPet` → 400).
 */
export const statusCodeConformance: ResponseCheck = {
  name: 'status-code-conformance',
  kind: 'response',
  severity: 'error',
  description: 'every status is one the operation documents',
  inspect(_plan, exchange) {
    const response = exchange.response;
    if (!response || response.status >= 500 || documentedResponse(exchange)) return [];
    // A request meant to fail (invalid input, no credentials, an absent id), or one the document
    // only makes plausible (it does not say the body suffices, or kennel invented a reference),
    // answered with an undocumented 4xx: the document did not list that answer, the deployment is
    // not wrong.
    const mayFail = exchange.intent !== 'valid' || exchange.acceptance === 'plausible';
    const clientMistake = mayFail && response.status >= 400 && response.status < 500;
    const severity =
      clientMistake && !exchange.strictStatus && !refusesBodyUndocumented(exchange) ? 'warning' : 'error';
    const title = clientMistake
      ? `rejects ${exchange.purpose} with undocumented status ${response.status}`
      : `undocumented status ${response.status} for ${exchange.purpose}`;
    return [
      failure(this.name, severity, exchange, title, {
        expected: `one of ${documentedStatuses(exchange.operation)}`,
        actual: statusText(exchange),
      }),
    ];
  },
};
