import { authBeforeValidation } from './auth-before-validation.js';
import { authChallengePresent } from './auth-challenge-present.js';
import { authEnforced } from './auth-enforced.js';
import { authSchemeCaseInsensitive } from './auth-scheme-case-insensitive.js';
import { bodyLinksResolve } from './body-links-resolve.js';
import { collectionConsistency } from './collection-consistency.js';
import { contentTypeConformance } from './content-type-conformance.js';
import { dataFidelity } from './data-fidelity.js';
import { deprecationHeadersScoped } from './deprecation-headers-scoped.js';
import { deprecationSignalled } from './deprecation-signalled.js';
import { errorBodyConformance } from './error-body-conformance.js';
import { filterHonoured } from './filter-honoured.js';
import { idPermanence } from './id-permanence.js';
import { idUniqueness } from './id-uniqueness.js';
import { idsNeverReused } from './ids-never-reused.js';
import { linksFollowed } from './links-followed.js';
import { limitHonoured } from './limit-honoured.js';
import { listFreshness } from './list-freshness.js';
import { locationResolves } from './location-resolves.js';
import { negativeDataRejection } from './negative-data-rejection.js';
import { notAServerError } from './not-a-server-error.js';
import { notFoundConformance } from './not-found-conformance.js';
import { paginationFollowed } from './pagination-followed.js';
import { unknownReferenceRefused } from './unknown-reference-refused.js';
import { positiveDataAcceptance } from './positive-data-acceptance.js';
import { resourceLifecycle } from './resource-lifecycle.js';
import { resourceRoundTrip } from './resource-round-trip.js';
import { responseHeadersConformance } from './response-headers-conformance.js';
import { readReturnsRequested } from './read-returns-requested.js';
import { readsScopedToParent } from './reads-scoped-to-parent.js';
import { conditionalRequests } from './conditional-requests.js';
import { responseSchemaConformance } from './response-schema-conformance.js';
import { serverAssignedId } from './server-assigned-id.js';
import { statusCodeConformance } from './status-code-conformance.js';
import { sunsetDateConformance } from './sunset-date-conformance.js';
import { unknownIdConformance } from './unknown-id-conformance.js';
import type { Check, ResponseCheck, ScenarioCheck } from '../types.js';

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
  readsScopedToParent,
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
