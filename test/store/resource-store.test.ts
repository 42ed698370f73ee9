import { describe, expect, it } from 'vitest';
import { ResourceStore, type CollectionSpec } from '../../src/store/resource-store.js';
import { recordBytes, type TenantCollection } from '../../src/store/tenant-collection.js';
import { seedPets } from '../../src/store/seed.js';
import type { Category, SeedProfile } from '../../src/store/pet.js';

const categories: Category[] = [
  { id: 1, name: 'Dogs', weight: 3 },
  { id: 2, name: 'Cats', weight: 1 },
];
const profile: SeedProfile = { statusWeights: { available: 2, pending: 1, sold: 1 }, withoutStatus: 0 };
const seed = (value: number, count = 10) => seedPets({ seed: value, count, categories, profile });

const petsSpec = (count: number): CollectionSpec => ({
  key: { property: 'id', kind: 'integer' },
  seed: (value) => seed(value, count).map((pet) => ({ ...pet })),
});

function storeOf(options: { capacity?: number; storeBytes?: number; totalBytes?: number; count?: number } = {}) {
  const { capacity = 5, count = 3, ...bytes } = options;
  return new ResourceStore({ collections: new Map([['/pets', petsSpec(count)]]), seed: 1, capacity, ...bytes });
}

/** Creates as the responder does: the next key, then the item. */
const create = (collection: TenantCollection, item: Record<string, unknown>) =>
  collection.insert({ id: collection.newKey(), ...item });
const pets = (store: ResourceStore, tenant: string) => store.tenant(tenant).collection('/pets');
const ids = (records: { value: Record<string, unknown> }[]) => records.map((record) => record.value.id);

describe('seedPets', () => {
  it('is deterministic per seed and differs across seeds', () => {
    expect(seed(5)).toEqual(seed(5));
    expect(seed(5)).not.toEqual(seed(6));
  });

  it('draws categories only from the fixtures, and every status', () => {
    const seeded = seed(1, 200);
    expect(new Set(seeded.map((pet) => pet.categoryId))).toEqual(new Set([1, 2]));
    expect(new Set(seeded.map((pet) => pet.status))).toEqual(new Set(['available', 'pending', 'sold']));
    expect(seeded.map((pet) => pet.id)).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
  });

  it('leaves the status out for the configured share of pets', () => {
    const seeded = seedPets({ seed: 1, count: 100, categories, profile: { ...profile, withoutStatus: 1 } });
    expect(seeded.every((pet) => pet.status === undefined)).toBe(true);
  });
});

