import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, expectConforms, expectErrorBody, type TestMock } from '../helpers/mock-client.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock({ pets: 5 });
});
afterAll(() => mock.close());

describe('POST /pets (createPet)', () => {
  it('answers 201 with the stored pet, a Location, and keeps it', async () => {
    const created = await mock.request('POST', '/pets', {
      body: { name: 'Biscuit', categoryId: 2, status: 'pending' },
    });
    expect(created.status).toBe(201);
    expectConforms(mock, 'createPet', created);
    expect(created.body).toEqual({ id: 6, name: 'Biscuit', categoryId: 2, status: 'pending' });
    expect(created.headers.get('location')).toBe('/v1/pets/6');
    const read = await mock.request('GET', '/pets/6');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const listed = await mock.request('GET', '/pets?status=pending&limit=100');
    expect(listed.body).toContainEqual(created.body);
  });

  it('stores no status when none is sent (the spec gives no default)', async () => {
    const created = await mock.request('POST', '/pets', { body: { name: 'Nameless status', categoryId: 1 } });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('status');
    expectConforms(mock, 'createPet', created);
  });

  it('ignores a client-sent id and unknown fields: the service assigns ids', async () => {
    const created = await mock.request('POST', '/pets', {
      body: { id: 1, name: 'Copycat', categoryId: 2, colour: 'black' },
    });
    expect(created.status).toBe(201);
    expect(created.body.id).not.toBe(1);
    expect(created.body).not.toHaveProperty('colour');
    const original = await mock.request('GET', '/pets/1');
    expect(original.body.name).not.toBe('Copycat');
  });

  it('keeps int64 category ids exact, up to the int64 maximum', async () => {
    const text = '{"name":"Big","categoryId":9223372036854775807}';
    const created = await mock.request('POST', '/pets', { body: text });
    expect(created.status).toBe(201);
    expect(created.text).toContain('"categoryId":9223372036854775807');
    const read = await mock.request('GET', `/pets/${created.body.id}`);
    expect(read.text).toContain('"categoryId":9223372036854775807');
    const negative = await mock.request('POST', '/pets', { body: '{"name":"Low","categoryId":-9223372036854775808}' });
    expect(negative.status).toBe(201);
    expect(negative.text).toContain('"categoryId":-9223372036854775808');
  });

  it('assigns distinct increasing ids to concurrent creates', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        mock.request('POST', '/pets', { body: { name: `Pup ${index}`, categoryId: 1 } }),
      ),
    );
    for (const result of results) expect(result.status).toBe(201);
    const ids = results.map((result) => result.body.id as number);
    expect(new Set(ids).size).toBe(40);
    const sorted = [...ids].sort((a, b) => a - b);
    expect(sorted.at(-1)! - sorted[0]!).toBe(39);
    for (const result of results)
      expect((await mock.request('GET', `/pets/${result.body.id}`)).body).toEqual(result.body);
  });

  it('accepts a charset parameter and vendor +json types', async () => {
    const utf8 = await mock.request('POST', '/pets', {
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: { name: 'Zoë 🐾', categoryId: 3 },
    });
    expect(utf8.status).toBe(201);
    expect(utf8.body.name).toBe('Zoë 🐾');
    const vendor = await mock.request('POST', '/pets', {
      headers: { 'content-type': 'application/vnd.kennel+json' },
      body: { name: 'Vendor', categoryId: 3 },
    });
    expect(vendor.status).toBe(201);
  });
});

describe('GET /pets/{petId} (getPet, deprecated)', () => {
  it('returns a seeded pet with deprecation signals', async () => {
    const exchange = await mock.request('GET', '/pets/1');
    expect(exchange.status).toBe(200);
    expectConforms(mock, 'getPet', exchange);
    expect(exchange.body.id).toBe(1);
    expect(exchange.headers.get('deprecation')).toBeNull(); // no date of deprecation in the document
    expect(exchange.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(exchange.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
  });

  it.each(['999999', '0', '-1', 'abc', '1.5', '1e3', '9223372036854775807', '9223372036854775808', '%20', 'null'])(
    '404 Error for petId %s',
    async (petId) => {
      const exchange = await mock.request('GET', `/pets/${petId}`);
      expect(exchange.status).toBe(404);
      expectErrorBody(exchange);
      expect(exchange.body.code).toBe('not_found');
      expectConforms(mock, 'getPet', exchange);
      expect(exchange.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    },
  );

  it('names the missing id in the message', async () => {
    const exchange = await mock.request('GET', '/pets/424242');
    expect(exchange.body.message).toContain('424242');
  });

  it('exposes the deprecation headers to browsers (CORS)', async () => {
    const exchange = await mock.request('GET', '/pets/1', { headers: { origin: 'http://localhost:3000' } });
    expect(exchange.headers.get('access-control-allow-origin')).toBeTruthy();
    expect(exchange.headers.get('access-control-expose-headers')).toMatch(/Deprecation/);
    expect(exchange.headers.get('access-control-expose-headers')).toMatch(/Sunset/);
  });
});
