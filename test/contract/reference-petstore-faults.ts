// The single-fault deployments of the reference Pet Store (reference-petstore.ts), in families.
// Each is one realistic violation of the specification (everything else stays correct) and names
// exactly the checks whose error findings a full `kennel check` run reports for it: mutants.test.ts
// asserts that set, so a check that stops catching a fault, or starts reporting it, shows by name.
// A fault whose catching checks depend on timing lists those under `sometimes`.

/** One fault of the reference Pet Store. */
export interface PetstoreFault {
  name: string;
  description: string;
  /** The checks that report it with severity error, every run. */
  checks: readonly string[];
  /** Checks that report it too on some runs only (it depends on timing or request order). */
  sometimes?: readonly string[];
}

/** Authentication: who may call, with which credentials, and what a refusal says. */
export const AUTH_FAULTS = [
  {
    name: 'no-auth',
    description: 'No operation checks the API key',
    checks: ['auth-before-validation', 'auth-enforced', 'status-code-conformance'],
  },
  {
    name: 'any-token',
    description: 'Any Bearer token is accepted',
    checks: ['auth-before-validation', 'auth-enforced', 'status-code-conformance'],
  },
  {
    name: 'basic-accepted',
    description: 'The Basic scheme is accepted with any credentials',
    checks: ['auth-enforced', 'status-code-conformance'],
  },
  {
    name: 'post-unprotected',
    description: 'createPet skips authentication',
    checks: ['auth-before-validation', 'auth-enforced'],
  },
  { name: 'getpet-unprotected', description: 'getPet skips authentication', checks: ['auth-enforced'] },
  {
    name: 'orders-unprotected',
    description: 'GET /store/orders skips authentication',
    checks: ['auth-enforced', 'status-code-conformance'],
  },
  {
    name: 'auth-403',
    description: 'A missing or invalid key answers 403 (Error status 403) instead of 401',
    checks: ['auth-before-validation', 'auth-enforced'],
  },
  {
    name: 'auth-plain-text',
    description: 'The 401 body is text/plain "Unauthorized"',
    checks: ['content-type-conformance'],
  },
  {
    name: 'key-case-insensitive',
    description: 'API keys are compared ignoring letter case',
    checks: ['auth-enforced', 'status-code-conformance'],
  },
  {
    name: 'key-prefix',
    description: 'Any token that starts with the API key is accepted',
    checks: ['auth-enforced', 'status-code-conformance'],
  },
  {
    name: 'key-prefix-compared',
    description: 'The token is compared over its own length: a prefix of the key is accepted',
    checks: ['auth-enforced', 'status-code-conformance'],
  },
  {
    name: 'scheme-ignored',
    description: 'Only the token after the space is checked: "Basic <key>" is accepted',
    checks: ['auth-enforced', 'status-code-conformance'],
  },
  {
    name: 'auth-scheme-case-sensitive',
    description: 'The scheme must be spelt "Bearer": "bearer <key>" gets 401',
    checks: ['auth-scheme-case-insensitive'],
  },
  {
    name: 'auth-single-space',
    description: 'Exactly one space may follow the scheme: "Bearer  <key>" gets 401',
    checks: ['auth-scheme-case-insensitive'],
  },
  {
    name: 'no-www-authenticate',
    description: '401 responses carry no WWW-Authenticate challenge',
    checks: ['auth-challenge-present'],
  },
  {
    name: 'www-authenticate-basic',
    description: '401 responses challenge for Basic, not Bearer',
    checks: ['auth-challenge-present'],
  },
  {
    name: 'wrong-key-403',
    description: 'A wrong key answers 403 (a missing one 401)',
    checks: ['auth-before-validation', 'auth-enforced'],
  },
  {
    name: 'validation-before-auth',
    description: 'createPet validates the body first: an invalid body without a key gets 400',
    checks: ['auth-before-validation'],
  },
] as const satisfies readonly PetstoreFault[];

/** Server errors: a request the document allows, or a bad one, crashes the deployment. */
export const SERVER_ERROR_FAULTS = [
  { name: 'malformed-json-500', description: 'Malformed JSON answers 500', checks: ['not-a-server-error'] },
  { name: 'empty-body-500', description: 'A POST with an empty body answers 500', checks: ['not-a-server-error'] },
  { name: 'bad-limit-500', description: 'A non-numeric limit answers 500', checks: ['not-a-server-error'] },
  {
    name: 'bad-petid-500',
    description: 'A non-integer petId answers 500',
    checks: ['not-a-server-error', 'unknown-id-conformance'],
  },
  {
    name: 'petid-max-500',
    description: 'petId 2^63-1 answers 500: the lookup computes id + 1 and overflows',
    checks: ['not-a-server-error', 'unknown-id-conformance'],
  },
  {
    name: 'petid-non-latin-500',
    description: 'A petId with non-ASCII characters answers 500',
    checks: ['not-a-server-error', 'unknown-id-conformance'],
  },
  {
    name: 'categoryid-1e400-500',
    description: 'categoryId 1e400 answers 500 (Infinity reaches BigInt)',
    checks: ['not-a-server-error'],
  },
  {
    name: 'intermittent-500',
    description: 'Every 7th request answers 500',
    checks: ['id-permanence', 'not-a-server-error', 'unknown-id-conformance'],
  },
] as const satisfies readonly PetstoreFault[];

