// The single-fault deployments of the Redocly Museum API (test/fixtures/foreign/redocly-museum.yaml).
// Each is one clear violation of the document; everything else stays as the reference server does it.
import type { FaultSpec } from '../fault-catalogue.js';

const TABLE = [
  // --- auth (HTTP Basic on every operation) ---------------------------------------------------------
  {
    name: 'delete-unauthenticated',
    family: 'auth',
    description: 'deleteSpecialEvent works without credentials',
    checks: ['auth-enforced'],
  },
  {
    name: 'create-event-unauthenticated',
    family: 'auth',
    description: 'createSpecialEvent works without credentials',
    checks: ['auth-enforced'],
  },
  {
    name: 'any-password',
    family: 'auth',
    description: 'Basic credentials with any password are accepted',
    checks: ['auth-enforced'],
  },
  {
    name: 'no-basic-challenge',
    family: 'auth',
    description: '401 responses carry no WWW-Authenticate challenge (RFC 9110 §15.5.2)',
    checks: ['auth-challenge-present'],
  },
  // --- status codes -------------------------------------------------------------------------------
  {
    name: 'create-event-200',
    family: 'status',
    description: 'createSpecialEvent answers 200 instead of 201',
    checks: ['status-code-conformance'],
  },
  {
    name: 'buy-tickets-200',
    family: 'status',
    description: 'buyMuseumTickets answers 200 instead of 201',
    checks: ['status-code-conformance'],
  },
  {
    name: 'delete-200-with-body',
    family: 'status',
    description: 'deleteSpecialEvent answers 200 with the event instead of 204',
    checks: ['status-code-conformance'],
  },
  // --- errors ---------------------------------------------------------------------------------------
  {
    name: 'problem-as-plain-json',
    family: 'errors',
    description: 'Error bodies are sent as application/json instead of application/problem+json',
    checks: ['content-type-conformance'],
  },
  {
    name: 'malformed-json-500',
    family: 'errors',
    description: 'createSpecialEvent answers malformed JSON with 500',
    checks: ['not-a-server-error'],
  },
  {
    name: 'unknown-event-400',
    family: 'errors',
    description: 'getSpecialEvent answers a well-formed unknown eventId with 400 instead of 404',
    checks: ['not-found-conformance', 'unknown-id-conformance'],
  },
  {
    name: 'malformed-event-id-500',
    family: 'errors',
    description: 'getSpecialEvent answers an eventId that is not a uuid with 500',
    checks: ['not-a-server-error'],
  },
  {
    name: 'error-body-string',
    family: 'errors',
    description: 'A 404 body is the JSON string "Not found", not an Error object',
    checks: ['error-body-conformance', 'response-schema-conformance'],
  },
  // --- state reached --------------------------------------------------------------------------------
  {
    name: 'create-ignored',
    family: 'state',
    description: 'createSpecialEvent answers 201 but stores nothing: the read answers 404',
    checks: ['resource-round-trip'],
  },
  {
    name: 'update-ignored',
    family: 'state',
    description: 'updateSpecialEvent answers the updated event but stores nothing',
    checks: ['resource-lifecycle'],
  },
  {
    name: 'patch-resets-unsent',
    family: 'state',
    description: 'updateSpecialEvent resets the fields it was not sent (price 0, no dates)',
    checks: ['resource-lifecycle'],
  },
  {
    name: 'delete-does-not-delete',
    family: 'state',
    description: 'deleteSpecialEvent answers 204 but the event still reads as 200',
    checks: ['resource-lifecycle'],
  },
  {
    name: 'price-rounded',
    family: 'state',
    description: 'Prices are stored rounded to whole units (25.5 reads back as 26)',
    checks: ['resource-round-trip', 'data-fidelity'],
  },
  {
    name: 'dates-truncated',
    family: 'state',
    description: "Only the first of an event's dates is stored",
    checks: ['resource-round-trip'],
  },
  // --- references --------------------------------------------------------------------------------------
  {
    name: 'ticket-unknown-event-accepted',
    family: 'references',
    description: 'buyMuseumTickets sells a ticket for an eventId that does not exist (201 instead of 404)',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'ticket-event-swapped',
    family: 'references',
    description: 'The ticket confirmation names another event than the one bought',
    checks: ['resource-round-trip'],
  },
  {
    name: 'get-event-returns-latest',
    family: 'references',
    description: 'getSpecialEvent returns the newest event whatever the id',
    checks: ['resource-round-trip', 'collection-consistency'],
  },
  {
    name: 'qr-unknown-ticket-200',
    family: 'references',
    description: 'getTicketCode answers an unknown ticketId with a QR code image instead of 404',
    checks: ['not-found-conformance', 'unknown-id-conformance'],
  },
  {
    name: 'events-date-range-ignored',
    family: 'references',
    description: 'listSpecialEvents ignores startDate and endDate: events of any date are listed',
    checks: ['filter-honoured'],
  },
  {
    name: 'hours-start-date-ignored',
    family: 'references',
    description: 'getMuseumHours ignores startDate: the hours always start today',
    checks: ['filter-honoured'],
  },
  // --- content and envelopes -------------------------------------------------------------------------
  {
    name: 'qr-as-json',
    family: 'content',
    description: 'getTicketCode answers application/json {"qr": base64} instead of image/png',
    checks: ['content-type-conformance'],
  },
  {
    name: 'events-wrapped',
    family: 'envelopes',
    description: 'listSpecialEvents answers {"data": [...]} instead of an array',
    checks: ['response-schema-conformance'],
  },
  {
    name: 'event-items-description-missing',
    family: 'envelopes',
    description: 'Listed events lack the required eventDescription',
    checks: ['response-schema-conformance'],
  },
  {
    name: 'hours-time-12h',
    family: 'content',
    description: 'Opening times are written "9:00 AM", breaking the HH:mm pattern',
    checks: ['response-schema-conformance'],
  },
  {
    name: 'confirmation-code-missing',
    family: 'content',
    description: 'Ticket confirmations lack the required confirmationCode',
    checks: ['response-schema-conformance'],
  },
  // --- pagination -----------------------------------------------------------------------------------
  {
    name: 'hours-limit-ignored',
    family: 'pagination',
    description: 'getMuseumHours ignores limit: always 10 days',
    checks: ['limit-honoured'],
  },
  {
    name: 'hours-default-limit-7',
    family: 'pagination',
    description: 'getMuseumHours without limit lists 7 days (the documented default is 10)',
    checks: ['limit-honoured'],
  },
  {
    name: 'hours-page-ignored',
    family: 'pagination',
    description: 'getMuseumHours ignores page: page 2 repeats page 1',
    checks: ['pagination-links', 'collection-consistency'],
  },
  {
    name: 'hours-page-larger-than-limit',
    family: 'pagination',
    description: 'getMuseumHours lists limit+1 days',
    checks: ['limit-honoured'],
  },
  {
    name: 'events-page-ignored',
    family: 'pagination',
    description: 'listSpecialEvents ignores page: page 2 repeats page 1',
    checks: ['pagination-links', 'collection-consistency'],
  },
  // --- negative inputs ------------------------------------------------------------------------------
  {
    name: 'hours-limit-above-max-honoured',
    family: 'negative',
    description: 'getMuseumHours honours limit above the maximum of 30 (limit=60 lists 60 days)',
    checks: ['limit-honoured', 'negative-data-rejection'],
  },
  {
    name: 'hours-bad-date-accepted',
    family: 'negative',
    description: 'getMuseumHours with a startDate that is not a date answers 200',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'hours-limit-non-integer-accepted',
    family: 'negative',
    description: 'getMuseumHours with limit=abc answers 200 (the default page)',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'event-missing-name-accepted',
    family: 'negative',
    description: 'createSpecialEvent without the required name answers 201',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'event-price-string-accepted',
    family: 'negative',
    description: 'createSpecialEvent accepts a price written as a string ("25")',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'event-dates-not-array',
    family: 'negative',
    description: 'createSpecialEvent accepts dates given as one string instead of an array',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'ticket-bad-date-accepted',
    family: 'negative',
    description: 'buyMuseumTickets accepts a ticketDate that is not a date (2031-02-30)',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'ticket-type-unchecked',
    family: 'negative',
    description: 'buyMuseumTickets accepts a ticketType outside the enum (vip)',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'patch-wrong-type-accepted',
    family: 'negative',
    description: 'updateSpecialEvent accepts a price written as a string and stores it',
    checks: ['negative-data-rejection'],
  },
] as const satisfies readonly Omit<FaultSpec, 'caughtToday'>[];

