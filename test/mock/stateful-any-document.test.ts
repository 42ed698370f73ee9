import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startMock } from '../../src/serve/server.js';
import { expectConforms, OTHER_KEY, startTestMock, type TestMock } from '../helpers/mock-client.js';

const SHOP = fileURLToPath(new URL('../fixtures/resources/shop.yaml', import.meta.url));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock({ specPath: SHOP });
});
afterAll(() => mock.close());

const other = { authorization: `Bearer ${OTHER_KEY}` };

describe('a document kennel has no code for gets stateful collections (store orders)', () => {
  it('starts from the orders its examples show, and lists them in the documented shape', async () => {
    await mock.request('POST', '/__kennel/reset', { body: {} });
    const list = await mock.request('GET', '/store/orders?limit=50', { headers: other });
    expect(list.status).toBe(200);
    expectConforms(mock, 'listOrders', list);
    // The two examples, then one order generated from the schema (three at least), newest first.
    expect(list.body).toHaveLength(3);
    expect(list.body.slice(1)).toEqual([
      { id: 11, petId: 2, quantity: 1, status: 'delivered' },
      { id: 10, petId: 1, quantity: 2, status: 'placed' },
    ]);
    expect(list.body[0].id).toBe(12);
    const again = await mock.request('GET', '/store/orders?limit=50');
    expect(again.body).toEqual(list.body);
  });

  it('creates an order (201, Location, id after the highest seeded one), reads it back and lists it', async () => {
    const created = await mock.request('POST', '/store/orders', { body: { petId: 7, quantity: 3, status: 'placed' } });
    expect(created.status).toBe(201);
    expectConforms(mock, 'placeOrder', created);
    expect(created.body).toEqual({ id: expect.any(Number), petId: 7, quantity: 3, status: 'placed' });
    expect(created.body.id).toBeGreaterThan(11);
    expect(created.headers.get('location')).toBe(`/shop/store/orders/${created.body.id}`);
    const read = await mock.request('GET', `/store/orders/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    expectConforms(mock, 'getOrder', read);
    const list = await mock.request('GET', '/store/orders');
    expect(list.body[0]).toEqual(created.body);
  });

  it('ignores an id the client sends: the server assigns it', async () => {
    const created = await mock.request('POST', '/store/orders', { body: { id: 5, petId: 1, quantity: 1 } });
    expect(created.status).toBe(201);
    expect(created.body.id).not.toBe(5);
    expect(Object.keys(created.body)).toEqual(['id', 'petId', 'quantity']);
  });

  it('filters by a query parameter named after a property, and honours the limit', async () => {
    await mock.request('POST', '/store/orders', { body: { petId: 1, quantity: 1, status: 'approved' } });
    await mock.request('POST', '/store/orders', { body: { petId: 2, quantity: 1, status: 'approved' } });
    const approved = await mock.request('GET', '/store/orders?status=approved');
    expect(approved.body.length).toBeGreaterThanOrEqual(2);
    expect(approved.body.every((order: { status: string }) => order.status === 'approved')).toBe(true);
    const one = await mock.request('GET', '/store/orders?limit=1');
    expect(one.body).toHaveLength(1);
  });

  it('keeps tenants apart and a reset of one tenant forgets only its orders', async () => {
    const created = await mock.request('POST', '/store/orders', { body: { petId: 9, quantity: 9 } });
    expect((await mock.request('GET', `/store/orders/${created.body.id}`, { headers: other })).status).toBe(404);
    await mock.request('POST', '/__kennel/reset', { body: { apiKey: mock.key } });
    const gone = await mock.request('GET', `/store/orders/${created.body.id}`);
    expect(gone.status).toBe(404);
    expectConforms(mock, 'getOrder', gone);
    expect((await mock.request('GET', '/store/orders')).body).toHaveLength(3);
  });

  it('PUT replaces, PATCH merges, DELETE removes (204, then 404)', async () => {
    const created = await mock.request('POST', '/store/orders', { body: { petId: 1, quantity: 1, status: 'placed' } });
    const path = `/store/orders/${created.body.id}`;
    const replaced = await mock.request('PUT', path, { body: { petId: 2, quantity: 5 } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ id: created.body.id, petId: 2, quantity: 5 });
    expectConforms(mock, 'replaceOrder', replaced);
    const patched = await mock.request('PATCH', path, { body: { status: 'delivered' } });
    expect(patched.body).toEqual({ id: created.body.id, petId: 2, quantity: 5, status: 'delivered' });
    expect((await mock.request('GET', path)).body).toEqual(patched.body);
    const deleted = await mock.request('DELETE', path);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await mock.request('GET', path)).status).toBe(404);
    expect((await mock.request('DELETE', path)).status).toBe(404);
    expect((await mock.request('PATCH', path, { body: { quantity: 2 } })).status).toBe(404);
    const ids = (await mock.request('GET', '/store/orders?limit=50')).body.map((order: { id: number }) => order.id);
    expect(ids).not.toContain(created.body.id);
  });

  it('a PUT or PATCH on a seeded order changes it for its tenant only', async () => {
    await mock.request('PATCH', '/store/orders/10', { body: { quantity: 4 } });
    expect((await mock.request('GET', '/store/orders/10')).body.quantity).toBe(4);
    expect((await mock.request('GET', '/store/orders/10', { headers: other })).body.quantity).toBe(2);
  });
});

describe("a foreign listPets is served with its own document's schema", () => {
  it('creates pets with server-assigned uuid keys and lists them as ShopPet (no Pet Store fields)', async () => {
    const created = await mock.request('POST', '/pets', { body: { nickname: 'Biscuit', species: 'dog' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ petKey: expect.stringMatching(UUID), nickname: 'Biscuit', species: 'dog' });
    expectConforms(mock, 'createPet', created);
    const read = await mock.request('GET', `/pets/${created.body.petKey}`);
    expect(read.body).toEqual(created.body);
    const list = await mock.request('GET', '/pets');
    expectConforms(mock, 'listPets', list);
    expect(list.body.length).toBeGreaterThanOrEqual(4);
    for (const pet of list.body) expect(Object.keys(pet).sort()).not.toContain('categoryId');
    expect(list.body[0]).toEqual(created.body);
  });

  it('keeps a key the client may send (the create body declares it); sending it again replaces the item', async () => {
    const petKey = '3f2b8c1e-0a4d-4c5e-9f6a-7b8c9d0e1f2a';
    const created = await mock.request('POST', '/pets', { body: { petKey, nickname: 'Named' } });
    expect(created.body).toEqual({ petKey, nickname: 'Named' });
    expect((await mock.request('GET', `/pets/${petKey}`)).body).toEqual(created.body);
    const again = await mock.request('POST', '/pets', { body: { petKey, nickname: 'Again' } });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ petKey, nickname: 'Again' });
    expect((await mock.request('GET', `/pets/${petKey}`)).body).toEqual(again.body);
    const list = await mock.request('GET', '/pets');
    expect(list.body.filter((pet: { petKey: string }) => pet.petKey === petKey)).toHaveLength(1);
  });

  it('an unknown uuid is 404', async () => {
    const missing = await mock.request('GET', '/pets/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
  });
});

describe('natural keys, sub-resources and wrapped lists', () => {
  it('a user is addressed by the username the client chose; a taken one is a conflict', async () => {
    const created = await mock.request('POST', '/users', { body: { username: 'ada', email: 'ada@example.com' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/shop/users/ada');
    expect((await mock.request('GET', '/users/ada')).body).toEqual({ username: 'ada', email: 'ada@example.com' });
    expect((await mock.request('POST', '/users', { body: { username: 'ada' } })).status).toBe(409);
  });

  it("keeps each user's posts apart, with ids per collection", async () => {
    const first = await mock.request('POST', '/users/ada/posts', { body: { title: 'Hello' } });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ postId: 1, title: 'Hello' });
    expect(first.headers.get('location')).toBe('/shop/users/ada/posts/1');
    expectConforms(mock, 'createPost', first);
    expect((await mock.request('GET', '/users/ada/posts/1')).body).toEqual(first.body);
    expect((await mock.request('GET', '/users/bob/posts/1')).status).toBe(404);
    expect((await mock.request('GET', '/users/bob/posts')).body).toEqual([]);
    expect((await mock.request('GET', '/users/ada/posts')).body).toEqual([first.body]);
  });

  it('lists inside the documented wrapper, and answers a create with the documented 200', async () => {
    const created = await mock.request('POST', '/events', { body: { name: 'Launch' } });
    expect(created.status).toBe(200);
    expect(created.headers.get('location')).toBeNull();
    expect(created.body).toEqual({ eventId: expect.stringMatching(UUID), name: 'Launch' });
    const list = await mock.request('GET', '/events?page_size=2');
    expectConforms(mock, 'listEvents', list);
    // The document gives the next page only as `next`: the mock's link carries a cursor of its own.
    expect(Object.keys(list.body)).toEqual(['data', 'next']);
    expect(list.body.next).toMatch(/\/events\?page_size=2&kennel_cursor=/);
    expect(list.body.data).toHaveLength(2);
    expect(list.body.data[0]).toEqual(created.body);
  });
});

describe('a list kennel keeps no state for', () => {
  it('is answered from the document but honours its limit', async () => {
    const all = await mock.request('GET', '/brands');
    expect(all.body).toEqual([{ name: 'Acme' }, { name: 'Globex' }, { name: 'Initech' }]);
    expect((await mock.request('GET', '/brands?limit=2')).body).toEqual([{ name: 'Acme' }, { name: 'Globex' }]);
  });
});

describe('--stateless', () => {
  it('keeps no state for a document either', async () => {
    const stateless = await startTestMock({ specPath: SHOP, stateless: true });
    try {
      const created = await stateless.request('POST', '/store/orders', { body: { petId: 7, quantity: 3 } });
      expect(created.status).toBe(201);
      const list = await stateless.request('GET', '/store/orders');
      expect(list.body.map((order: { petId: number }) => order.petId)).not.toContain(7);
    } finally {
      await stateless.close();
    }
  });
});

describe('x-kennel-resources', () => {
  it('a seeder kennel does not know stops start-up at its line', async () => {
    const bad = fileURLToPath(new URL('../fixtures/resources/bad-seeder.yaml', import.meta.url));
    await expect(startMock({ specPath: bad })).rejects.toThrow(
      /bad-seeder\.yaml:5: x-kennel-resources \/cats: seeder must name a known seeder \(pets\)/,
    );
  });
});
