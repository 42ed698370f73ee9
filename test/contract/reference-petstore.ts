// An independent reference implementation of the Pet Store API, written from the interface
// specification alone (shared/seed, sections 2-9) as a third party would, to test `kennel check`.
// It imports nothing from src/. It can run as written (correct), with legitimate variants (choices
// the specification leaves open: reference-petstore/variants.ts) and with exactly one fault: a
// realistic single violation, which bends the correct behaviour through the hooks its table
// declares (reference-petstore-faults.ts; the hooks: reference-petstore/model.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAULT_TABLE, type PetstoreFault } from './reference-petstore-faults.js';
import { parseInt64, toJson, type Json } from './reference-petstore/json.js';
import {
  BadRequest,
  bent,
  PET_STATUSES,
  type Answers,
  type Credentials,
  type FaultHooks,
  type Operation,
  type Pet,
  type PetJson,
  type Reply,
} from './reference-petstore/model.js';
import { readLimit, readStatusFilter } from './reference-petstore/readers.js';
import { NewPetBody } from './reference-petstore/new-pet-body.js';
import { DEFAULT_VARIANT, type Variant } from './reference-petstore/variants.js';

export { VARIANTS, type Variant } from './reference-petstore/variants.js';

export type Fault = (typeof FAULT_TABLE)[number]['name'];
export const FAULTS: readonly (PetstoreFault & { name: Fault })[] = FAULT_TABLE;

const SEED_NAMES = ['Rex', 'Tom', 'Bella', 'Max', 'Luna', 'Milo', 'Coco', 'Daisy', 'Oscar', 'Ruby'];
const LARGE_FIRST_ID = 2n ** 53n + 1n;
/** Room for 100,000 ids below int64's maximum: far more than one run creates. */
const NEAR_MAX_FIRST_ID = 2n ** 63n - 100_000n;
const FIRST_IDS: Record<Variant['ids'], bigint> = {
  sequential: 1n,
  large: LARGE_FIRST_ID,
  'near-max': NEAR_MAX_FIRST_ID,
};

function seedPets(count: number, firstId: bigint): Pet[] {
  return Array.from({ length: count }, (_, index) => {
    const round = Math.floor(index / SEED_NAMES.length);
    const name = `${SEED_NAMES[index % SEED_NAMES.length]}${round === 0 ? '' : ` ${round + 1}`}`;
    return { id: firstId + BigInt(index), name, categoryId: BigInt((index % 3) + 1), status: PET_STATUSES[index % 3] };
  });
}

const ROUTES: readonly { pattern: RegExp; methods: Readonly<Record<string, Operation>> }[] = [
  { pattern: /^\/v1\/pets$/, methods: { GET: 'listPets', POST: 'createPet' } },
  { pattern: /^\/v1\/pets\/([^/]+)$/, methods: { GET: 'getPet' } },
  { pattern: /^\/v1\/store\/orders$/, methods: { GET: 'listStoreOrders' } },
];

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

class ReferencePetstore {
  private pets: Pet[];
  private nextId: bigint;
  /** When each pet was stored (ms since the epoch) and how many were stored before it: list lags. */
  private readonly storedAt = new Map<bigint, { ms: number; writes: number }>();
  private stores = 0;
  private listRequests = 0;
  private handled = 0;
  private served = 0;
  private readonly answers: Answers = {
    error: (status, code, message) => this.error(status, code, message),
    badRequest: (code, message) => new BadRequest(this.error(400, code, message)),
    invalidBody: (pointer, problem) =>
      this.answers.badRequest('invalid_body', `Request body is invalid: ${pointer || 'the body'} ${problem}`),
  };
  private readonly body: NewPetBody;

  constructor(
    private readonly apiKey: string,
    private readonly hooks: FaultHooks,
    private readonly variant: Variant,
    seedCount: number,
  ) {
    this.pets = seedPets(seedCount, this.firstId);
    this.nextId = this.firstId + BigInt(seedCount);
    this.body = new NewPetBody(hooks, variant, this.answers);
  }

  async handle(req: IncomingMessage): Promise<Reply> {
    if (this.variant.otherClientEvery > 0 && ++this.handled % this.variant.otherClientEvery === 0)
      this.keep({ id: await this.assignId(), name: 'Another client', categoryId: 1n, status: 'sold' });
    this.hooks.request?.(++this.served);
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
    const reply = await this.answered(operation, req, url);
    const deprecated = this.hooks.deprecated?.(operation, operation === 'getPet') ?? operation === 'getPet';
    if (deprecated && this.variant.deprecationHeaders)
      reply.headers = { ...reply.headers, ...this.deprecationHeaders() };
    return reply;
  }