export type MuseumFault = (typeof TABLE)[number]['name'];

/** Faults kennel check catches today (pinned by test/contract/foreign-apis.test.ts). */
const CAUGHT_TODAY: ReadonlySet<MuseumFault> = new Set<MuseumFault>([
  'delete-unauthenticated',
  'create-event-unauthenticated',
  'any-password',
  'no-basic-challenge',
  'create-event-200',
  'buy-tickets-200',
  'delete-200-with-body',
  'malformed-json-500',
  'unknown-event-400',
  'malformed-event-id-500',
  'error-body-string',
  'create-ignored',
  'update-ignored',
  'patch-resets-unsent',
  'delete-does-not-delete',
  'get-event-returns-latest',
  'qr-as-json',
  'events-wrapped',
  'event-items-description-missing',
  'hours-time-12h',
  'confirmation-code-missing',
  'hours-limit-ignored',
  'hours-default-limit-7',
  'hours-page-larger-than-limit',
  'hours-limit-above-max-honoured',
  'hours-limit-non-integer-accepted',
  'event-missing-name-accepted',
  'patch-wrong-type-accepted',
]);

/** What each missed fault waits for. */
const WAITS_FOR: Partial<Record<MuseumFault, FaultSpec['waitsFor']>> = {
  'problem-as-plain-json': 'verdicts',
  'price-rounded': 'negative-inputs',
  'dates-truncated': 'negative-inputs',
  'ticket-unknown-event-accepted': 'exploration',
  'ticket-event-swapped': 'exploration',
  'qr-unknown-ticket-200': 'negative-inputs',
  'events-date-range-ignored': 'exploration',
  'hours-start-date-ignored': 'exploration',
  'hours-page-ignored': 'pagination',
  'events-page-ignored': 'pagination',
  'hours-bad-date-accepted': 'negative-inputs',
  'event-price-string-accepted': 'negative-inputs',
  'event-dates-not-array': 'negative-inputs',
  'ticket-bad-date-accepted': 'negative-inputs',
  'ticket-type-unchecked': 'negative-inputs',
};

export const MUSEUM_FAULTS: readonly FaultSpec<MuseumFault>[] = TABLE.map((fault) => ({
  ...fault,
  caughtToday: CAUGHT_TODAY.has(fault.name),
  ...(CAUGHT_TODAY.has(fault.name) ? {} : { waitsFor: WAITS_FOR[fault.name] }),
}));
