// The Museum faults of the interface surface: auth, status codes, errors, content and envelopes
// (see faults.ts). Each is one clear violation of test/fixtures/foreign/redocly-museum.yaml and
// declares the checks that must catch it, and whether kennel check catches it today or what
// capability it waits for.
import type { FaultSpec } from '../fault-catalogue.js';

export const SURFACE_FAULTS = [
  // --- auth (HTTP Basic on every operation) ---------------------------------------------------------
  {
    name: 'delete-unauthenticated',
    family: 'auth',
    description: 'deleteSpecialEvent works without credentials',
    checks: ['auth-enforced'],
    caughtToday: true,
  },
  {
    name: 'create-event-unauthenticated',
    family: 'auth',
    description: 'createSpecialEvent works without credentials',
    checks: ['auth-enforced'],
    caughtToday: true,
  },
  {
    name: 'any-password',
    family: 'auth',
    description: 'Basic credentials with any password are accepted',
    checks: ['auth-enforced'],
    caughtToday: true,
  },
  {
    name: 'no-basic-challenge',
    family: 'auth',
    description: '401 responses carry no WWW-Authenticate challenge (RFC 9110 §15.5.2)',
    checks: ['auth-challenge-present'],
    caughtToday: true,
  },
  // --- status codes -------------------------------------------------------------------------------
  {
    name: 'create-event-200',
    family: 'status',
    description: 'createSpecialEvent answers 200 instead of 201',
    checks: ['status-code-conformance'],
    caughtToday: true,
  },
  {
    name: 'buy-tickets-200',
    family: 'status',
    description: 'buyMuseumTickets answers 200 instead of 201',
    checks: ['status-code-conformance'],
    caughtToday: true,
  },
  {
    name: 'delete-200-with-body',
    family: 'status',
    description: 'deleteSpecialEvent answers 200 with the event instead of 204',
    checks: ['status-code-conformance'],
    caughtToday: true,
  },
  // --- errors ---------------------------------------------------------------------------------------
  {
    name: 'problem-as-plain-json',
    family: 'errors',
    description: 'Error bodies are sent as application/json instead of application/problem+json',
    checks: ['content-type-conformance'],
    caughtToday: true,
  },
  {
    name: 'malformed-json-500',
    family: 'errors',
    description: 'createSpecialEvent answers malformed JSON with 500',
    checks: ['not-a-server-error'],
    caughtToday: true,
  },
  {
    name: 'unknown-event-400',
    family: 'errors',
    description: 'getSpecialEvent answers a well-formed unknown eventId with 400 instead of 404',
    checks: ['not-found-conformance', 'unknown-id-conformance'],
    caughtToday: true,
  },
  {
    name: 'malformed-event-id-500',
    family: 'errors',
    description: 'getSpecialEvent answers an eventId that is not a uuid with 500',
    checks: ['not-a-server-error'],
    caughtToday: true,
  },
  {
    name: 'error-body-string',
    family: 'errors',
    description: 'A 404 body is the JSON string "Not found", not an Error object',
    checks: ['error-body-conformance', 'response-schema-conformance'],
    caughtToday: true,
    caughtBy: ['response-schema-conformance'],
  },
  // --- content and envelopes -------------------------------------------------------------------------
  {
    name: 'qr-as-json',
    family: 'content',
    description: 'getTicketCode answers application/json {"qr": base64} instead of image/png',
    checks: ['content-type-conformance'],
    caughtToday: true,
  },
  {
    name: 'events-wrapped',
    family: 'envelopes',
    description: 'listSpecialEvents answers {"data": [...]} instead of an array',
    checks: ['response-schema-conformance'],
    caughtToday: true,
  },
  {
    name: 'event-items-description-missing',
    family: 'envelopes',
    description: 'Listed events lack the required eventDescription',
    checks: ['response-schema-conformance'],
    caughtToday: true,
  },
  {
    name: 'hours-time-12h',
    family: 'content',
    description: 'Opening times are written "9:00 AM", breaking the HH:mm pattern',
    checks: ['response-schema-conformance'],
    caughtToday: true,
  },
  {
    name: 'confirmation-code-missing',
    family: 'content',
    description: 'Ticket confirmations lack the required confirmationCode',
    checks: ['response-schema-conformance'],
    caughtToday: true,
  },
] as const satisfies readonly FaultSpec[];