/** Statuses and error bodies: the documented status, and an Error body that says it. */
export const STATUS_AND_ERROR_FAULTS = [
  { name: 'create-200', description: 'createPet answers 200 instead of 201', checks: ['status-code-conformance'] },
  { name: 'error-missing-code', description: 'Error bodies lack `code`', checks: ['response-schema-conformance'] },
  {
    name: 'error-status-mismatch',
    description: 'Error.status is always 400 whatever the HTTP status',
    checks: ['error-body-conformance'],
  },
  {
    name: 'not-found-200-null',
    description: 'An unknown pet id answers 200 with body null',
    checks: ['not-found-conformance', 'response-schema-conformance', 'unknown-id-conformance'],
  },
  {
    name: 'not-found-400',
    description: 'An unknown but valid pet id answers 400',
    checks: ['not-found-conformance', 'unknown-id-conformance'],
  },
] as const satisfies readonly PetstoreFault[];

/** Limits and pages: `limit` honoured within 1..100, pages that neither skip nor repeat. */
export const LIMIT_FAULTS = [
  {
    name: 'limit-ignored',
    description: 'limit is ignored: every matching pet is returned',
    checks: ['collection-consistency', 'limit-honoured'],
  },
  {
    name: 'default-limit-10',
    description: 'The default limit is 10 instead of 20',
    checks: ['collection-consistency', 'limit-honoured'],
  },
  { name: 'no-max-limit', description: 'Limits above 100 are honoured instead of refused', checks: ['limit-honoured'] },
  { name: 'limit-zero-accepted', description: 'limit=0 answers 200 [] instead of 400', checks: ['limit-honoured'] },
  {
    name: 'limit-off-by-one',
    description: 'GET /pets returns limit+1 pets when available',
    checks: ['collection-consistency', 'limit-honoured'],
  },
  {
    name: 'max-limit-rejected',
    description: 'limit=100, the documented maximum, answers 400',
    checks: ['collection-consistency', 'positive-data-acceptance', 'status-code-conformance'],
  },
  {
    name: 'page-boundary-skip',
    description: 'A list cut by its limit drops its last item and shows the next one instead',
    checks: ['collection-consistency'],
  },
  {
    name: 'filtered-default-limit-10',
    description: 'With a status filter and no limit, at most 10 pets are listed',
    checks: ['collection-consistency'],
  },
] as const satisfies readonly PetstoreFault[];

/** Filters: `status` selects exactly the pets that have it. */
export const FILTER_FAULTS = [
  { name: 'filter-ignored', description: 'The status filter is ignored', checks: ['filter-honoured'] },
  {
    name: 'filter-inverted',
    description: 'The status filter returns the pets whose status differs',
    checks: ['collection-consistency', 'filter-honoured', 'list-freshness', 'resource-round-trip'],
  },
  {
    name: 'filter-skips-first',
    description: 'Filtered lists start after the first pet (id > first, not >=)',
    checks: ['collection-consistency'],
  },
] as const satisfies readonly PetstoreFault[];

/** Invalid input accepted: a body the document refuses is stored, coerced or wrapped. */
export const INVALID_INPUT_FAULTS = [
  {
    name: 'missing-name-accepted',
    description: 'name is not required; a missing name is stored as ""',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'categoryid-string-accepted',
    description: 'categoryId "7" is accepted and coerced to 7',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'fractional-categoryid-accepted',
    description: 'categoryId 1.5 is accepted',
    checks: ['negative-data-rejection', 'response-schema-conformance'],
  },
  {
    name: 'int64-overflow-accepted',
    description: 'categoryId beyond the int64 range is accepted',
    checks: ['response-schema-conformance'],
  },
  {
    name: 'status-enum-unchecked',
    description: 'Any status string is accepted and stored',
    checks: ['negative-data-rejection', 'response-schema-conformance'],
  },
  {
    name: 'array-body-201',
    description: 'A JSON array body is accepted: 201 with a pet made of defaults',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'status-enum-case-insensitive',
    description: 'status is compared ignoring case: "Available" is accepted',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'status-empty-accepted',
    description: 'status "" is taken for no status',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'status-null-accepted',
    description: 'status null is taken for no status',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'categoryid-boolean-coerced',
    description: 'categoryId true is accepted as 1',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'categoryid-array-unwrapped',
    description: 'categoryId [7] is accepted as 7',
    checks: ['negative-data-rejection'],
  },
  {
    name: 'int64-overflow-wrapped',
    description: 'categoryId beyond int64 is stored wrapped to 64 bits (2^63 becomes -2^63)',
    checks: ['negative-data-rejection'],
  },
] as const satisfies readonly PetstoreFault[];

