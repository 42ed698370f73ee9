/** The pet store's resource types, as the interface specification defines them. */

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

/** int64 values: numbers while safe, bigint beyond 2^53 so they round-trip exactly. */
export type Int64 = number | bigint;

export interface NewPet {
  name: string;
  categoryId: Int64;
  status?: PetStatus;
}

export interface Pet extends NewPet {
  id: number;
}

/** A category from the fixtures; the spec shows nothing of categories beyond `categoryId`. */
export interface Category {
  id: number;
  name: string;
  /** Relative frequency among seeded pets. */
  weight: number;
}

/** How seeded pets are drawn (fixtures/pets.json). */
export interface SeedProfile {
  statusWeights: Record<PetStatus, number>;
  /** Share (0..1) of seeded pets that carry no status. */
  withoutStatus: number;
}