describe('ResourceStore', () => {
  it('seeds each tenant identically and keeps them apart', () => {
    const store = storeOf();
    const a = pets(store, 'a');
    const b = pets(store, 'b');
    expect(a.list(10)).toEqual(b.list(10));
    const created = create(a, { name: 'X', categoryId: 1 });
    expect(created.ok && created.stored.value.id).toBe(4);
    expect(b.get('4')).toBeUndefined();
    expect(a.get('4')?.json).toBe('{"id":4,"name":"X","categoryId":1}');
  });

  it('refuses creates beyond capacity with a value, not an exception', () => {
    const tenant = pets(storeOf(), 'a');
    create(tenant, { name: 'X', categoryId: 1 });
    create(tenant, { name: 'Y', categoryId: 1 });
    expect(create(tenant, { name: 'Z', categoryId: 1 })).toEqual({ ok: false, reason: 'items', limit: 5 });
    expect(tenant.size).toBe(5);
  });

  it('filters by a property within the limit, newest first by default, or oldest first', () => {
    const tenant = pets(storeOf(), 'a');
    create(tenant, { name: 'P', categoryId: 1, status: 'pending' });
    create(tenant, { name: 'Q', categoryId: 1, status: 'pending' });
    const pending = [['status', 'pending']] as const;
    expect(tenant.list(1, pending).map((stored) => stored.value.name)).toEqual(['Q']);
    const newest = ids(tenant.list(10, pending)) as number[];
    expect(newest).toEqual([...newest].sort((x, y) => y - x));
    expect(ids(tenant.list(10, pending, 'oldest-first'))).toEqual([...newest].reverse());
    expect(ids(tenant.list(2, [], 'oldest-first'))).toEqual([1, 2]);
    expect(ids(tenant.list(2))).toEqual([5, 4]);
  });

  it('reset re-seeds every tenant, or forgets one', () => {
    const store = storeOf();
    create(pets(store, 'a'), { name: 'X', categoryId: 1 });
    create(pets(store, 'b'), { name: 'Y', categoryId: 1 });
    store.reset({ tenant: 'a' });
    expect(pets(store, 'a').size).toBe(3);
    expect(pets(store, 'b').size).toBe(4);
    store.reset({ seed: 2 });
    expect(store.seed).toBe(2);
    expect(
      pets(store, 'b')
        .list(3, [], 'oldest-first')
        .map((stored) => stored.value),
    ).toEqual(seed(2, 3));
  });

  it('replaces an item in place and removes one; keys are never reused', () => {
    const tenant = pets(storeOf(), 'a');
    const result = tenant.replace('2', { id: 2, name: 'Renamed', categoryId: 2 });
    expect(result?.ok).toBe(true);
    expect(ids(tenant.list(10, [], 'oldest-first'))).toEqual([1, 2, 3]);
    expect(tenant.get('2')?.json).toBe('{"id":2,"name":"Renamed","categoryId":2}');
    expect(tenant.replace('9', { id: 9 })).toBeUndefined();
    expect(tenant.remove('3')?.key).toBe('3');
    expect(tenant.remove('3')).toBeUndefined();
    expect(tenant.get('3')).toBeUndefined();
    expect(create(tenant, { name: 'New', categoryId: 1 })).toMatchObject({ ok: true, stored: { value: { id: 4 } } });
  });

  it('keys clients chose neither move the sequence nor get given again', () => {
    const tenant = pets(storeOf({ capacity: 10 }), 'a');
    tenant.insert({ id: 5, name: 'Chosen' });
    tenant.insert({ id: Number.MAX_SAFE_INTEGER, name: 'Huge' });
    expect(
      ids([create(tenant, {}), create(tenant, {}), create(tenant, {})].map((r) => (r.ok ? r.stored : r) as never)),
    ).toEqual([4, 6, 7]);
  });

  it('keys restored or sent ahead of the sequence are skipped, as text or as numbers', () => {
    const tenant = pets(storeOf({ capacity: 10 }), 'a');
    tenant.restore(
      [
        { value: { id: 1 }, created: true },
        { value: { id: 7 }, created: true },
      ],
      5,
    );
    const made = [create(tenant, {}), create(tenant, {}), create(tenant, {})];
    expect(ids(made.map((r) => (r.ok ? r.stored : r) as never))).toEqual([5, 6, 8]);
    const strings = new ResourceStore({
      collections: new Map([['/s', { key: { property: 'name', kind: 'string' }, seed: () => [{ name: 'x' }] }]]),
      seed: 1,
      capacity: 10,
    });
    const named = strings.tenant('a').collection('/s');
    named.insert({ name: '1' });
    named.insert({ name: '002' });
    expect([named.newKey()]).toEqual(['2']);
  });

  it('a replaced seeded item changes only its tenant', () => {
    const store = storeOf();
    pets(store, 'a').replace('1', { id: 1, name: 'Mine', categoryId: 1 });
    expect(pets(store, 'b').get('1')?.value.name).not.toBe('Mine');
  });

  it('keeps a sub-resource per parent, starting empty', () => {
    const store = storeOf();
    const ofOne = store.tenant('a').collection('/pets', '1');
    expect(ofOne.size).toBe(0);
    create(ofOne, { name: 'Child' });
    expect(store.tenant('a').collection('/pets', '2').size).toBe(0);
    expect(store.tenant('a').collection('/pets', '1').size).toBe(1);
  });

  it('makes string and uuid keys when asked', () => {
    const strings = new ResourceStore({
      collections: new Map([
        ['/s', { key: { property: 'name', kind: 'string' }, seed: () => [{ name: '1' }] }],
        ['/u', { key: { property: 'uid', kind: 'uuid' }, seed: () => [] }],
      ]),
      seed: 1,
      capacity: 10,
    });
    expect(strings.tenant('a').collection('/s').newKey()).toBe('2');
    const uuid = strings.tenant('a').collection('/u').newKey();
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(strings.tenant('b').collection('/u').newKey()).not.toBe(uuid);
  });
});