/** Valid input refused: a body or media type the document allows gets a 4xx. */
export const VALID_INPUT_FAULTS = [
  {
    name: 'pending-rejected',
    description: "createPet refuses the valid status 'pending' with 400",
    checks: ['positive-data-acceptance'],
  },
  {
    name: 'charset-rejected',
    description: 'createPet refuses Content-Type: application/json; charset=utf-8',
    checks: ['positive-data-acceptance'],
  },
  {
    name: 'media-type-case-sensitive',
    description: 'createPet refuses Content-Type Application/JSON (compared case-sensitively)',
    checks: ['positive-data-acceptance'],
  },
  {
    name: 'charset-case-sensitive',
    description: 'createPet refuses any charset spelling but charset=utf-8 (Charset=UTF-8 gets 400)',
    checks: ['positive-data-acceptance'],
  },
] as const satisfies readonly PetstoreFault[];

/** Representation: the bytes of an answer break its documented schema or media type. */
export const REPRESENTATION_FAULTS = [
  {
    name: 'status-null',
    description: 'A pet without status is emitted with "status": null',
    checks: ['response-schema-conformance'],
  },
  { name: 'id-as-string', description: 'Ids are emitted as JSON strings', checks: ['response-schema-conformance'] },
  {
    name: 'list-envelope',
    description: 'GET /pets answers {"items": [...]} instead of an array',
    checks: ['response-schema-conformance'],
  },
  {
    name: 'text-plain-json',
    description: 'Successful responses have Content-Type text/plain with a JSON body',
    checks: ['content-type-conformance'],
  },
  {
    name: 'categoryid-missing-in-list',
    description: 'List items lack categoryId',
    checks: ['data-fidelity', 'response-schema-conformance'],
  },
] as const satisfies readonly PetstoreFault[];

/** Data fidelity: what is read back is not what was written. */
export const FIDELITY_FAULTS = [
  {
    name: 'lost-write',
    description: 'createPet answers 201 with an id but does not store the pet',
    checks: ['data-fidelity', 'filter-honoured', 'list-freshness', 'positive-data-acceptance', 'resource-round-trip'],
  },
  {
    name: 'status-dropped',
    description: 'The stored pet loses its status: the 201 body has it, later reads do not',
    checks: ['filter-honoured', 'list-freshness', 'resource-round-trip'],
  },
  {
    name: 'categoryid-precision-lost',
    description: 'categoryId goes through a double: values above 2^53 lose precision',
    checks: ['data-fidelity', 'resource-round-trip', 'response-schema-conformance'],
  },
  {
    name: 'name-truncated',
    description: 'Names are stored truncated to 8 characters',
    checks: ['data-fidelity', 'resource-round-trip'],
  },
  {
    name: 'name-nfc-normalised',
    description: 'Names are stored NFC-normalised: decomposed accents come back composed',
    checks: ['data-fidelity'],
  },
  {
    name: 'name-control-stripped',
    description: 'Control characters, tab and newline included, are stripped from names',
    checks: ['data-fidelity'],
  },
  {
    name: 'name-truncated-255',
    description: 'Names are stored cut to 255 UTF-16 code units (a VARCHAR(255))',
    checks: ['data-fidelity'],
  },
  {
    name: 'name-astral-replaced',
    description: 'Characters beyond the BMP (emoji) are stored as "?" (3-byte UTF-8)',
    checks: ['data-fidelity'],
  },
  {
    name: 'name-html-escaped',
    description: 'Names are HTML-escaped when stored: <, >, & and " become entities',
    checks: ['data-fidelity'],
  },
  {
    name: 'name-trimmed',
    description: 'Names are stored with surrounding whitespace trimmed',
    checks: ['data-fidelity'],
  },
  {
    name: 'list-backslash-unescaped',
    description: 'List JSON is assembled by hand and un-doubles backslashes: C:\\new comes back with a newline',
    checks: ['data-fidelity'],
  },
  {
    name: 'categoryid-negative-via-double',
    description: 'Negative categoryIds are parsed through a double: below -2^53 they lose precision',
    checks: ['data-fidelity'],
  },
] as const satisfies readonly PetstoreFault[];

