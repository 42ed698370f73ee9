import { describe, expect, it } from 'vitest';
import { PetStore } from '../../src/store/pet-store.js';
import { seedPets } from '../../src/store/seed.js';
import type { Category, SeedProfile } from '../../src/store/pet.js';

const categories: Category[] = [
  { id: 1, name: 'Dogs', weight: 3 },
  { id: 2, name: 'Cats', weight: 1 },
];
const profile: SeedProfile = { statusWeights: { available: 2, pending: 1, sold: 1 }, withoutStatus: 0 };
const seed = (value: number, count = 10) => seedPets({ seed: value, count, categories, profile });

describe('seedPets', () => {
  it('is deterministic per seed and differs across seeds', () => {
    expect(seed(5)).toEqual(seed(5));
    expect(seed(5)).not.toEqual(seed(6));
  });

  it('draws categories only from the fixtures, and every status', () => {
    const pets = seed(1, 200);
    expect(new Set(pets.map((pet) => pet.categoryId))).toEqual(new Set([1, 2]));
    expect(new Set(pets.map((pet) => pet.status))).toEqual(new Set(['available', 'pending', 'sold']));
    expect(pets.map((pet) => pet.id)).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
  });

  it('leaves the status out for the configured share of pets', () => {
    const pets = seedPets({ seed: 1, count: 100, categories, profile: { ...profile, withoutStatus: 1 } });
    expect(pets.every((pet) => pet.status === undefined)).toBe(true);
  });
});

describe('PetStore', () => {
  const store = () => new PetStore({ seedPets: (value) => seed(value, 3), seed: 1, capacity: 5 });

  it('seeds each tenant identically and keeps them apart', () => {
    const pets = store();
    const a = pets.tenant('a');
    const b = pets.tenant('b');
    expect(a.list(10)).toEqual(b.list(10));
    const created = a.create({ name: 'X', categoryId: 1 });
    expect(created.ok && created.stored.pet.id).toBe(4);
    expect(b.get(4)).toBeUndefined();
    expect(a.get(4)?.json).toBe('{"id":4,"name":"X","categoryId":1}');
  });

  it('refuses creates beyond capacity with a value, not an exception', () => {
    const tenant = store().tenant('a');
    tenant.create({ name: 'X', categoryId: 1 });
    tenant.create({ name: 'Y', categoryId: 1 });
    expect(tenant.create({ name: 'Z', categoryId: 1 })).toEqual({ ok: false, reason: 'full', capacity: 5 });
    expect(tenant.size).toBe(5);
  });

  it('filters by status within the limit, newest first by default, or oldest first', () => {
    const tenant = store().tenant('a');
    tenant.create({ name: 'P', categoryId: 1, status: 'pending' });
    tenant.create({ name: 'Q', categoryId: 1, status: 'pending' });
    expect(tenant.list(1, 'pending').map((stored) => stored.pet.name)).toEqual(['Q']);
    const newest = tenant.list(10, 'pending').map((stored) => stored.pet.id);
    expect(newest).toEqual([...newest].sort((x, y) => y - x));
    const oldest = tenant.list(10, 'pending', 'oldest-first').map((stored) => stored.pet.id);
    expect(oldest).toEqual([...newest].reverse());
    expect(tenant.list(2, undefined, 'oldest-first').map((stored) => stored.pet.id)).toEqual([1, 2]);
    expect(tenant.list(2).map((stored) => stored.pet.id)).toEqual([5, 4]);
  });

  it('reset re-seeds every tenant, or forgets one', () => {
    const pets = store();
    pets.tenant('a').create({ name: 'X', categoryId: 1 });
    pets.tenant('b').create({ name: 'Y', categoryId: 1 });
    pets.reset({ tenant: 'a' });
    expect(pets.tenant('a').size).toBe(3);
    expect(pets.tenant('b').size).toBe(4);
    pets.reset({ seed: 2 });
    expect(pets.seed).toBe(2);
    expect(
      pets
        .tenant('b')
        .list(3, undefined, 'oldest-first')
        .map((stored) => stored.pet),
    ).toEqual(seed(2, 3));
  });
});