  private async answered(operation: Operation, req: IncomingMessage, url: URL): Promise<Reply> {
    try {
      if (!this.authorised(operation, req.headers.authorization)) {
        await this.rejectBeforeAuth(operation, req, url);
        return this.unauthorised(req.headers.authorization);
      }
      return await this.dispatch(operation, req, url);
    } catch (thrown) {
      if (thrown instanceof BadRequest) return thrown.reply;
      throw thrown;
    }
  }

  private async dispatch(operation: Operation, req: IncomingMessage, url: URL): Promise<Reply> {
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
  }

  // --- Authentication --------------------------------------------------------------------------

  private authorised(operation: Operation, header: string | undefined): boolean {
    const [, scheme, token] = /^(\S+) +(\S+) *$/.exec(header ?? '') ?? [];
    const bearer = scheme?.toLowerCase() === 'bearer' ? token : undefined;
    const credentials: Credentials = { operation, header, scheme, token, bearer, apiKey: this.apiKey };
    const correct = bearer === this.apiKey;
    return this.hooks.authorised?.(credentials, correct) ?? correct;
  }

  private unauthorised(header: string | undefined): Reply {
    const reply = this.error(401, 'unauthorized', 'Authorization header with a valid Bearer API key is required');
    const challenged = { ...reply, headers: { 'www-authenticate': this.variant.challenge } };
    return this.hooks.unauthorised?.(header, challenged, this.answers) ?? challenged;
  }

  /**
   * What a request without a valid key is refused for before the key is looked at (thrown):
   * routing and JSON parsing under the framework-order variant, body validation under a fault.
   */
  private async rejectBeforeAuth(operation: Operation, req: IncomingMessage, url: URL): Promise<void> {
    const segment = url.pathname.slice('/v1/pets/'.length);
    if (operation === 'getPet' && this.variant.frameworkOrder && parseInt64(safeDecode(segment)) === undefined)
      throw new BadRequest(this.error(404, 'not_found', `No resource at ${url.pathname}`));
    const validates = this.hooks.validatesBeforeAuth === true;
    if (operation !== 'createPet' || (!validates && !this.variant.frameworkOrder)) return;
    const body = await this.body.parsed(req);
    if (validates) this.body.newPet(body);
  }

  private deprecationHeaders(): Record<string, string> {
    const sunset = this.hooks.sunset?.(this.variant.sunset) ?? this.variant.sunset;
    return { sunset, ...(this.variant.deprecation === undefined ? {} : { deprecation: this.variant.deprecation }) };
  }

  // --- listPets ---------------------------------------------------------------------------------

  private listPets(query: URLSearchParams): Reply {
    const limit = bent(
      this.hooks.limit,
      query.getAll('limit'),
      (values) => readLimit(values, this.variant, this.answers),
      this.answers,
    );
    const status = readStatusFilter(query.getAll('status'), this.answers);
    const matching = status === undefined ? this.pets : this.pets.filter((pet) => this.matches(pet, status));
    const pets = this.ordered(matching.filter((pet) => this.replicated(pet)));
    const list = { listed: pets.length, filtered: status !== undefined, limitGiven: query.has('limit') };
    const size = this.hooks.pageSize?.(list, limit) ?? limit;
    const page = this.hooks.page?.(pets, pets.slice(0, size)) ?? pets.slice(0, size);
    const listed = this.hooks.listed?.(page) ?? page;
    const items = listed.map((pet) => this.petJson(pet, { inList: true }));
    const reply = this.json(200, this.hooks.listBody?.(items) ?? items);
    return { ...reply, body: this.hooks.listText?.(reply.body) ?? reply.body };
  }

  private matches(pet: Pet, status: string): boolean {
    const correct = pet.status === status;
    return this.hooks.matches?.(pet, status, correct, this.firstId) ?? correct;
  }

  private ordered(pets: Pet[]): Pet[] {
    if (this.hooks.order) return this.hooks.order(pets, (this.listRequests += 1));
    if (this.variant.order === 'newest-first') return [...pets].reverse();
    if (this.variant.order === 'by-name')
      return [...pets].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
    return pets;
  }

