import { stringifyJson } from '../core/json.js';
import type { NewPet, Pet, PetStatus } from './pet.js';

/** A pet with its JSON text, computed once: pets never change after creation, so reads only concatenate. */
export interface StoredPet {
  readonly pet: Pet;
  readonly json: string;
}

/** Order of list results; both are stable (ids never change). */
export type ListOrder = 'newest-first' | 'oldest-first';

export type CreateResult = { ok: true; stored: StoredPet } | { ok: false; reason: 'full'; capacity: number };

function storedOf(pet: Pet): StoredPet {
  return { pet, json: stringifyJson(pet) };
}

/** The pets of one tenant: ids increase from the seeded ones, order is by id. */
export class TenantPets {
  readonly #byId = new Map<number, StoredPet>();
  readonly #ordered: StoredPet[];
  readonly #capacity: number;
  #nextId: number;

  constructor(seeded: readonly StoredPet[], capacity: number) {
    this.#ordered = [...seeded];
    for (const stored of seeded) this.#byId.set(stored.pet.id, stored);
    this.#capacity = capacity;
    this.#nextId = (seeded.at(-1)?.pet.id ?? 0) + 1;
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
    if (this.#ordered.length >= this.#capacity) return { ok: false, reason: 'full', capacity: this.#capacity };
    const pet: Pet = { id: this.#nextId, name: input.name, categoryId: input.categoryId };
    if (input.status !== undefined) pet.status = input.status;
    this.#nextId += 1;
    const stored = storedOf(pet);
    this.#ordered.push(stored);
    this.#byId.set(pet.id, stored);
    return { ok: true, stored };
  }
}

export interface PetStoreOptions {
  /** Seeded pets for a given seed (called once per seed and shared by tenants: pets are immutable). */
  seedPets: (seed: number) => Pet[];
  seed: number;
  /** Maximum pets per tenant, seeded ones included. */
  capacity: number;
}

/** Every tenant's pets. Tenants are created on first use, each seeded identically. */
export class PetStore {
  readonly #tenants = new Map<string, TenantPets>();
  readonly #options: PetStoreOptions;
  #seed: number;
  #seeded: readonly StoredPet[] | undefined;

  constructor(options: PetStoreOptions) {
    this.#options = options;
    this.#seed = options.seed;
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
      tenant = new TenantPets(this.#seeded, this.#options.capacity);
      this.#tenants.set(key, tenant);
    }
    return tenant;
  }

  /** Forgets every tenant's pets (or one tenant's); the next access re-seeds, with `seed` if given. */
  reset(options: { seed?: number; tenant?: string } = {}): void {
    if (options.tenant !== undefined) {
      this.#tenants.delete(options.tenant);
      return;
    }
    if (options.seed !== undefined && options.seed !== this.#seed) {
      this.#seed = options.seed;
      this.#seeded = undefined;
    }
    this.#tenants.clear();
  }
}
