// The single-fault deployments of the Stagedoor Ticketing API (test/fixtures/foreign/stagedoor-tickets.yaml).
// Each is one clear violation of the document; everything else stays as the reference server does it.
import type { FaultSpec } from '../fault-catalogue.js';

const TABLE = [
  // --- auth -------------------------------------------------------------------------------------
  {
    name: 'performance-read-unprotected',
    family: 'auth',
    description: 'getPerformance answers without an access token',
    checks: ['auth-enforced'],
  },
  {
    name: 'create-accepts-any-token',
    family: 'auth',
    description: 'createReservation accepts any Bearer token',
    checks: ['auth-enforced'],
  },
  {
    name: 'payment-unprotected',
    family: 'auth',
    description: 'payReservation skips authentication',
    checks: ['auth-enforced'],
  },
  {
    name: 'missing-token-403',
    family: 'auth',
    description: 'A missing or unknown token answers 403 (documented for a token lacking a scope) instead of 401',
    checks: ['auth-enforced'],
  },
  {
    name: 'no-www-authenticate',
    family: 'auth',
    description: '401 responses carry no WWW-Authenticate challenge (documented as required)',
    checks: ['auth-challenge-present', 'response-headers-conformance'],
  },
  {
    name: 'bearer-case-sensitive',
    family: 'auth',
    description: 'The scheme must be spelt "Bearer": "bearer <token>" gets 401 (RFC 9110 §11.1)',
    checks: ['auth-scheme-case-insensitive'],
  },
  // --- errors -----------------------------------------------------------------------------------
  {
    name: 'problem-as-plain-json',
    family: 'errors',
    description: 'Error bodies are sent as application/json instead of application/problem+json',
    checks: ['content-type-conformance'],
  },
  {
    name: 'problem-status-mismatch',
    family: 'errors',
    description: 'The problem `status` is always 400, whatever the HTTP status',
    checks: ['error-body-conformance'],
  },
  {
    name: 'problem-without-title',
    family: 'errors',
    description: 'Problem bodies lack the required `title`',
    checks: ['error-body-conformance', 'response-schema-conformance'],
  },
  {
    name: 'malformed-json-500',
    family: 'errors',
    description: 'createReservation answers malformed JSON with 500',
    checks: ['not-a-server-error'],
  },
  {
    name: 'malformed-id-500',
    family: 'errors',
    description: 'getReservation answers a reservationId that is not a uuid with 500',
    checks: ['not-a-server-error'],
  },
  {
    name: 'unknown-reservation-400',
    family: 'errors',
    description: 'getReservation answers a well-formed unknown id with 400 instead of 404',
    checks: ['not-found-conformance', 'unknown-id-conformance'],
  },
  {
    name: 'unknown-performance-404',
    family: 'errors',
    description: 'createReservation answers an unknown performance_id with 404 (undocumented) instead of 422',
    checks: ['status-code-conformance'],
  },
  {
    name: 'bank-payment-500',
    family: 'errors',
    description: 'payReservation answers every valid bank_account payment with 500',
    checks: ['not-a-server-error'],
  },
  // --- status codes ------------------------------------------------------------------------------
  {
    name: 'create-200',
    family: 'status',
    description: 'createReservation answers 200 instead of 201',
    checks: ['status-code-conformance'],
  },
  {
    name: 'payment-200',
    family: 'status',
    description: 'payReservation answers 200 instead of 201',
    checks: ['status-code-conformance'],
  },
  {
    name: 'cancel-200-with-body',
    family: 'status',
    description: 'cancelReservation answers 200 with the reservation instead of 204',
    checks: ['status-code-conformance'],
  },
  // --- headers ------------------------------------------------------------------------------------
  {
    name: 'location-missing',
    family: 'headers',
    description: 'createReservation sends no Location (documented as required)',
    checks: ['response-headers-conformance'],
  },
  {
    name: 'location-previous-reservation',
    family: 'headers',
    description: 'Location names the reservation created before this one',
    checks: ['location-resolves'],
  },
  {
    name: 'ratelimit-missing-on-search',
    family: 'headers',
    description: 'searchPerformances sends no RateLimit-Remaining (documented as required)',
    checks: ['response-headers-conformance'],
  },
  {
    name: 'ratelimit-not-integer',
    family: 'headers',
    description: 'listVenues sends RateLimit-Remaining: unlimited (documented as an integer)',
    checks: ['response-headers-conformance'],
  },
  // --- envelopes ---------------------------------------------------------------------------------
  {
    name: 'venues-bare-array',
    family: 'envelopes',
    description: 'listVenues answers the bare array of venues, not {data, links}',
    checks: ['response-schema-conformance'],
  },
  {
    name: 'venues-links-missing',
    family: 'envelopes',
    description: 'listVenues answers {data} without `links`',
    checks: ['response-schema-conformance'],
  },
  {
    name: 'links-self-missing',
    family: 'envelopes',
    description: 'Page links lack the required `self`',
    checks: ['response-schema-conformance'],
  },
  {
    name: 'venue-items-city-missing',
    family: 'envelopes',
    description: "Listed venues' addresses lack the required `city`",
    checks: ['response-schema-conformance'],
  },
  {
    name: 'performances-data-renamed',
    family: 'envelopes',
    description: 'searchPerformances wraps its items in `items` instead of `data`',
    checks: ['response-schema-conformance'],
  },
  {
    name: 'search-items-starts-at-missing',
    family: 'envelopes',
    description: 'Performances found by searchPerformances lack the required `starts_at`',
    checks: ['response-schema-conformance'],
  },
  // --- pagination ---------------------------------------------------------------------------------
  {
    name: 'page-two-capacity-as-string',
    family: 'pagination',
    description: 'Venues on pages after the first have `capacity` as a string',
    checks: ['response-schema-conformance'],
  },
  {
    name: 'next-on-last-page',
    family: 'pagination',
    description: 'The last page has a `next` link (to an empty page)',
    checks: ['pagination-links'],
  },
  {
    name: 'next-loops-to-first',
    family: 'pagination',
    description: "The last page's `next` link points to page 1",
    checks: ['pagination-links'],
  },
  {
    name: 'items-repeated-across-pages',
    family: 'pagination',
    description: 'Each page after the first starts with the last item of the page before',
    checks: ['pagination-links', 'collection-consistency'],
  },
  {
    name: 'page-larger-than-limit',
    family: 'pagination',
    description: 'A page holds limit+1 items when there are that many',
    checks: ['limit-honoured'],
  },
  {
    name: 'prev-on-first-page',
    family: 'pagination',
    description: 'The first page has a `prev` link (to page 0)',
    checks: ['pagination-links'],
  },
  {
    name: 'next-drops-limit',
    family: 'pagination',
    description: '`next` omits the limit: following it from a page of 5 skips items 6 to 10',
    checks: ['pagination-links'],
  },
  {
    name: 'page-beyond-last-500',
    family: 'pagination',
    description: 'A page after the last answers 500',
    checks: ['not-a-server-error'],
  },
  // --- negative inputs ---------------------------------------------------------------------------
  {
    name: 'venue-id-missing-accepted',
    family: 'negative',
    description: 'searchPerformances without the required venue_id answers 200 (every venue)',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'starts-after-missing-accepted',
    family: 'negative',
    description: 'searchPerformances without the required starts_after answers 200',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'venue-id-malformed-accepted',
    family: 'negative',
    description: 'searchPerformances with a venue_id that is not a uuid answers 200 (empty)',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'starts-after-malformed-accepted',
    family: 'negative',
    description: 'searchPerformances with a starts_after that is not a date-time answers 200',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'offset-refused',
    family: 'negative',
    description: 'starts_after with an offset other than Z (2031-03-01T20:00:00+02:00) answers 400',
    checks: ['positive-data-acceptance'],
  },
  {
    name: 'fractional-seconds-refused',
    family: 'negative',
    description: 'starts_after with fractional seconds (2031-03-01T20:00:00.5Z) answers 400',
    checks: ['positive-data-acceptance'],
  },
  {
    name: 'limit-zero-accepted',
    family: 'negative',
    description: 'limit=0 (minimum 1) answers 200 with an empty page',
    checks: ['limit-honoured', 'negative-data-rejection'],
  },
  {
    name: 'limit-above-max-honoured',
    family: 'negative',
    description: 'limit above the maximum of 50 is honoured: limit=100 lists 55 venues',
    checks: ['limit-honoured', 'negative-data-rejection'],
  },
  {
    name: 'page-zero-accepted',
    family: 'negative',
    description: 'page=0 (minimum 1) answers 200',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'boolean-filter-loose',
    family: 'negative',
    description: 'sold_out=yes (not a boolean) answers 200, taken as true',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'seats-zero-accepted',
    family: 'negative',
    description: 'createReservation accepts seats 0 (minimum 1)',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'email-unchecked',
    family: 'negative',
    description: 'createReservation accepts a holder email that is not an email address',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'card-number-unchecked',
    family: 'negative',
    description: 'payReservation accepts a card_number that breaks its pattern',
    checks: ['negative-data-rejection'],
  },
  // --- state reached -----------------------------------------------------------------------------
  {
    name: 'create-ignored',
    family: 'state',
    description: 'createReservation answers 201 but stores nothing: the read answers 404',
    checks: ['resource-round-trip'],
  },
  {
    name: 'seats-read-back-as-one',
    family: 'state',
    description: 'A reservation reads back with 1 seat whatever was held',
    checks: ['resource-round-trip'],
  },
  {
    name: 'holder-dropped',
    family: 'state',
    description: 'The holder is not stored: the read has none',
    checks: ['resource-round-trip'],
  },
  {
    name: 'cancel-does-not-delete',
    family: 'state',
    description: 'cancelReservation answers 204 but the reservation still reads as 200',
    checks: ['resource-lifecycle'],
  },
  {
    name: 'cancel-unknown-204',
    family: 'state',
    description: 'cancelReservation answers 204 for an id that does not exist (404 documented)',
    checks: ['not-found-conformance', 'unknown-id-conformance'],
  },
  {
    name: 'payment-accepted-twice',
    family: 'state',
    description: 'A paid reservation is paid again: the second payment answers 201, not 409',
    checks: ['resource-lifecycle'],
  },
  {
    name: 'payment-after-cancel-accepted',
    family: 'state',
    description: 'A cancelled reservation can still be paid (201 instead of 404)',
    checks: ['resource-lifecycle'],
  },
  {
    name: 'reservation-ids-reused',
    family: 'state',
    description: 'Every 25th reservation takes the id of the first one and replaces it',
    checks: ['id-permanence', 'id-uniqueness'],
  },
  // --- references ----------------------------------------------------------------------------------
  {
    name: 'search-ignores-venue',
    family: 'references',
    description: 'searchPerformances returns the performances of every venue, whatever venue_id',
    checks: ['filter-honoured'],
  },
  {
    name: 'search-ignores-sold-out',
    family: 'references',
    description: 'searchPerformances ignores sold_out',
    checks: ['filter-honoured'],
  },
  {
    name: 'search-accessible-inverted',
    family: 'references',
    description: 'searchPerformances with accessible=true lists the inaccessible performances, and back',
    checks: ['filter-honoured'],
  },
  {
    name: 'venue-city-filter-ignored',
    family: 'references',
    description: 'listVenues ignores city',
    checks: ['filter-honoured'],
  },
  {
    name: 'unknown-performance-accepted',
    family: 'references',
    description: 'createReservation holds seats of a performance_id that does not exist (201 instead of 422)',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'reservation-read-returns-latest',
    family: 'references',
    description: 'getReservation returns the newest reservation whatever the id',
    checks: ['resource-round-trip'],
  },
  {
    name: 'performance-read-returns-first',
    family: 'references',
    description: "getPerformance returns its venue's first performance",
    checks: ['collection-consistency'],
  },
  {
    name: 'reservation-performance-swapped',
    family: 'references',
    description: "A reservation is stored for its venue's first performance, not the one named",
    checks: ['resource-round-trip'],
  },
] as const satisfies readonly Omit<FaultSpec, 'caughtToday'>[];

export type StagedoorFault = (typeof TABLE)[number]['name'];

/** Faults kennel check catches today (pinned by test/contract/foreign-apis.test.ts). */
const CAUGHT_TODAY: ReadonlySet<StagedoorFault> = new Set<StagedoorFault>([]);

/** What each missed fault waits for. */
const WAITS_FOR: Partial<Record<StagedoorFault, FaultSpec['waitsFor']>> = {};

export const STAGEDOOR_FAULTS: readonly FaultSpec<StagedoorFault>[] = TABLE.map((fault) => ({
  ...fault,
  caughtToday: CAUGHT_TODAY.has(fault.name),
  ...(CAUGHT_TODAY.has(fault.name) ? {} : { waitsFor: WAITS_FOR[fault.name] }),
}));
