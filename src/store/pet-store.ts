import { stringifyJson } from '../core/json.js';
import type { NewPet, Pet, PetStatus } from './pet.js';

/** A pet with its JSON text, computed once: pets never change after creation, so reads only concatenate. */
export interface StoredPet {
  readonly pet: Pet;
  readonly json: string;
}

/** Order of list results; both are stable (ids never change). */
export type ListOrder = 'newest-first' | 'oldest-first';

/** Why a store refuses a pet: its pet count, its memory, or the memory of all stores together. */
export type FullReason = 'pets' | 'store-bytes' | 'total-bytes';

export type CreateResult = { ok: true; stored: StoredPet } | { ok: false; reason: FullReason; limit: number };

function storedOf(pet: Pet): StoredPet {
  return { pet, json: stringifyJson(pet) };
}

/** What a stored pet is estimated to cost: its JSON text and its fields (each about as long), and the objects. */
export function petBytes(stored: StoredPet): number {
  return 4 * stored.json.length + 160;
}

/** Memory used by created pets across every store (seeded pets are shared and bounded by --pets). */
class MemoryBudget {
  used = 0;
  constructor(readonly limit: number) {}
}

/** The pets of one tenant: ids increase from the seeded ones, order is by id. */
export class TenantPets {
  readonly #byId = new Map<number, StoredPet>();
  readonly #ordered: StoredPet[];
  readonly #limits: TenantLimits;
  #nextId: number;
  #bytes = 0;

  constructor(seeded: readonly StoredPet[], limits: TenantLimits) {
    this.#ordered = [...seeded];
    for (const stored of seeded) this.#byId.set(stored.pet.id, stored);
    this.#limits = limits;
    this.#nextId = (seeded.at(-1)?.pet.id ?? 0) + 1;
  }

  /** Estimated memory of the pets created here (not the seeded ones). */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#ordered.length;
  }

  /** At most `limit` pets, optionally only those with `status`, newest first or oldest first (by id). */
  list(limit: number, status?: PetStatus, order: ListOrder = 'newest-first'): StoredPet[] {
    const pets = this.#ordered;
    const found: StoredPet[] = [];
    const step = order === 'newest-first' ? -1 : 1;
    for (
      let index = step === 1 ? 0 : pets.length - 1;
      index >= 0 && index < pets.length && found.length < limit;
      index += step
    ) {
      const stored = pets[index]!;
      if (status === undefined || stored.pet.status === status) found.push(stored);
    }
    return found;
  }

  get(id: number): StoredPet | undefined {
    return this.#byId.get(id);
  }

  /** Stores a new pet under the next id; the caller's input is copied field by field, nothing else kept. */
  create(input: NewPet): CreateResult {
    const { capacity, storeBytes, total } = this.#limits;
    if (this.#ordered.length >= capacity) return { ok: false, reason: 'pets', limit: capacity };
    const pet: Pet = { id: this.#nextId, name: input.name, categoryId: input.categoryId };
    if (input.status !== undefined) pet.status = input.status;
    const stored = storedOf(pet);
    const bytes = petBytes(stored);
    if (this.#bytes + bytes > storeBytes) return { ok: false, reason: 'store-bytes', limit: storeBytes };
    if (total.used + bytes > total.limit) return { ok: false, reason: 'total-bytes', limit: total.limit };
    this.#nextId += 1;
    this.#bytes += bytes;
    total.used += bytes;
    this.#ordered.push(stored);
    this.#byId.set(pet.id, stored);
    return { ok: true, stored };
  }
}

interface TenantLimits {
  capacity: number;
  storeBytes: number;
  total: MemoryBudget;
}

export interface PetStoreOptions {
  /** Seeded pets for a given seed (called once per seed and shared by tenants: pets are immutable). */
  seedPets: (seed: number) => Pet[];
  seed: number;
  /** Maximum pets per tenant, seeded ones included. */
  capacity: number;
  /** Maximum estimated memory of the pets created in one tenant (default: unbounded). */
  storeBytes?: number;
  /** Maximum estimated memory of the pets created in all tenants together (default: unbounded). */
  totalBytes?: number;
}

/** Every tenant's pets. Tenants are created on first use, each seeded identically. */
export class PetStore {
  readonly #tenants = new Map<string, TenantPets>();
  readonly #options: PetStoreOptions;
  readonly #limits: TenantLimits;
  #seed: number;
  #seeded: readonly StoredPet[] | undefined;

  constructor(options: PetStoreOptions) {
    this.#options = options;
    this.#seed = options.seed;
    this.#limits = {
      capacity: options.capacity,
      storeBytes: options.storeBytes ?? Infinity,
      total: new MemoryBudget(options.totalBytes ?? Infinity),
    };
  }

  /** Estimated memory of the pets created in every tenant. */
  get bytes(): number {
    return this.#limits.total.used;
  }

  get seed(): number {
    return this.#seed;
  }

  get tenantCount(): number {
    return this.#tenants.size;
  }

  tenant(key: string): TenantPets {
    let tenant = this.#tenants.get(key);
    if (!tenant) {
      this.#seeded ??= this.#options.seedPets(this.#seed).map(storedOf);
      tenant = new TenantPets(this.#seeded, this.#limits);
      this.#tenants.set(key, tenant);
    }
    return tenant;
  }

  /** Forgets every tenant's pets (or one tenant's); the next access re-seeds, with `seed` if given. */
  reset(options: { seed?: number; tenant?: string } = {}): void {
    if (options.tenant !== undefined) {
      this.#limits.total.used -= this.#tenants.get(options.tenant)?.bytes ?? 0;
      this.#tenants.delete(options.tenant);
      return;
    }
    if (options.seed !== undefined && options.seed !== this.#seed) {
      this.#seed = options.seed;
      this.#seeded = undefined;
    }
    this.#tenants.clear();
    this.#limits.total.used = 0;
  }
}
