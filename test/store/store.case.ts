// One suite for every store (DESIGN.md convention 7/10): the in-memory store and the Redis store
// must behave alike through the one Store interface. store-behaviour.test.ts runs it on both.
import { describe, expect, it } from 'vitest';
import type { CollectionSpec, ResourceStoreOptions } from '../../src/store/resource-store.js';
import type { Collection, CreateDraft, Store } from '../../src/store/store-types.js';
import { recordBytes } from '../../src/store/tenant-collection.js';

/** Makes a fresh, empty store for `options` (a Redis one is flushed first). */
export type MakeStore = (options: ResourceStoreOptions) => Promise<Store>;

const seededPets = (seed: number, count = 3) =>
  Array.from({ length: count }, (_, index) => ({ id: index + 1, name: `Pet ${seed}-${index + 1}`, categoryId: 1 }));

const pets: CollectionSpec = { key: { property: 'id', kind: 'integer' }, seed: (seed) => seededPets(seed) };
const names: CollectionSpec = { key: { property: 'name', kind: 'string' }, seed: () => [{ name: '1' }] };
const uuids: CollectionSpec = { key: { property: 'uid', kind: 'uuid' }, seed: () => [] };

function optionsOf(bounds: { capacity?: number; storeBytes?: number; totalBytes?: number } = {}): ResourceStoreOptions {
  const collections = new Map([
    ['/pets', pets],
    ['/names', names],
    ['/uuids', uuids],
  ]);
  return { collections, seed: 1, capacity: 5, ...bounds };
}

/** A create as the responder makes it: the key (sent or assigned) first, then the body. */
function draft(
  body: Record<string, unknown>,
  property = 'id',
  sent?: unknown,
  onTaken: CreateDraft['onTaken'] = 'replace',
): CreateDraft {
  return { sent, onTaken, build: (key) => ({ [property]: key, ...body }) };
}

const create = async (collection: Collection, body: Record<string, unknown>) => collection.create(draft(body));
const idsOf = async (collection: Collection, limit = 100, order: 'newest-first' | 'oldest-first' = 'oldest-first') =>
  (await collection.list(limit, [], order)).map((record) => record.value.id);

