import { authBeforeValidation } from './checks/auth-before-validation.js';
import { authChallengePresent } from './checks/auth-challenge-present.js';
import { authEnforced } from './checks/auth-enforced.js';
import { authSchemeCaseInsensitive } from './checks/auth-scheme-case-insensitive.js';
import { bodyLinksResolve } from './checks/body-links-resolve.js';
import { collectionConsistency } from './checks/collection-consistency.js';
import { contentTypeConformance } from './checks/content-type-conformance.js';
import { dataFidelity } from './checks/data-fidelity.js';
import { deprecationHeadersScoped } from './checks/deprecation-headers-scoped.js';
import { deprecationSignalled } from './checks/deprecation-signalled.js';
import { errorBodyConformance } from './checks/error-body-conformance.js';
import { filterHonoured } from './checks/filter-honoured.js';
import { idPermanence } from './checks/id-permanence.js';
import { idUniqueness } from './checks/id-uniqueness.js';
import { idsNeverReused } from './checks/ids-never-reused.js';
import { linksFollowed } from './checks/links-followed.js';
import { limitHonoured } from './checks/limit-honoured.js';
import { listFreshness } from './checks/list-freshness.js';
import { locationResolves } from './checks/location-resolves.js';
import { negativeDataRejection } from './checks/negative-data-rejection.js';
import { notAServerError } from './checks/not-a-server-error.js';
import { notFoundConformance } from './checks/not-found-conformance.js';
import { paginationFollowed } from './checks/pagination-followed.js';
import { unknownReferenceRefused } from './checks/unknown-reference-refused.js';
import { positiveDataAcceptance } from './checks/positive-data-acceptance.js';
import { resourceLifecycle } from './checks/resource-lifecycle.js';
import { resourceRoundTrip } from './checks/resource-round-trip.js';
import { responseHeadersConformance } from './checks/response-headers-conformance.js';
import { readReturnsRequested } from './checks/read-returns-requested.js';
import { conditionalRequests } from './checks/conditional-requests.js';
import { responseSchemaConformance } from './checks/response-schema-conformance.js';
import { serverAssignedId } from './checks/server-assigned-id.js';
import { statusCodeConformance } from './checks/status-code-conformance.js';
import { sunsetDateConformance } from './checks/sunset-date-conformance.js';
import { unknownIdConformance } from './checks/unknown-id-conformance.js';
import type { Check, ResponseCheck, ScenarioCheck } from './types.js';

/** Checks that judge every exchange of the run. */
export const RESPONSE_CHECKS: readonly ResponseCheck[] = [
  notAServerError,
  statusCodeConformance,
  contentTypeConformance,
  responseSchemaConformance,
  responseHeadersConformance,
  errorBodyConformance,
  deprecationSignalled,
  // Response checks for authentication, near-miss input, deprecation and intermittent faults.
  authChallengePresent,
  sunsetDateConformance,
  deprecationHeadersScoped,
  idsNeverReused,
];

/** Checks that send their own requests, in the order they run (the store-filling ones last). */
export const SCENARIO_CHECKS: readonly ScenarioCheck[] = [
  authEnforced,
  positiveDataAcceptance,
  resourceRoundTrip,
  serverAssignedId,
  idUniqueness,
  notFoundConformance,
  unknownReferenceRefused,
  negativeDataRejection,
  filterHonoured,
  // Scenario checks for data fidelity, collection invariants and the identifier lifecycle.
  dataFidelity,
  listFreshness,
  collectionConsistency,
  readReturnsRequested,
  conditionalRequests,
  paginationFollowed,
  unknownIdConformance,
  locationResolves,
  idPermanence,
  // Scenario checks for authentication, near-miss input and deprecation.
  authSchemeCaseInsensitive,
  authBeforeValidation,
  limitHonoured,
  // Stateful sequences: the OpenAPI links the document states, and the resource model's lifecycle
  // (last: it deletes, though only the item it created itself).
  linksFollowed,
  bodyLinksResolve,
  resourceLifecycle,
];

export const ALL_CHECKS: readonly Check[] = [...RESPONSE_CHECKS, ...SCENARIO_CHECKS];

/** The checks to run: `include` (all when empty) minus `exclude`; unknown names are reported. */
export function selectChecks(
  include: readonly string[],
  exclude: readonly string[],
): { checks: Check[]; unknown: string[] } {
  const names = new Set(ALL_CHECKS.map((check) => check.name));
  const unknown = [...include, ...exclude].filter((name) => !names.has(name));
  const chosen = ALL_CHECKS.filter(
    (check) => (include.length === 0 || include.includes(check.name)) && !exclude.includes(check.name),
  );
  return { checks: chosen, unknown };
}
