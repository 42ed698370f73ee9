// An independent reference implementation of the Pet Store API, written from the interface
// specification alone (shared/seed, sections 2-9) as a third party would, to test `kennel check`.
// It imports nothing from src/. It can run as written (correct), with legitimate variants (choices
// the specification leaves open) and with exactly one fault: a realistic single violation.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAULT_TABLE, type PetstoreFault } from './reference-petstore-faults.js';

// ---------------------------------------------------------------------------------------------
// Variants: every one is correct; they differ where the specification is silent.

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

const DEFAULT_VARIANT: Variant = {
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

// ---------------------------------------------------------------------------------------------
// Faults: each is one realistic violation of the specification; everything else stays correct.
// The table, by family, with the checks that catch each fault: reference-petstore-faults.ts.

export type Fault = (typeof FAULT_TABLE)[number]['name'];
export const FAULTS: readonly (PetstoreFault & { name: Fault })[] = FAULT_TABLE;

// ---------------------------------------------------------------------------------------------
// JSON, by hand: integers are bigint so that int64 values survive exactly in both directions.

type Json = null | boolean | number | bigint | string | readonly Json[] | { readonly [key: string]: Json | undefined };

function toJson(value: Json): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (isJsonArray(value)) return `[${value.map(toJson).join(',')}]`;
  const members = Object.entries(value).flatMap(([key, member]) =>
    member === undefined ? [] : [`${JSON.stringify(key)}:${toJson(member)}`],
  );
  return `{${members.join(',')}}`;
}

function isJsonArray(value: Json): value is readonly Json[] {
  return Array.isArray(value);
}

/** JSON.parse where every integer-valued number literal becomes an exact bigint; other numbers stay numbers. */
function parseJsonExact(text: string): unknown {
  const reviver = (_key: string, value: unknown, context?: { source?: string }): unknown =>
    typeof value === 'number' && context?.source !== undefined ? (exactInteger(context.source) ?? value) : value;
  return JSON.parse(text, reviver);
}

/** The exact integer a JSON number literal denotes (1, 1.0, 1e3...), or undefined when it is fractional or huge. */
function exactInteger(literal: string): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return 0n;
  let scale = Number(exponent) - fraction.length;
  while (scale < 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale += 1;
  }
  if (scale < 0 || scale > 40) return undefined;
  const magnitude = BigInt(digits) * 10n ** BigInt(scale);
  return sign === '-' ? -magnitude : magnitude;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const isInt64 = (value: bigint): boolean => value >= INT64_MIN && value <= INT64_MAX;