describe('ResourceStore memory bounds', () => {
  const name = 'n'.repeat(1000);
  const cost = recordBytes(JSON.stringify({ id: 4, name, categoryId: 1 }));
  const bounded = (storeBytes: number, totalBytes: number) => storeOf({ capacity: 1000, storeBytes, totalBytes });

  it('estimates an item from its JSON text, so a long name costs what it weighs', () => {
    expect(cost).toBeGreaterThan(4000);
  });

  it('refuses an item that would take one store over its bytes, and nothing changes', () => {
    const store = bounded(cost * 2 + 1000, cost * 100);
    const tenant = pets(store, 'a');
    expect(create(tenant, { name, categoryId: 1 }).ok).toBe(true);
    expect(create(tenant, { name, categoryId: 1 }).ok).toBe(true);
    const before = tenant.list(100);
    expect(create(tenant, { name, categoryId: 1 })).toEqual({
      ok: false,
      reason: 'store-bytes',
      limit: cost * 2 + 1000,
    });
    expect(tenant.list(100)).toEqual(before);
    expect(create(tenant, { name: 'small', categoryId: 1 }).ok).toBe(true);
    expect(create(pets(store, 'b'), { name, categoryId: 1 }).ok).toBe(true);
  });

  it('refuses an item that would take all stores over the total, and a tenant reset gives its share back', () => {
    const store = bounded(cost * 10, cost * 3 + 10);
    expect(create(pets(store, 'a'), { name, categoryId: 1 }).ok).toBe(true);
    expect(create(pets(store, 'a'), { name, categoryId: 1 }).ok).toBe(true);
    expect(create(pets(store, 'b'), { name, categoryId: 1 }).ok).toBe(true);
    expect(create(pets(store, 'c'), { name, categoryId: 1 })).toMatchObject({ ok: false, reason: 'total-bytes' });
    expect(store.bytes).toBe(cost * 3);
    store.reset({ tenant: 'a' });
    expect(store.bytes).toBe(cost);
    expect(create(pets(store, 'c'), { name, categoryId: 1 }).ok).toBe(true);
    store.reset();
    expect(store.bytes).toBe(0);
  });

  it('a removed item gives its memory back', () => {
    const store = bounded(cost * 10, cost * 10);
    const tenant = pets(store, 'a');
    create(tenant, { name, categoryId: 1 });
    expect(store.bytes).toBe(cost);
    tenant.remove('4');
    expect(store.bytes).toBe(0);
    expect(store.tenant('a').bytes).toBe(0);
  });

  it('keys are not used up by refused items', () => {
    const tenant = pets(bounded(cost, cost * 10), 'a');
    expect(create(tenant, { name, categoryId: 1 })).toMatchObject({ ok: true, stored: { value: { id: 4 } } });
    expect(create(tenant, { name, categoryId: 1 }).ok).toBe(false);
    const next = pets(bounded(cost * 3, cost * 10), 'a');
    create(next, { name, categoryId: 1 });
    expect(create(next, { name, categoryId: 1 })).toMatchObject({ ok: true, stored: { value: { id: 5 } } });
  });
});
