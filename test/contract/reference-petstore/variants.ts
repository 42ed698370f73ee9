// The reference Pet Store's variants: every one is correct; they differ where the specification
// is silent.

export interface Variant {
  /** An out-of-range or non-numeric `limit`: 400 ('reject'), or clamped into 1..100 ('clamp', non-numeric means the default 20). */
  badLimit: 'reject' | 'clamp';
  /** Response Content-Type `application/json; charset=utf-8` (true) or `application/json` (false). */
  charset: boolean;
  /** Ids 1, 2, 3... ('sequential'), 2^53+1, 2^53+2... ('large') or from 2^63−100,000 ('near-max'), emitted exactly. */
  ids: 'sequential' | 'large' | 'near-max';
  /** Status stored for a pet created without one (undefined: the pet has no status). */
  defaultStatus: 'available' | undefined;
  /** A client-sent `id` in createPet: ignored, or refused with 400. */
  clientId: 'ignore' | 'refuse';
  /** Order of GET /pets. */
  order: 'oldest-first' | 'newest-first' | 'by-name';
  /** createPet's Location header: none (it is optional), a path (`/v1/pets/7`) or an absolute URL. */
  location: 'none' | 'path' | 'absolute';
  /** A name with control characters (tab and newline included): stored as sent, or refused with 400. */
  controlCharacters: 'store' | 'reject';
  /** Lists show a created pet only this many ms after its creation (a read replica's lag). */
  listLagMs: number;
  /** Another client of a shared store creates a pet before every Nth request (0: nobody else writes). */
  otherClientEvery: number;
  /** HTTP status for a petId that is not an int64 integer. */
  badPetId: 404 | 400;
  /** HTTP status for a createPet body that is not application/json. */
  wrongContentType: 400 | 415;
  /** GET /store/orders with valid auth: 200 [], 501 Error or 404 Error. */
  storeOrders: 'empty-list' | 501 | 404;
  /** getPet sends `Deprecation` and `Sunset` headers. */
  deprecationHeaders: boolean;
  /** The `Sunset` value getPet sends: any HTTP-date of 5 December 2030. */
  sunset: string;
  /** The `Deprecation` value getPet sends (RFC 9745), or none (Sunset alone). */
  deprecation: string | undefined;
  /** The `WWW-Authenticate` challenge of a 401. */
  challenge: string;
  /** Routing and JSON parsing run before authentication: without a key, a non-integer petId gets 404, malformed JSON 400. */
  frameworkOrder: boolean;
}

export const DEFAULT_VARIANT: Variant = {
  badLimit: 'reject',
  charset: false,
  ids: 'sequential',
  defaultStatus: undefined,
  clientId: 'ignore',
  order: 'oldest-first',
  location: 'none',
  controlCharacters: 'store',
  listLagMs: 0,
  otherClientEvery: 0,
  badPetId: 404,
  wrongContentType: 400,
  storeOrders: 'empty-list',
  deprecationHeaders: true,
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  deprecation: '@1735689600',
  challenge: 'Bearer',
  frameworkOrder: false,
};

export const VARIANTS: readonly { name: string; description: string; variant: Partial<Variant> }[] = [
  { name: 'default', description: 'The default choices', variant: {} },
  {
    name: 'clamp-limit',
    description: 'An out-of-range limit is clamped into 1..100, a non-numeric one means 20',
    variant: { badLimit: 'clamp' },
  },
  {
    name: 'charset-and-large-ids',
    description: 'Content-Type with charset=utf-8; ids start at 2^53+1',
    variant: { charset: true, ids: 'large' },
  },
  {
    name: 'default-status',
    description: "A pet created without status is stored as 'available'",
    variant: { defaultStatus: 'available' },
  },
  { name: 'refuse-client-id', description: 'A client-sent id is refused with 400', variant: { clientId: 'refuse' } },
  { name: 'newest-first', description: 'GET /pets lists the newest pets first', variant: { order: 'newest-first' } },
  {
    name: 'by-name',
    description: 'GET /pets lists pets by name (UTF-16 order), then by id',
    variant: { order: 'by-name' },
  },
  { name: 'location-path', description: 'createPet sends Location: /v1/pets/{id}', variant: { location: 'path' } },
  {
    name: 'ids-near-max',
    description: 'Ids start at 2^63-100,000, near the top of int64',
    variant: { ids: 'near-max' },
  },
  {
    name: 'list-lag',
    description: 'New pets appear in lists 250 ms after they are stored (a read replica)',
    variant: { listLagMs: 250 },
  },
  {
    name: 'location-absolute',
    description: 'createPet sends Location as an absolute URL',
    variant: { location: 'absolute' },
  },
  {
    name: 'busy-shared-store',
    description: 'Another client creates a pet before every 5th request; lists are newest first',
    variant: { otherClientEvery: 5, order: 'newest-first' },
  },
  {
    name: 'refuse-control-characters',
    description: 'A name with control characters (tab, newline, NUL...) is refused with 400',
    variant: { controlCharacters: 'reject' },
  },
  { name: 'bad-petid-400', description: 'A non-integer petId answers 400', variant: { badPetId: 400 } },
  {
    name: 'content-type-415',
    description: 'A createPet body that is not JSON answers 415',
    variant: { wrongContentType: 415 },
  },
  { name: 'orders-501', description: 'GET /store/orders answers 501', variant: { storeOrders: 501 } },
  { name: 'orders-404', description: 'GET /store/orders answers 404', variant: { storeOrders: 404 } },
  {
    name: 'no-deprecation-headers',
    description: 'getPet sends no Deprecation/Sunset headers',
    variant: { deprecationHeaders: false },
  },
  {
    name: 'sunset-only-late',
    description: 'getPet sends Sunset alone, at the last second of 5 December 2030',
    variant: { sunset: 'Thu, 05 Dec 2030 23:59:59 GMT', deprecation: undefined },
  },
  {
    name: 'challenge-with-parameters',
    description:
      'A 401 challenges with realm, error and a quoted comma: bearer realm="pets, v1", error="invalid_token"',
    variant: { challenge: 'bearer realm="pets, v1", error="invalid_token"' },
  },
  {
    name: 'framework-order',
    description:
      'Routing and JSON parsing come before authentication: /pets/abc gets 404, malformed JSON 400, without a key',
    variant: { frameworkOrder: true },
  },
  {
    name: 'everything',
    description: 'Every non-default choice at once',
    variant: {
      badLimit: 'clamp',
      charset: true,
      ids: 'large',
      defaultStatus: 'available',
      clientId: 'refuse',
      order: 'newest-first',
      location: 'absolute',
      controlCharacters: 'reject',
      badPetId: 400,
      wrongContentType: 415,
      storeOrders: 501,
      deprecationHeaders: false,
      challenge: 'bearer realm="pets, v1", error="invalid_token"',
      frameworkOrder: true,
    },
  },
];
