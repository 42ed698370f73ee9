// The Cardwall faults of the surface: auth, status codes, errors, headers and content (see faults.ts). Each is one clear violation of
// test/fixtures/foreign/cardwall-kanban.yaml and declares the checks that must catch it, and whether
// kennel check catches it today or what capability it waits for.
import type { FaultSpec } from '../fault-catalogue.js';

export const SURFACE_FAULTS = [
  // --- auth (an API key in X-Api-Key on every operation) ---------------------------------------------
  {
    name: 'delete-board-without-key',
    family: 'auth',
    description: 'deleteBoard works without an X-Api-Key header',
    checks: ['auth-enforced'],
    caughtToday: true,
  },
  {
    name: 'any-api-key',
    family: 'auth',
    description: 'Any non-empty X-Api-Key is accepted',
    checks: ['auth-enforced', 'auth-before-validation'],
    caughtToday: true,
  },
  {
    name: 'comments-without-key',
    family: 'auth',
    description: 'listComments answers 200 without an X-Api-Key header',
    checks: ['auth-enforced', 'auth-before-validation'],
    caughtToday: true,
  },
  {
    name: 'missing-key-403',
    family: 'auth',
    description: 'A request without X-Api-Key answers 403 (undocumented) instead of the documented 401',
    checks: ['auth-enforced', 'status-code-conformance', 'auth-before-validation'],
    caughtToday: true,
    caughtBy: ['auth-before-validation', 'auth-enforced'],
  },
  // --- status codes -------------------------------------------------------------------------------
  {
    name: 'create-board-200',
    family: 'status',
    description: 'createBoard answers 200 instead of 201',
    checks: ['status-code-conformance'],
    caughtToday: true,
  },
  {
    name: 'delete-card-200-body',
    family: 'status',
    description: 'deleteCard answers 200 with the card instead of 204',
    checks: ['status-code-conformance'],
    caughtToday: true,
  },
  {
    name: 'label-create-200',
    family: 'status',
    description: 'putLabel under a new key answers 200 (replaced) instead of 201 (created)',
    checks: ['positive-data-acceptance'],
    caughtToday: true,
  },
  {
    name: 'archive-204',
    family: 'status',
    description: 'archiveBoard answers 204 without a body instead of 200 with the board',
    checks: ['status-code-conformance', 'filter-honoured'],
    caughtToday: true,
    caughtBy: ['status-code-conformance'],
  },
  // --- errors ---------------------------------------------------------------------------------------
  {
    name: 'validation-errors-missing',
    family: 'errors',
    description: 'A 422 answer has no `errors` array (ValidationError requires it)',
    checks: ['response-schema-conformance', 'negative-data-rejection'],
    caughtToday: true,
    caughtBy: ['response-schema-conformance'],
  },
  {
    name: 'validation-as-400',
    family: 'errors',
    description: 'A body that breaks its schema answers 400 instead of 422',
    checks: ['negative-data-rejection'],
    caughtToday: false,
    waitsFor: 'negative-inputs',
  },
  {
    name: 'malformed-json-500',
    family: 'errors',
    description: 'createCard answers malformed JSON with 500 instead of 400',
    checks: ['not-a-server-error'],
    caughtToday: true,
  },
  {
    name: 'error-as-text',
    family: 'errors',
    description: 'A 404 answers text/plain instead of the documented JSON Error',
    checks: ['content-type-conformance'],
    caughtToday: true,
  },
  // --- headers --------------------------------------------------------------------------------------
  {
    name: 'etag-missing-on-read',
    family: 'headers',
    description: 'getCard answers 200 without the required ETag',
    checks: ['response-headers-conformance'],
    caughtToday: true,
  },
  {
    name: 'if-none-match-ignored',
    family: 'headers',
    description: 'getBoard with If-None-Match naming the current ETag answers 200 instead of 304',
    checks: ['conditional-requests'],
    caughtToday: true,
  },
  {
    name: 'if-match-ignored',
    family: 'headers',
    description: 'updateCard with a stale If-Match applies the update instead of answering 412',
    checks: ['conditional-requests'],
    caughtToday: true,
  },
  {
    name: 'rate-limit-headers-missing',
    family: 'headers',
    description: 'Successful answers lack the required X-RateLimit-* headers',
    checks: ['response-headers-conformance'],
    caughtToday: true,
  },
  {
    name: 'location-missing',
    family: 'headers',
    description: 'createCard answers 201 without the required Location header',
    checks: ['response-headers-conformance'],
    caughtToday: true,
  },
  {
    name: 'etag-unchanged-after-update',
    family: 'headers',
    description: 'updateBoard changes the board but keeps its ETag, so a stale If-Match still matches',
    checks: ['conditional-requests'],
    caughtToday: true,
  },
  {
    name: 'total-count-missing',
    family: 'headers',
    description: 'listBoards answers without the required X-Total-Count header',
    checks: ['response-headers-conformance'],
    caughtToday: true,
  },
  // --- content --------------------------------------------------------------------------------------
  {
    name: 'created-at-not-rfc3339',
    family: 'content',
    description: 'Boards carry created_at as `2031-01-04 09:30:00`, not an RFC 3339 date-time',
    checks: ['response-schema-conformance'],
    caughtToday: true,
  },
  {
    name: 'card-count-string',
    family: 'content',
    description: 'Boards carry card_count as a string ("12") instead of an integer',
    checks: ['response-schema-conformance'],
    caughtToday: true,
  },
  {
    name: 'merge-patch-refused',
    family: 'content',
    description: 'updateBoard refuses application/merge-patch+json with 415 (it takes application/json only)',
    checks: ['positive-data-acceptance'],
    caughtToday: true,
  },
  {
    name: 'comment-author-missing',
    family: 'content',
    description: 'Comments lack the required `author`',
    checks: ['response-schema-conformance'],
    caughtToday: true,
  },
] as const satisfies readonly FaultSpec[];