export function storeBehaviour(label: string, make: MakeStore): void {
  describe(`${label} store`, () => {
    const petsOf = (store: Store, tenant: string) => store.tenant(tenant).collection('/pets');

    it('seeds each tenant identically, keeps them apart, and goes on after the highest seeded id', async () => {
      const store = await make(optionsOf());
      const a = petsOf(store, 'a');
      const b = petsOf(store, 'b');
      expect((await a.list(10, [], 'newest-first')).map((r) => r.json)).toEqual(
        (await b.list(10, [], 'newest-first')).map((r) => r.json),
      );
      expect(await create(a, { name: 'X' })).toMatchObject({
        ok: true,
        stored: { key: '4', json: '{"id":4,"name":"X"}' },
      });
      expect(await b.get('4')).toBeUndefined();
      expect((await a.get('4'))?.value).toEqual({ id: 4, name: 'X' });
      expect(store.seeded('/pets').map((record) => record.value)).toEqual(seededPets(1));
    });

    it('lists within the limit, newest or oldest first, filtered by properties', async () => {
      const store = await make(optionsOf({ capacity: 10 }));
      const tenant = petsOf(store, 'a');
      await create(tenant, { name: 'P', status: 'pending' });
      await create(tenant, { name: 'Q', status: 'pending' });
      expect(await idsOf(tenant, 2, 'newest-first')).toEqual([5, 4]);
      expect(await idsOf(tenant, 2)).toEqual([1, 2]);
      expect(await idsOf(tenant, Infinity, 'newest-first')).toEqual([5, 4, 3, 2, 1]);
      const pending = [['status', 'pending']] as const;
      expect((await tenant.list(1, pending, 'newest-first')).map((r) => r.value.name)).toEqual(['Q']);
      expect((await tenant.list(10, pending, 'oldest-first')).map((r) => r.value.name)).toEqual(['P', 'Q']);
      expect(await tenant.list(10, [['id', 2]], 'oldest-first')).toHaveLength(1);
      expect(await tenant.list(0, [], 'oldest-first')).toEqual([]);
    });

    it('refuses creates beyond capacity with a value, and takes no key for them', async () => {
      const store = await make(optionsOf());
      const tenant = petsOf(store, 'a');
      await create(tenant, { name: 'X' });
      await create(tenant, { name: 'Y' });
      expect(await create(tenant, { name: 'Z' })).toEqual({ ok: false, reason: 'items', limit: 5 });
      expect(await idsOf(tenant)).toEqual([1, 2, 3, 4, 5]);
      await tenant.remove('5');
      expect(await create(tenant, { name: 'Z' })).toMatchObject({ ok: true, stored: { key: '6' } });
    });

    it('replaces in place, removes, and never gives a key again', async () => {
      const store = await make(optionsOf());
      const tenant = petsOf(store, 'a');
      expect(await tenant.replace('2', { id: 2, name: 'Renamed' })).toMatchObject({ ok: true });
      expect(await idsOf(tenant)).toEqual([1, 2, 3]);
      expect((await tenant.get('2'))?.json).toBe('{"id":2,"name":"Renamed"}');
      expect(await tenant.replace('9', { id: 9 })).toBeUndefined();
      expect((await tenant.remove('3'))?.value).toEqual({ id: 3, name: 'Pet 1-3', categoryId: 1 });
      expect(await tenant.remove('3')).toBeUndefined();
      expect(await create(tenant, { name: 'New' })).toMatchObject({ ok: true, stored: { key: '4' } });
      expect((await petsOf(store, 'b').get('2'))?.value.name).toBe('Pet 1-2');
    });

    it('a sent key that is taken conflicts or replaces; keys clients chose are skipped by the sequence', async () => {
      const store = await make(optionsOf({ capacity: 10 }));
      const tenant = petsOf(store, 'a');
      expect(await tenant.create(draft({ name: 'Dup' }, 'id', 2, 'conflict'))).toEqual({ ok: false, reason: 'taken' });
      expect(await tenant.create(draft({ name: 'Over' }, 'id', 2, 'replace'))).toMatchObject({ ok: true });
      expect(await idsOf(tenant)).toEqual([1, 2, 3]);
      expect(await tenant.create(draft({ name: 'Chosen' }, 'id', 5))).toMatchObject({ ok: true, stored: { key: '5' } });
      const assigned = [await create(tenant, {}), await create(tenant, {})];
      expect(assigned.map((result) => result.ok && result.stored.key)).toEqual(['4', '6']);
    });

    it('keeps a sub-collection per parent, starting empty', async () => {
      const store = await make(optionsOf());
      const ofOne = store.tenant('a').collection('/pets', '1');
      expect(await ofOne.list(10, [], 'oldest-first')).toEqual([]);
      expect(await create(ofOne, { name: 'Child' })).toMatchObject({ ok: true, stored: { key: '1' } });
      expect(await store.tenant('a').collection('/pets', '2').list(10, [], 'oldest-first')).toEqual([]);
    });

    it('makes string and uuid keys', async () => {
      const store = await make(optionsOf());
      const named = await store.tenant('a').collection('/names').create(draft({}, 'name'));
      expect(named).toMatchObject({ ok: true, stored: { key: '2', json: '{"name":"2"}' } });
      const made = await store
        .tenant('a')
        .collection('/uuids')
        .create(draft({ n: 1 }, 'uid'));
      const key = made.ok ? made.stored.key : '';
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect((await store.tenant('a').collection('/uuids').get(key))?.value).toEqual({ uid: key, n: 1 });
      const other = await store
        .tenant('b')
        .collection('/uuids')
        .create(draft({ n: 1 }, 'uid'));
      expect(other.ok && other.stored.key).not.toBe(key);
      // Same seed, same keys: a fresh store gives the same UUID again.
      const again = await (
        await make(optionsOf())
      )
        .tenant('a')
        .collection('/uuids')
        .create(draft({ n: 1 }, 'uid'));
      expect(again.ok && again.stored.key).toBe(key);
    });

    it('resets one tenant, or all of them, or re-seeds all from a new seed', async () => {
      const store = await make(optionsOf());
      await create(petsOf(store, 'a'), { name: 'X' });
      await create(petsOf(store, 'b'), { name: 'Y' });
      expect(await store.status()).toMatchObject({ seed: 1, tenants: 2 });
      await store.reset({ tenant: 'a' });
      expect(await idsOf(petsOf(store, 'a'))).toEqual([1, 2, 3]);
      expect(await idsOf(petsOf(store, 'b'))).toEqual([1, 2, 3, 4]);
      await store.reset({ seed: 2 });
      expect((await store.status()).seed).toBe(2);
      expect((await petsOf(store, 'b').list(10, [], 'oldest-first')).map((r) => r.value)).toEqual(seededPets(2));
    });

    describe('memory bounds', () => {
      const name = 'n'.repeat(1000);
      const cost = recordBytes(JSON.stringify({ id: 4, name }));

      it('refuses an item that would take one tenant over its bytes; a removed item gives its bytes back', async () => {
        const store = await make(optionsOf({ capacity: 100, storeBytes: cost * 2 + 10, totalBytes: cost * 100 }));
        const tenant = petsOf(store, 'a');
        expect((await create(tenant, { name })).ok).toBe(true);
        expect((await create(tenant, { name })).ok).toBe(true);
        expect(await create(tenant, { name })).toEqual({ ok: false, reason: 'store-bytes', limit: cost * 2 + 10 });
        expect(await idsOf(tenant)).toEqual([1, 2, 3, 4, 5]);
        expect((await create(petsOf(store, 'b'), { name })).ok).toBe(true);
        await tenant.remove('5');
        expect((await create(tenant, { name })).ok).toBe(true);
      });

      it('refuses an item that would take all tenants over the total; a tenant reset gives its share back', async () => {
        const store = await make(optionsOf({ capacity: 100, storeBytes: cost * 10, totalBytes: cost * 3 + 10 }));
        expect((await create(petsOf(store, 'a'), { name })).ok).toBe(true);
        expect((await create(petsOf(store, 'a'), { name })).ok).toBe(true);
        expect((await create(petsOf(store, 'b'), { name })).ok).toBe(true);
        expect(await create(petsOf(store, 'c'), { name })).toMatchObject({ ok: false, reason: 'total-bytes' });
        await store.reset({ tenant: 'a' });
        expect((await create(petsOf(store, 'c'), { name })).ok).toBe(true);
        expect((await create(petsOf(store, 'c'), { name })).ok).toBe(true);
        expect((await create(petsOf(store, 'c'), { name })).ok).toBe(false);
      });

      it('charges non-ASCII text as the memory estimate does (UTF-16 units)', async () => {
        const wide = 'é'.repeat(1000);
        const wideCost = recordBytes(JSON.stringify({ id: 4, name: wide }));
        const store = await make(optionsOf({ capacity: 100, storeBytes: wideCost, totalBytes: wideCost * 10 }));
        expect((await create(petsOf(store, 'a'), { name: wide })).ok).toBe(true);
        expect(await create(petsOf(store, 'a'), { name: 'x' })).toMatchObject({ ok: false, reason: 'store-bytes' });
      });
    });
  });
}
