import { ProblemError } from '../core/problem.js';
import type { PetStatus, NewPet, Int64 } from '../store/pet.js';
import type { FullReason, ListOrder, TenantPets } from '../store/pet-store.js';
import type { Operation } from '../openapi/operations.js';
import type { RequestInput } from './request-input.js';
import type { MockResponse } from './mock-response.js';

export interface HandlerContext {
  pets: TenantPets;
  /** `/v1`: for the Location header of created pets. */
  basePath: string;
  listOrder: ListOrder;
}

/** A stateful implementation of one operation, bound when the document's operation has the expected shape. */
export interface StatefulHandler {
  fits(operation: Operation): boolean;
  handle(input: RequestInput, context: HandlerContext): MockResponse;
}

const DEFAULT_LIMIT = 20;

const collection = (method: string) => (operation: Operation) =>
  operation.method === method && !operation.path.includes('{');
const item = (operation: Operation) => operation.method === 'get' && (operation.path.match(/\{/g)?.length ?? 0) === 1;

function listPets(input: RequestInput, { pets, listOrder }: HandlerContext): MockResponse {
  const limit = typeof input.query.limit === 'number' ? input.query.limit : DEFAULT_LIMIT;
  const found = pets.list(limit, input.query.status as PetStatus | undefined, listOrder);
  return { status: 200, json: `[${found.map((stored) => stored.json).join(',')}]` };
}

function createPet(input: RequestInput, { pets, basePath }: HandlerContext): MockResponse {
  const body = input.body.value as Record<string, unknown>;
  const newPet: NewPet = { name: body.name as string, categoryId: body.categoryId as Int64 };
  if (body.status !== undefined) newPet.status = body.status as PetStatus;
  const result = pets.create(newPet);
  if (!result.ok) throw storeFull(result.reason, result.limit);
  return { status: 201, json: result.stored.json, headers: { Location: `${basePath}/pets/${result.stored.pet.id}` } };
}

const FULL_MESSAGES: Record<FullReason, (limit: number) => string> = {
  pets: (limit) => `This store holds its maximum of ${limit} pets`,
  'store-bytes': (limit) => `This store's pets take its maximum of ${formatBytes(limit)} of memory`,
  'total-bytes': (limit) => `The pets of all stores take kennel's maximum of ${formatBytes(limit)} of memory`,
};

function storeFull(reason: FullReason, limit: number): ProblemError {
  return new ProblemError(507, 'store_full', `${FULL_MESSAGES[reason](limit)}; reset it with POST /__kennel/reset`);
}

function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}

function getPet(input: RequestInput, { pets }: HandlerContext): MockResponse {
  const id = Object.values(input.path)[0];
  const stored = typeof id === 'number' ? pets.get(id) : undefined;
  if (!stored) throw new ProblemError(404, 'not_found', `No pet with id ${String(id)}`);
  return { status: 200, json: stored.json };
}

/** The pet operations kennel keeps state for, by operationId; every other operation goes to the fallback. */
export const PET_HANDLERS: Readonly<Record<string, StatefulHandler>> = {
  listPets: { fits: collection('get'), handle: listPets },
  createPet: { fits: collection('post'), handle: createPet },
  getPet: { fits: item, handle: getPet },
};
