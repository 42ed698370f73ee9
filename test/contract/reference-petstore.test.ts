// The reference Pet Store behaves as the interface specification says, and its variants differ
// only where the specification is silent. That each fault is really active:
// reference-petstore-probes.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARIANTS } from './reference-petstore.js';
import { waitForValue, waitUntil } from '../helpers/wait.js';
import { start, withServer, expectError, rex, type Api } from './reference-petstore-client.js';

describe('the correct reference server', () => {
  let api: Api;
  beforeAll(async () => {
    api = await start();
  });
  afterAll(() => api.close());

  describe('authentication', () => {
    it.each([
      ['no header', null],
      ['a wrong key', 'Bearer nope'],
      ['the Basic scheme', `Basic ${btoa('user:ref-key')}`],
      ['no token', 'Bearer'],
    ])('answers 401 with an Error body for %s, on every operation', async (_label, auth) => {
      for (const exchange of [
        await api.get('/pets', { auth }),
        await api.post(rex, { auth }),
        await api.get('/pets/1', { auth }),
        await api.get('/store/orders', { auth }),
      ]) {
        expectError(exchange, 401);
      }
    });

    it('takes the scheme case-insensitively', async () => {
      expect((await api.get('/pets', { auth: 'bearer ref-key' })).status).toBe(200);
      expect((await api.get('/pets', { auth: 'BEARER ref-key' })).status).toBe(200);
    });
  });

  describe('listPets', () => {
    it('lists the seed pets in order, with the spec fields', async () => {
      const listed = await api.get('/pets');
      expect(listed.status).toBe(200);
      expect(listed.headers.get('content-type')).toBe('application/json');
      expect(listed.body.slice(0, 3)).toEqual([
        { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
        { id: 2, name: 'Tom', categoryId: 2, status: 'pending' },
        { id: 3, name: 'Bella', categoryId: 3, status: 'sold' },
      ]);
    });

    it('returns min(limit, matching) pets, 20 by default, at most 100', () =>
      withServer({ seedPets: 130 }, async (many) => {
        expect((await many.get('/pets')).body).toHaveLength(20);
        expect((await many.get('/pets?limit=1')).body).toHaveLength(1);
        expect((await many.get('/pets?limit=100')).body).toHaveLength(100);
        expect((await many.get('/pets?limit=100&status=sold')).body).toHaveLength(43);
      }));

    it('filters by status', async () => {
      const sold = await api.get('/pets?status=sold');
      expect(sold.body.map((pet: { name: string }) => pet.name)).toEqual(['Bella']);
    });

    it.each(['0', '101', '-1', 'abc', '1.5', ''])('answers 400 for limit=%s', async (limit) => {
      expectError(await api.get(`/pets?limit=${limit}`), 400);
    });

    it.each(['lost', 'SOLD', ''])('answers 400 for status=%s', async (status) => {
      expectError(await api.get(`/pets?status=${status}`), 400);
    });
  });

  describe('createPet and getPet', () => {
    it('stores the pet under a new increasing id, ignoring a client id and unknown fields', async () => {
      const first = await api.post({ name: 'Nala', categoryId: 2, status: 'pending', id: 1, colour: 'gold' });
      const second = await api.post({ name: 'Simba', categoryId: 2 });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ id: expect.any(Number), name: 'Nala', categoryId: 2, status: 'pending' });
      expect(first.body.id).not.toBe(1);
      expect(second.body.id).toBeGreaterThan(first.body.id);
      expect(second.body).not.toHaveProperty('status');
      const read = await api.get(`/pets/${first.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(first.body);
    });

    it('keeps int64 category ids exact', async () => {
      const created = await api.post('{"name":"Big","categoryId":9223372036854775807}');
      expect(created.text).toContain('"categoryId":9223372036854775807');
      expect((await api.get(`/pets/${created.body.id}`)).text).toContain('"categoryId":9223372036854775807');
      expect((await api.post('{"name":"Small","categoryId":-9223372036854775808}')).status).toBe(201);
    });

    it('accepts a charset parameter on the request', async () => {
      expect((await api.post(rex, { contentType: 'application/json; charset=utf-8' })).status).toBe(201);
    });

    it('gives concurrent creates distinct ids', async () => {
      const created = await Promise.all(Array.from({ length: 8 }, () => api.post(rex)));
      expect(new Set(created.map((exchange) => exchange.body.id)).size).toBe(8);
    });

    it.each([
      ['a missing name', { categoryId: 1 }, '/name'],
      ['a numeric name', { name: 5, categoryId: 1 }, '/name'],
      ['a missing categoryId', { name: 'Rex' }, '/categoryId'],
      ['a string categoryId', { name: 'Rex', categoryId: '7' }, '/categoryId'],
      ['a fractional categoryId', { name: 'Rex', categoryId: 1.5 }, '/categoryId'],
      ['a categoryId above int64', '{"name":"Rex","categoryId":9223372036854775808}', '/categoryId'],
      ['an unknown status', { ...rex, status: 'lost' }, '/status'],
      ['a null status', { ...rex, status: null }, '/status'],
      ['an array body', [], 'body'],
      ['malformed JSON', '{"name":', 'JSON'],
      ['an empty body', '', 'body'],
    ])('answers 400 naming the problem for %s', async (_label, body, named) => {
      const refused = await api.post(body);
      expectError(refused, 400);
      expect(refused.body.message).toContain(named);
    });

    it('answers 400 for a body that is not application/json', async () => {
      expectError(await api.post(rex, { contentType: 'text/plain' }), 400);
    });

    it('answers 404 for an unknown or non-integer pet id, with the deprecation headers', async () => {
      for (const path of ['/pets/999', '/pets/abc', '/pets/1.5', '/pets/99999999999999999999'])
        expectError(await api.get(path), 404);
      const read = await api.get('/pets/1');
      expect(read.headers.get('deprecation')).toBe('@1735689600');
      expect(read.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    });
  });

  describe('other paths', () => {
    it('answers [] for the store orders', async () => {
      const orders = await api.get('/store/orders');
      expect([orders.status, orders.body]).toEqual([200, []]);
    });

    it('answers 404 for an unknown path and 405 with Allow for a wrong method', async () => {
      expectError(await api.get('/owners'), 404);
      const deleted = await api.request('DELETE', '/pets');
      expectError(deleted, 405);
      expect(deleted.headers.get('allow')).toBe('GET, POST');
    });
  });
});

describe('variants', () => {
  it.each(VARIANTS)('$name: lists, creates and reads pets correctly', ({ variant }) =>
    withServer({ variant }, async (api) => {
      const created = await api.post({ name: 'Variant', categoryId: 4, status: 'sold' });
      expect(created.status).toBe(201);
      const id = /"id":(\d+)/.exec(created.text)?.[1];
      const read = await api.get(`/pets/${id}`);
      expect([read.status, read.text]).toEqual([200, created.text]);
      // A lagging list shows the pet once the lag has passed; any other lists it at once.
      const listed = variant.listLagMs
        ? await waitForValue(
            async () => {
              const answer = await api.get('/pets?status=sold');
              return answer.text.includes(created.text) ? answer : undefined;
            },
            () => `GET /pets?status=sold to list ${created.text}`,
          )
        : await api.get('/pets?status=sold');
      expect(listed.status).toBe(200);
      expect(listed.text).toContain(created.text);
      expect((await api.get('/pets?status=lost')).status).toBe(400);
      expect((await api.get('/pets', { auth: null })).status).toBe(401);
    }),
  );

  it('list-lag lists a new pet only once the lag has passed', () =>
    withServer({ variant: { listLagMs: 200 } }, async (api) => {
      const beforeCreate = Date.now();
      const created = await api.post({ name: 'Lagging', categoryId: 4, status: 'sold' });
      expect((await api.get('/pets?status=sold')).text).not.toContain(created.text);
      await waitUntil(
        async () => (await api.get('/pets?status=sold')).text.includes(created.text),
        () => `the list to show ${created.text} after the 200 ms lag`,
      );
      expect(Date.now() - beforeCreate).toBeGreaterThanOrEqual(200);
    }));

  it('clamp-limit clamps limit into 1..100 and uses 20 for a non-numeric one', () =>
    withServer({ variant: { badLimit: 'clamp' }, seedPets: 120 }, async (api) => {
      expect((await api.get('/pets?limit=0')).body).toHaveLength(1);
      expect((await api.get('/pets?limit=1000')).body).toHaveLength(100);
      expect((await api.get('/pets?limit=abc')).body).toHaveLength(20);
    }));

  it('charset-and-large-ids emits ids above 2^53 exactly and reads them back', () =>
    withServer({ variant: { charset: true, ids: 'large' } }, async (api) => {
      const listed = await api.get('/pets');
      expect(listed.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(listed.text).toMatch(/^\[\{"id":9007199254740993,"name":"Rex"/);
      const created = await api.post(rex);
      expect(created.text).toMatch(/^\{"id":9007199254740996,/);
      expect((await api.get('/pets/9007199254740996')).text).toBe(created.text);
      expect((await api.get('/pets/9007199254740995')).text).toContain('"name":"Bella"');
    }));

  it('default-status stores a pet created without status as available', () =>
    withServer({ variant: { defaultStatus: 'available' } }, async (api) => {
      const created = await api.post(rex);
      expect((await api.get(`/pets/${created.body.id}`)).body.status).toBe('available');
    }));

  it('refuse-client-id refuses a client id; newest-first lists the newest first', async () => {
    await withServer({ variant: { clientId: 'refuse' } }, async (api) =>
      expectError(await api.post({ ...rex, id: 9 }), 400),
    );
    await withServer({ variant: { order: 'newest-first' } }, async (api) =>
      expect((await api.get('/pets')).body[0].id).toBe(3),
    );
  });

  it('bad-petid-400, content-type-415, orders-501, orders-404 and no-deprecation-headers answer as chosen', async () => {
    await withServer({ variant: { badPetId: 400 } }, async (api) => expectError(await api.get('/pets/abc'), 400));
    await withServer({ variant: { wrongContentType: 415 } }, async (api) =>
      expectError(await api.post(rex, { contentType: 'text/plain' }), 415),
    );
    await withServer({ variant: { storeOrders: 501 } }, async (api) =>
      expectError(await api.get('/store/orders'), 501),
    );
    await withServer({ variant: { storeOrders: 404 } }, async (api) =>
      expectError(await api.get('/store/orders'), 404),
    );
    await withServer({ variant: { deprecationHeaders: false } }, async (api) => {
      const read = await api.get('/pets/1');
      expect([read.status, read.headers.get('deprecation'), read.headers.get('sunset')]).toEqual([200, null, null]);
    });
  });
});