  /** Under a list lag, a pet is listed only once the replica has it: after the lag's writes, or time. */
  private replicated(pet: Pet): boolean {
    const stored = this.storedAt.get(pet.id);
    if (!stored) return true;
    const writes = this.hooks.listLagWrites;
    if (writes !== undefined) return this.stores - stored.writes > writes;
    return Date.now() - stored.ms >= this.variant.listLagMs;
  }

  // --- createPet --------------------------------------------------------------------------------

  private async createPet(req: IncomingMessage): Promise<Reply> {
    const newPet = this.body.newPet(await this.body.parsed(req));
    const id = newPet.clientId !== undefined && this.hooks.honoursClientId ? newPet.clientId : await this.assignId();
    const name = this.hooks.storedName?.(newPet.name) ?? newPet.name;
    const categoryId = this.hooks.storedCategoryId?.(newPet.categoryId) ?? newPet.categoryId;
    const pet: Pet = { id, name, categoryId, ...(newPet.status === undefined ? {} : { status: newPet.status }) };
    const stored = this.hooks.stored ? this.hooks.stored(pet) : pet;
    if (stored) this.keep(stored);
    const reply = this.json(this.hooks.createStatus ?? 201, this.petJson(pet));
    return { ...reply, headers: this.locationHeader(id, req) };
  }

  /** Stores a pet, and when lists lag, when it was stored. */
  private keep(pet: Pet): void {
    const kept = [...this.pets, pet];
    this.pets = this.hooks.keep?.(pet, kept) ?? kept;
    this.storedAt.set(pet.id, { ms: Date.now(), writes: this.stores++ });
  }

  private locationHeader(id: bigint, req: IncomingMessage): Record<string, string> {
    const path = `/v1/pets/${id}`;
    const { location } = this.variant;
    const correct: Record<string, string> =
      location === 'absolute'
        ? { location: `http://${req.headers.host}${path}` }
        : location === 'path'
          ? { location: path }
          : {};
    return this.hooks.location?.(id, correct) ?? correct;
  }

  private get firstId(): bigint {
    return FIRST_IDS[this.variant.ids];
  }

  private async assignId(): Promise<bigint> {
    const id = this.nextId;
    if (this.hooks.assignDelayMs) await delay(this.hooks.assignDelayMs);
    this.nextId = id + 1n;
    return this.hooks.assignedId?.(id, this.firstId) ?? id;
  }

  // --- getPet and the store orders --------------------------------------------------------------

  private getPet(segment: string): Reply {
    const text = safeDecode(segment);
    const id = parseInt64(this.hooks.petIdText?.(text) ?? text);
    this.hooks.petId?.(id, segment);
    if (id === undefined) {
      const code = this.variant.badPetId === 400 ? 'invalid_parameter' : 'not_found';
      return this.error(this.variant.badPetId, code, `petId must be an int64 integer, got ${segment}`);
    }
    const found = this.pets.find((candidate) => candidate.id === id);
    const pet = this.hooks.foundPet ? this.hooks.foundPet(id, this.pets, found) : found;
    if (pet) return this.json(200, this.petJson(pet));
    const notFound = this.error(404, 'not_found', `No pet with id ${id}`);
    return this.hooks.notFound?.(id, notFound, this.answers) ?? notFound;
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
    const correct: PetJson = { id: pet.id, name: pet.name, categoryId: pet.categoryId, status: pet.status };
    return this.hooks.petJson?.(pet, correct, inList) ?? correct;
  }

  private json(status: number, body: Json): Reply {
    return { status, body: toJson(body), kind: 'json' };
  }

  error(status: number, code: string, message: string): Reply {
    const correct = { code, message, status };
    return this.json(status, { ...(this.hooks.errorBody?.(correct) ?? correct) });
  }

  contentType(reply: Reply): string {
    if (reply.kind === 'text') return 'text/plain; charset=utf-8';
    const correct = this.variant.charset ? 'application/json; charset=utf-8' : 'application/json';
    return this.hooks.contentType?.(reply, correct) ?? correct;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
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
  const hooks = FAULTS.find((known) => known.name === fault)?.hooks ?? {};
  const store = new ReferencePetstore(apiKey, hooks, { ...DEFAULT_VARIANT, ...variant }, seedCount);
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
