import { describe, expect, it } from 'vitest';
import { PetStore, petBytes } from '../../src/store/pet-store.js';
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
    expect(tenant.create({ name: 'Z', categoryId: 1 })).toEqual({ ok: false, reason: 'pets', limit: 5 });
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

describe('PetStore memory bounds', () => {
  const name = 'n'.repeat(1000);
  const cost = petBytes({ pet: { id: 4, name, categoryId: 1 }, json: JSON.stringify({ id: 4, name, categoryId: 1 }) });
  const bounded = (storeBytes: number, totalBytes: number) =>
    new PetStore({ seedPets: (value) => seed(value, 3), seed: 1, capacity: 1000, storeBytes, totalBytes });

  it('estimates a pet from its JSON text, so a long name costs what it weighs', () => {
    expect(cost).toBeGreaterThan(4000);
  });

  it('refuses a pet that would take one store over its bytes, and nothing changes', () => {
    const store = bounded(cost * 2 + 1000, cost * 100);
    const tenant = store.tenant('a');
    expect(tenant.create({ name, categoryId: 1 }).ok).toBe(true);
    expect(tenant.create({ name, categoryId: 1 }).ok).toBe(true);
    const before = tenant.list(100);
    expect(tenant.create({ name, categoryId: 1 })).toEqual({
      ok: false,
      reason: 'store-bytes',
      limit: cost * 2 + 1000,
    });
    expect(tenant.list(100)).toEqual(before);
    expect(tenant.create({ name: 'small', categoryId: 1 }).ok).toBe(true);
    expect(store.tenant('b').create({ name, categoryId: 1 }).ok).toBe(true);
  });

  it('refuses a pet that would take all stores over the total, and a tenant reset gives its share back', () => {
    const store = bounded(cost * 10, cost * 3 + 10);
    expect(store.tenant('a').create({ name, categoryId: 1 }).ok).toBe(true);
    expect(store.tenant('a').create({ name, categoryId: 1 }).ok).toBe(true);
    expect(store.tenant('b').create({ name, categoryId: 1 }).ok).toBe(true);
    expect(store.tenant('c').create({ name, categoryId: 1 })).toMatchObject({ ok: false, reason: 'total-bytes' });
    expect(store.bytes).toBe(cost * 3);
    store.reset({ tenant: 'a' });
    expect(store.bytes).toBe(cost);
    expect(store.tenant('c').create({ name, categoryId: 1 }).ok).toBe(true);
    store.reset();
    expect(store.bytes).toBe(0);
  });

  it('ids are not used up by refused pets', () => {
    const tenant = bounded(cost, cost * 10).tenant('a');
    expect(tenant.create({ name, categoryId: 1 })).toMatchObject({ ok: true, stored: { pet: { id: 4 } } });
    expect(tenant.create({ name, categoryId: 1 }).ok).toBe(false);
    const next = bounded(cost * 3, cost * 10).tenant('a');
    next.create({ name, categoryId: 1 });
    expect(next.create({ name, categoryId: 1 })).toMatchObject({ ok: true, stored: { pet: { id: 5 } } });
  });
});