/** A decimal integer string in the int64 range, or undefined. */
function parseInt64(text: string): bigint | undefined {
  if (!/^-?\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  return isInt64(value) ? value : undefined;
}

// ---------------------------------------------------------------------------------------------
// The domain.

const PET_STATUSES = ['available', 'pending', 'sold'] as const;
const isPetStatus = (value: unknown): boolean => (PET_STATUSES as readonly unknown[]).includes(value);

interface Pet {
  id: bigint;
  name: string;
  /** A number only under the faults that let a non-int64 value through. */
  categoryId: bigint | number;
  status?: string;
}
type NewPet = Omit<Pet, 'id'> & { clientId?: bigint };

const SEED_NAMES = ['Rex', 'Tom', 'Bella', 'Max', 'Luna', 'Milo', 'Coco', 'Daisy', 'Oscar', 'Ruby'];
const LARGE_FIRST_ID = 2n ** 53n + 1n;
/** Room for 100,000 ids below int64's maximum: far more than one run creates. */
const NEAR_MAX_FIRST_ID = 2n ** 63n - 100_000n;
const FIRST_IDS: Record<Variant['ids'], bigint> = {
  sequential: 1n,
  large: LARGE_FIRST_ID,
  'near-max': NEAR_MAX_FIRST_ID,
};
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const MAX_BODY_BYTES = 1_000_000;

function seedPets(count: number, firstId: bigint): Pet[] {
  return Array.from({ length: count }, (_, index) => {
    const round = Math.floor(index / SEED_NAMES.length);
    const name = `${SEED_NAMES[index % SEED_NAMES.length]}${round === 0 ? '' : ` ${round + 1}`}`;
    return { id: firstId + BigInt(index), name, categoryId: BigInt((index % 3) + 1), status: PET_STATUSES[index % 3] };
  });
}

// ---------------------------------------------------------------------------------------------
// HTTP plumbing.

interface Reply {
  status: number;
  body: string;
  kind: 'json' | 'text';
  headers?: Record<string, string>;
}

type Operation = 'listPets' | 'createPet' | 'getPet' | 'listStoreOrders';

const ROUTES: readonly { pattern: RegExp; methods: Readonly<Record<string, Operation>> }[] = [
  { pattern: /^\/v1\/pets$/, methods: { GET: 'listPets', POST: 'createPet' } },
  { pattern: /^\/v1\/pets\/([^/]+)$/, methods: { GET: 'getPet' } },
  { pattern: /^\/v1\/store\/orders$/, methods: { GET: 'listStoreOrders' } },
];

/** Faults under which one operation skips authentication. */
const UNPROTECTED: Partial<Record<Fault, Operation>> = {
  'post-unprotected': 'createPet',
  'getpet-unprotected': 'getPet',
  'orders-unprotected': 'listStoreOrders',
};

class BadRequest {
  constructor(readonly reply: Reply) {}
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

class ReferencePetstore {
  private readonly pets: Pet[];
  private nextId: bigint;
  /** When each pet was created, under a list lag (ms since the epoch). */
  private readonly createdAt = new Map<bigint, number>();
  private listRequests = 0;
  private handled = 0;
  private served = 0;

  constructor(
    private readonly apiKey: string,
    private readonly fault: Fault | undefined,
    private readonly variant: Variant,
    seedCount: number,
  ) {
    const firstId = FIRST_IDS[variant.ids];
    this.pets = seedPets(seedCount, firstId);
    this.nextId = firstId + BigInt(seedCount);
  }

  async handle(req: IncomingMessage): Promise<Reply> {
    if (this.variant.otherClientEvery > 0 && ++this.handled % this.variant.otherClientEvery === 0)
      this.keep({ id: await this.assignId(), name: 'Another client', categoryId: 1n, status: 'sold' });
    if (this.fault === 'intermittent-500' && ++this.served % 7 === 0) throw new Error('Connection pool exhausted');
    const url = new URL(req.url ?? '/', 'http://reference.invalid');
    const route = ROUTES.find((candidate) => candidate.pattern.test(url.pathname));
    if (!route) return this.error(404, 'not_found', `No resource at ${url.pathname}`);
    const operation = route.methods[req.method ?? ''];
    if (!operation) {
      const allow = Object.keys(route.methods).join(', ');
      return {
        ...this.error(405, 'method_not_allowed', `${req.method} is not allowed here; use ${allow}`),
        headers: { allow },
      };
    }
    const reply = this.authorised(operation, req.headers.authorization)
      ? await this.dispatch(operation, req, url)
      : ((await this.rejectedBeforeAuth(operation, req, url)) ?? this.unauthorised(req.headers.authorization));
    const deprecated = operation === 'getPet' || (operation === 'listPets' && this.fault === 'deprecation-on-listpets');
    if (deprecated && this.variant.deprecationHeaders)
      reply.headers = { ...reply.headers, ...this.deprecationHeaders() };
    return reply;
  }

  private async dispatch(operation: Operation, req: IncomingMessage, url: URL): Promise<Reply> {
    try {
      switch (operation) {
        case 'listPets':
          return this.listPets(url.searchParams);
        case 'createPet':
          return await this.createPet(req);
        case 'getPet':
          return this.getPet(url.pathname.slice('/v1/pets/'.length));
        case 'listStoreOrders':
          return this.listStoreOrders();
      }
    } catch (thrown) {
      if (thrown instanceof BadRequest) return thrown.reply;
      throw thrown;
    }
  }

  // --- Authentication --------------------------------------------------------------------------

  private authorised(operation: Operation, header: string | undefined): boolean {
    if (this.fault === 'no-auth' || (this.fault !== undefined && UNPROTECTED[this.fault] === operation)) return true;
    const match = (this.fault === 'auth-single-space' ? /^(\S+) (\S+) *$/ : /^(\S+) +(\S+) *$/).exec(header ?? '');
    if (!match) return false;
    const [, scheme = '', token] = match;
    if (this.fault === 'scheme-ignored' && token === this.apiKey) return true;
    if (this.fault === 'auth-scheme-case-sensitive' ? scheme === 'Bearer' : scheme.toLowerCase() === 'bearer')
      return token === this.apiKey || this.fault === 'any-token' || this.nearMissAccepted(token ?? '');
    return scheme.toLowerCase() === 'basic' && this.fault === 'basic-accepted';
  }

  private nearMissAccepted(token: string): boolean {
    if (this.fault === 'key-case-insensitive') return token.toLowerCase() === this.apiKey.toLowerCase();
    if (this.fault === 'key-prefix-compared') return token !== '' && this.apiKey.startsWith(token);
    return this.fault === 'key-prefix' && token.startsWith(this.apiKey);
  }

  private unauthorised(header: string | undefined): Reply {
    if (this.fault === 'auth-plain-text')
      return { status: 401, body: 'Unauthorized', kind: 'text', headers: { 'www-authenticate': 'Bearer' } };
    if (this.fault === 'auth-403' || (this.fault === 'wrong-key-403' && header !== undefined))
      return this.error(403, 'forbidden', 'The API key is missing or invalid');
    const reply = this.error(401, 'unauthorized', 'Authorization header with a valid Bearer API key is required');
    if (this.fault === 'no-www-authenticate') return reply;
    const challenge = this.fault === 'www-authenticate-basic' ? 'Basic realm="pets"' : this.variant.challenge;
    return { ...reply, headers: { 'www-authenticate': challenge } };
  }

  /** What a request without a valid key gets before the key is looked at: routing, parsing (variant), validation (fault). */
  private async rejectedBeforeAuth(operation: Operation, req: IncomingMessage, url: URL): Promise<Reply | undefined> {
    const segment = url.pathname.slice('/v1/pets/'.length);
    if (operation === 'getPet' && this.variant.frameworkOrder && parseInt64(safeDecode(segment)) === undefined)
      return this.error(404, 'not_found', `No resource at ${url.pathname}`);
    const validates = this.fault === 'validation-before-auth';
    if (operation !== 'createPet' || (!validates && !this.variant.frameworkOrder)) return undefined;
    try {
      const body = this.parseBody(await this.readJsonBody(req));
      if (validates) this.validateNewPet(body);
      return undefined;
    } catch (thrown) {
      if (thrown instanceof BadRequest) return thrown.reply;
      throw thrown;
    }
  }

  private deprecationHeaders(): Record<string, string> {
    const sunset =
      this.fault === 'sunset-wrong-date'
        ? 'Thu, 04 Dec 2030 23:00:00 GMT'
        : this.fault === 'sunset-not-http-date'
          ? '2030-12-05'
          : this.variant.sunset;
    return { sunset, ...(this.variant.deprecation === undefined ? {} : { deprecation: this.variant.deprecation }) };
  }

  // --- listPets ---------------------------------------------------------------------------------

  private listPets(query: URLSearchParams): Reply {
    const limit = this.readLimit(query.getAll('limit'));
    const status = this.readStatusFilter(query.getAll('status'));
    let pets = status === undefined ? this.pets : this.pets.filter((pet) => this.matchesFilter(pet, status));
    pets = this.ordered(pets.filter((pet) => this.replicated(pet)));
    let count = this.fault === 'limit-ignored' ? pets.length : this.fault === 'limit-off-by-one' ? limit + 1 : limit;
    if (this.fault === 'filtered-default-limit-10' && status !== undefined && !query.has('limit')) count = 10;
    const page =
      this.fault === 'page-boundary-skip' && count < pets.length
        ? [...pets.slice(0, count - 1), pets[count]!]
        : pets.slice(0, count);
    const items = page.map((pet, index) => this.petJson(this.misaligned(pet, page[index - 1]), { inList: true }));
    const reply = this.json(200, this.fault === 'list-envelope' ? { items } : items);
    if (this.fault === 'list-backslash-unescaped') reply.body = reply.body.replaceAll('\\\\', '\\');
    return reply;
  }

  private ordered(pets: Pet[]): Pet[] {
    if (this.fault === 'list-order-unstable') {
      const odd = pets.filter((pet) => pet.id % 2n === 1n);
      const even = pets.filter((pet) => pet.id % 2n === 0n);
      return (this.listRequests += 1) % 2 === 0 ? [...odd, ...even] : [...even, ...odd];
    }
    if (this.variant.order === 'newest-first') return [...pets].reverse();
    if (this.variant.order === 'by-name')
      return [...pets].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
    return pets;
  }

  /** Under a list lag, a pet is listed only once the replica has it. */
  private replicated(pet: Pet): boolean {
    const lag = this.fault === 'list-replica-lag' ? 5000 : this.variant.listLagMs;
    return lag === 0 || Date.now() - (this.createdAt.get(pet.id) ?? 0) >= lag;
  }

  private misaligned(pet: Pet, before: Pet | undefined): Pet {
    return this.fault === 'list-categoryid-misaligned' && before ? { ...pet, categoryId: before.categoryId } : pet;
  }

  private readLimit(values: string[]): number {
    const fallback = this.fault === 'default-limit-10' ? 10 : DEFAULT_LIMIT;
    if (values.length === 0) return fallback;
    const clamp = this.variant.badLimit === 'clamp';
    const raw = values.length === 1 ? (values[0] ?? '') : '';
    if (!/^-?\d+$/.test(raw)) {
      if (this.fault === 'bad-limit-500') throw new TypeError(`Cannot read limit ${raw}`);
      if (clamp) return fallback;
      throw this.badRequest('invalid_parameter', 'Query parameter limit must be one integer from 1 to 100');
    }
    const limit = Number(raw);
    if (limit === 0 && this.fault === 'limit-zero-accepted') return 0;
    if (limit > MAX_LIMIT && this.fault === 'no-max-limit') return limit;
    if (limit === MAX_LIMIT && this.fault === 'max-limit-rejected')
      throw this.badRequest('invalid_parameter', 'Query parameter limit must be below 100');
    if (limit >= 1 && limit <= MAX_LIMIT) return limit;
    if (clamp) return Math.min(MAX_LIMIT, Math.max(1, limit));
    throw this.badRequest('invalid_parameter', `Query parameter limit must be from 1 to 100, got ${raw}`);
  }

  private readStatusFilter(values: string[]): string | undefined {
    if (values.length === 0) return undefined;
    const [status] = values;
    if (values.length > 1 || !isPetStatus(status)) {
      throw this.badRequest('invalid_parameter', 'Query parameter status must be one of available, pending, sold');
    }
    return status;
  }

  private matchesFilter(pet: Pet, status: string): boolean {
    if (this.fault === 'filter-ignored') return true;
    if (this.fault === 'filter-skips-first' && pet.id === this.firstId) return false;
    if (this.fault === 'filter-inverted') return pet.status !== status;
    return pet.status === status;
  }

  // --- createPet --------------------------------------------------------------------------------

  private async createPet(req: IncomingMessage): Promise<Reply> {
    const text = await this.readJsonBody(req);
    const newPet = this.validateNewPet(this.parseBody(text));
    const id =
      newPet.clientId !== undefined && this.fault === 'client-id-honoured' ? newPet.clientId : await this.assignId();
    const name = this.storedName(
      this.fault === 'name-truncated' ? Array.from(newPet.name).slice(0, 8).join('') : newPet.name,
    );
    const categoryId = this.storedCategoryId(newPet.categoryId);
    const pet: Pet = { id, name, categoryId, ...(newPet.status === undefined ? {} : { status: newPet.status }) };
    if (this.fault === 'status-dropped') this.pets.push({ id, name, categoryId });
    else if (this.fault !== 'lost-write') this.keep(pet);
    const reply = this.json(this.fault === 'create-200' ? 200 : 201, this.petJson(pet));
    return { ...reply, headers: this.locationHeader(id, req) };
  }

  /** The name as a faulty storage layer keeps it. */
  private storedName(name: string): string {
    switch (this.fault) {
      case 'name-nfc-normalised':
        return name.normalize('NFC');
      case 'name-control-stripped':
        return name.replace(/[\u0000-\u001f\u007f]/g, '');
      case 'name-truncated-255':
        return name.slice(0, 255);
      case 'name-astral-replaced':
        return name.replace(/[\u{10000}-\u{10ffff}]/gu, '?');
      case 'name-html-escaped':
        return name.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
      case 'name-trimmed':
        return name.trim();
      default:
        return name;
    }
  }

  private storedCategoryId(categoryId: bigint | number): bigint | number {
    if (this.fault === 'categoryid-precision-lost') return Number(categoryId);
    if (this.fault === 'categoryid-negative-via-double' && categoryId < 0) return BigInt(Number(categoryId));
    return categoryId;
  }

  /** Stores a pet: under 'ids-recycled' it replaces the pet that had its id, under 'pets-evicted' the oldest goes. */
  private keep(pet: Pet): void {
    if (this.fault === 'ids-recycled')
      this.pets.splice(0, this.pets.length, ...this.pets.filter((old) => old.id !== pet.id));
    this.pets.push(pet);
    if (this.fault === 'pets-evicted' && this.pets.length > 100) this.pets.shift();
    if (this.fault === 'list-replica-lag' || this.variant.listLagMs > 0) this.createdAt.set(pet.id, Date.now());
  }

  private locationHeader(id: bigint, req: IncomingMessage): Record<string, string> {
    const path = `/v1/pets/${this.fault === 'location-next-id' ? id + 1n : id}`;
    if (this.variant.location === 'absolute') return { location: `http://${req.headers.host}${path}` };
    return this.variant.location === 'path' || this.fault === 'location-next-id' ? { location: path } : {};
  }

  private get firstId(): bigint {
    return FIRST_IDS[this.variant.ids];
  }

  private async readJsonBody(req: IncomingMessage): Promise<string> {
    const header = req.headers['content-type'] ?? '';
    const essence = header.split(';')[0]?.trim();
    const mediaType = this.fault === 'media-type-case-sensitive' ? essence : essence?.toLowerCase();
    const body = await readBody(req);
    const charsetRefused =
      this.fault === 'charset-case-sensitive' && header.includes(';') && !header.includes('charset=utf-8');
    if (
      mediaType !== 'application/json' ||
      (this.fault === 'charset-rejected' && header.includes(';')) ||
      charsetRefused
    ) {
      const code = this.variant.wrongContentType === 415 ? 'unsupported_media_type' : 'invalid_content_type';
      throw new BadRequest(
        this.error(this.variant.wrongContentType, code, 'The request body must be application/json'),
      );
    }
    if (body === undefined)
      throw new BadRequest(this.error(413, 'payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes`));
    if (body === '' && this.fault === 'empty-body-500')
      throw new TypeError('Cannot read properties of undefined (reading "name")');
    if (body === '') throw this.badRequest('invalid_body', 'A request body is required');
    return body;
  }

  private parseBody(text: string): unknown {
    try {
      return parseJsonExact(text);
    } catch (thrown) {
      if (this.fault === 'malformed-json-500') throw thrown;
      throw this.badRequest('invalid_json', 'The request body is not valid JSON');
    }
  }

  private validateNewPet(body: unknown): NewPet {
    if (Array.isArray(body) && this.fault === 'array-body-201') return { name: '', categoryId: 0n };
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw this.invalidBody('', 'must be a JSON object');
    const fields = body as Record<string, unknown>;
    if (fields.id !== undefined && this.variant.clientId === 'refuse' && this.fault !== 'client-id-honoured') {
      throw this.invalidBody('/id', 'is assigned by the service and must not be sent');
    }
    const clientId = typeof fields.id === 'bigint' && isInt64(fields.id) ? fields.id : undefined;
    const status = this.readStatus(fields.status);
    return {
      name: this.readName(fields.name),
      categoryId: this.readCategoryId(fields.categoryId),
      ...(status === undefined ? {} : { status }),
      ...(clientId === undefined ? {} : { clientId }),
    };
  }

  private readName(value: unknown): string {
    if (value === undefined && this.fault === 'missing-name-accepted') return '';
    if (value === undefined) throw this.invalidBody('/name', 'is required');
    if (typeof value !== 'string') throw this.invalidBody('/name', 'must be a string');
    if (this.variant.controlCharacters === 'reject' && /[\u0000-\u001f\u007f]/.test(value))
      throw this.invalidBody('/name', 'must not contain control characters');
    return value;
  }

  private readCategoryId(value: unknown): bigint | number {
    if (value === undefined) throw this.invalidBody('/categoryId', 'is required');
    if (typeof value === 'string' && /^-?\d+$/.test(value) && this.fault === 'categoryid-string-accepted')
      return BigInt(value);
    if (typeof value === 'number' && !Number.isInteger(value) && this.fault === 'fractional-categoryid-accepted')
      return value;
    if (value === true && this.fault === 'categoryid-boolean-coerced') return 1n;
    if (Array.isArray(value) && typeof value[0] === 'bigint' && this.fault === 'categoryid-array-unwrapped')
      return value[0];
    if (value === Infinity && this.fault === 'categoryid-1e400-500') return BigInt(value);
    if (typeof value === 'bigint' && !isInt64(value) && this.fault === 'int64-overflow-wrapped')
      return BigInt.asIntN(64, value);
    if (typeof value === 'bigint' && (isInt64(value) || this.fault === 'int64-overflow-accepted')) return value;
    const outOfRange =
      typeof value === 'bigint' || (typeof value === 'number' && (Number.isInteger(value) || !Number.isFinite(value)));
    throw this.invalidBody('/categoryId', outOfRange ? 'must be within the int64 range' : 'must be an integer');
  }

  private readStatus(value: unknown): string | undefined {
    if (value === undefined) return this.variant.defaultStatus;
    if (
      (value === '' && this.fault === 'status-empty-accepted') ||
      (value === null && this.fault === 'status-null-accepted')
    )
      return this.variant.defaultStatus;
    if (typeof value === 'string' && this.fault === 'status-enum-case-insensitive') {
      const known = PET_STATUSES.find((status) => status === value.toLowerCase());
      if (known) return known;
    }
    if (value === 'pending' && this.fault === 'pending-rejected')
      throw this.invalidBody('/status', 'must be available or sold');
    if (typeof value === 'string' && (isPetStatus(value) || this.fault === 'status-enum-unchecked')) return value;
    throw this.invalidBody('/status', 'must be one of available, pending, sold');
  }

  private async assignId(): Promise<bigint> {
    const id = this.nextId;
    if (this.fault === 'duplicate-ids-concurrent') await delay(25);
    this.nextId = id + 1n;
    return this.fault === 'ids-recycled' ? this.firstId + ((id - this.firstId) % 100n) : id;
  }

  // --- getPet and the store orders --------------------------------------------------------------

  private getPet(segment: string): Reply {
    const id = parseInt64(this.petIdText(safeDecode(segment)));
    if (id === undefined) {
      if (this.fault === 'bad-petid-500') throw new RangeError(`Cannot convert ${segment} to a BigInt`);
      const code = this.variant.badPetId === 400 ? 'invalid_parameter' : 'not_found';
      return this.error(this.variant.badPetId, code, `petId must be an int64 integer, got ${segment}`);
    }
    if (id === INT64_MAX && this.fault === 'petid-max-500') throw new RangeError(`${id} + 1 overflows int64`);
    let pet = this.pets.find((candidate) => candidate.id === id);
    if (id <= 0n && this.fault === 'negative-id-wraps') pet = this.pets.at(Number(id) - 1);
    if (pet && this.fault === 'getpet-wrong-pet') pet = this.pets.find((candidate) => candidate.id === id - 1n) ?? pet;
    if (pet) return this.json(200, this.petJson(pet));
    if (this.fault === 'not-found-200-null') return this.json(200, null);
    if (this.fault === 'not-found-400') return this.error(400, 'invalid_parameter', `No pet with id ${id}`);
    return this.error(404, 'not_found', `No pet with id ${id}`);
  }

  /** The petId text as a faulty parser sees it. */
  private petIdText(text: string): string {
    if (this.fault === 'petid-non-latin-500' && /[^\x20-\x7e]/.test(text))
      throw new TypeError(`Invalid character in header content ["x-pet-id"]`);
    if (this.fault !== 'petid-unicode-digits') return text;
    return text.replace(/\p{Nd}/gu, (digit) => String(digitValue(digit)));
  }

  private listStoreOrders(): Reply {
    switch (this.variant.storeOrders) {
      case 'empty-list':
        return this.json(200, []);
      case 501:
        return this.error(501, 'not_implemented', 'Store orders are not implemented');
      case 404:
        return this.error(404, 'not_found', 'No resource at /store/orders');
    }
  }

  // --- Bodies -------------------------------------------------------------------------------------

  private petJson(pet: Pet, { inList = false } = {}): Json {
    return {
      id: this.fault === 'id-as-string' ? pet.id.toString() : pet.id,
      name: pet.name,
      categoryId: inList && this.fault === 'categoryid-missing-in-list' ? undefined : pet.categoryId,
      status: pet.status ?? (this.fault === 'status-null' ? null : undefined),
    };
  }

  private json(status: number, body: Json): Reply {
    return { status, body: toJson(body), kind: 'json' };
  }

  error(status: number, code: string, message: string): Reply {
    return this.json(status, {
      code: this.fault === 'error-missing-code' ? undefined : code,
      message,
      status: this.fault === 'error-status-mismatch' ? 400 : status,
    });
  }

  private badRequest(code: string, message: string): BadRequest {
    return new BadRequest(this.error(400, code, message));
  }

  private invalidBody(pointer: string, problem: string): BadRequest {
    return this.badRequest('invalid_body', `Request body is invalid: ${pointer || 'the body'} ${problem}`);
  }

  contentType(reply: Reply): string {
    if (reply.kind === 'text' || (this.fault === 'text-plain-json' && reply.status < 300))
      return 'text/plain; charset=utf-8';
    return this.variant.charset ? 'application/json; charset=utf-8' : 'application/json';
  }
}

/** The value of a decimal digit of any script (Unicode puts each script's 0-9 in a row). */
function digitValue(digit: string): number {
  const code = digit.codePointAt(0)!;
  let zero = code;
  while (/\p{Nd}/u.test(String.fromCodePoint(zero - 1)) && code - zero < 9) zero -= 1;
  return code - zero;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The whole body as UTF-8, or undefined when it is larger than MAX_BODY_BYTES (the rest is drained). */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, reply: Reply, contentType: string): void {
  res.writeHead(reply.status, {
    ...reply.headers,
    'content-type': contentType,
    'content-length': Buffer.byteLength(reply.body),
  });
  res.end(reply.body);
}

// ---------------------------------------------------------------------------------------------

export async function startReferencePetstore(
  options: { apiKey?: string; fault?: Fault; variant?: Partial<Variant>; seedPets?: number } = {},
): Promise<{ url: string; apiKey: string; close(): Promise<void> }> {
  const { apiKey = 'ref-key', fault, variant = {}, seedPets: seedCount = 3 } = options;
  if (fault !== undefined && !FAULTS.some((known) => known.name === fault))
    throw new Error(`Unknown fault ${String(fault)}`);
  const store = new ReferencePetstore(apiKey, fault, { ...DEFAULT_VARIANT, ...variant }, seedCount);
  const server = createServer((req, res) => {
    store.handle(req).then(
      (reply) => send(res, reply, store.contentType(reply)),
      (thrown: unknown) => {
        const reply = store.error(500, 'internal_error', thrown instanceof Error ? thrown.message : 'Internal error');
        send(res, reply, store.contentType(reply));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    apiKey,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