/** Collections: lists and reads of one store agree with each other and with the writes. */
export const COLLECTION_FAULTS = [
  {
    name: 'getpet-wrong-pet',
    description: 'getPet returns the pet with id-1 when it exists',
    checks: ['collection-consistency', 'data-fidelity', 'read-returns-requested', 'resource-round-trip'],
  },
  {
    name: 'list-categoryid-misaligned',
    description: 'List items show the categoryId of the pet listed before them',
    checks: ['collection-consistency', 'data-fidelity'],
  },
  {
    name: 'list-order-unstable',
    description: 'Lists merge two shards in the order they answer: the same request twice differs',
    checks: ['collection-consistency'],
  },
  {
    name: 'list-replica-lag',
    description: 'Lists come from a replica 5 s behind: new pets are missing meanwhile',
    checks: ['data-fidelity', 'filter-honoured', 'list-freshness', 'resource-round-trip'],
  },
] as const satisfies readonly PetstoreFault[];

/** Identifiers: assigned by the server, unique, permanent, and read only as themselves. */
export const IDENTIFIER_FAULTS = [
  {
    name: 'client-id-honoured',
    description: "A client-sent integer id becomes the pet's id",
    checks: ['server-assigned-id'],
  },
  {
    name: 'duplicate-ids-concurrent',
    description:
      'Id assignment awaits between reading and incrementing the counter: concurrent creates get duplicate ids',
    checks: ['collection-consistency', 'data-fidelity', 'id-permanence', 'id-uniqueness', 'ids-never-reused'],
  },
  {
    name: 'petid-unicode-digits',
    description: 'petIds in other digit scripts (١, １) read the pet of that number',
    checks: ['unknown-id-conformance'],
  },
  {
    name: 'negative-id-wraps',
    description: 'getPet indexes the pets by id - 1: id 0 and negative ids read pets from the end',
    checks: ['unknown-id-conformance'],
  },
  {
    name: 'location-next-id',
    description: "createPet's Location names the next id (the counter after its increment)",
    checks: ['location-resolves'],
  },
  {
    name: 'ids-recycled',
    description: 'Ids cycle through 100 values: the 101st pet takes the first id and replaces that pet',
    checks: ['id-permanence', 'ids-never-reused'],
  },
  {
    name: 'pets-evicted',
    description: 'Only the newest 100 pets are kept: older ones answer 404',
    checks: ['id-permanence'],
  },
] as const satisfies readonly PetstoreFault[];

/** Deprecation: the Sunset and Deprecation headers of getPet, and only of getPet. */
export const DEPRECATION_FAULTS = [
  {
    name: 'sunset-wrong-date',
    description: 'Sunset is a day early: Thu, 04 Dec 2030 23:00:00 GMT (converted from local time)',
    checks: ['sunset-date-conformance'],
  },
  {
    name: 'sunset-not-http-date',
    description: 'Sunset is written 2030-12-05, not as an HTTP-date',
    checks: ['sunset-date-conformance'],
  },
  {
    name: 'deprecation-on-listpets',
    description: 'listPets sends the Deprecation and Sunset headers too',
    checks: ['deprecation-headers-scoped'],
  },
] as const satisfies readonly PetstoreFault[];

/** Every family, by the name the tests print. */
export const FAULT_FAMILIES = {
  auth: AUTH_FAULTS,
  'server-error': SERVER_ERROR_FAULTS,
  'status-and-error': STATUS_AND_ERROR_FAULTS,
  limit: LIMIT_FAULTS,
  filter: FILTER_FAULTS,
  'invalid-input': INVALID_INPUT_FAULTS,
  'valid-input': VALID_INPUT_FAULTS,
  representation: REPRESENTATION_FAULTS,
  fidelity: FIDELITY_FAULTS,
  collection: COLLECTION_FAULTS,
  identifier: IDENTIFIER_FAULTS,
  deprecation: DEPRECATION_FAULTS,
} as const;

export const FAULT_TABLE = [
  ...AUTH_FAULTS,
  ...SERVER_ERROR_FAULTS,
  ...STATUS_AND_ERROR_FAULTS,
  ...LIMIT_FAULTS,
  ...FILTER_FAULTS,
  ...INVALID_INPUT_FAULTS,
  ...VALID_INPUT_FAULTS,
  ...REPRESENTATION_FAULTS,
  ...FIDELITY_FAULTS,
  ...COLLECTION_FAULTS,
  ...IDENTIFIER_FAULTS,
  ...DEPRECATION_FAULTS,
] as const;
