import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, expectConforms, expectErrorBody, type TestMock } from '../helpers/mock-client.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock({ pets: 5 });
});
afterAll(() => mock.close());

describe('Prefer: code= returns a documented response', () => {
  it.each([
    ['listPets', 'GET', '/pets', 401],
    ['createPet', 'POST', '/pets', 400],
    ['createPet', 'POST', '/pets', 401],
    ['getPet', 'GET', '/pets/1', 401],
    ['getPet', 'GET', '/pets/1', 404],
  ] as const)('%s %s %s with code=%i', async (operationId, method, path, code) => {
    const before = await mock.request('GET', '/pets?limit=100');
    const exchange = await mock.request(method, path, {
      headers: { prefer: `code=${code}` },
      body: method === 'POST' ? { name: 'Forced', categoryId: 1 } : undefined,
    });
    expect(exchange.status).toBe(code);
    expectErrorBody(exchange);
    expectConforms(mock, operationId, exchange);
    expect(exchange.headers.get('preference-applied')).toBe(`code=${code}`);
    if (code === 401) expect(exchange.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await mock.request('GET', '/pets?limit=100')).text).toBe(before.text);
  });

  it('still requires a valid key: auth comes first', async () => {
    const exchange = await mock.request('GET', '/pets/1', { headers: { prefer: 'code=200', authorization: null } });
    expect(exchange.status).toBe(401);
  });

  it('a 2xx preference runs the real handler (state kept)', async () => {
    const created = await mock.request('POST', '/pets', {
      headers: { prefer: 'code=201' },
      body: { name: 'Real', categoryId: 1 },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('preference-applied')).toBe('code=201');
    expect((await mock.request('GET', `/pets/${created.body.id}`)).body).toEqual(created.body);
  });

  it('a 2xx preference does not hide a real 404', async () => {
    const exchange = await mock.request('GET', '/pets/999', { headers: { prefer: 'code=200' } });
    expect(exchange.status).toBe(404);
    expect(exchange.headers.get('preference-applied')).toBeNull();
  });
});

describe('Prefer: example= returns a named example', () => {
  it.each([
    ['listPets', '/pets', 'empty', []],
    [
      'listPets',
      '/pets',
      'two-pets',
      [
        { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
        { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
      ],
    ],
    ['getPet', '/pets/1', 'rex', { id: 1, name: 'Rex', categoryId: 1, status: 'available' }],
  ] as const)('%s %s example=%s', async (operationId, path, example, expected) => {
    const exchange = await mock.request('GET', path, { headers: { prefer: `example=${example}` } });
    expect(exchange.status).toBe(200);
    expect(exchange.body).toEqual(expected);
    expectConforms(mock, operationId, exchange);
  });

  it('combines code and example', async () => {
    const exchange = await mock.request('GET', '/pets', { headers: { prefer: 'code=401, example=invalid-api-key' } });
    expect(exchange.status).toBe(401);
    expect(exchange.body.code).toBe('invalid_api_key');
  });

  it('rejects an example that belongs to another status', async () => {
    const exchange = await mock.request('GET', '/pets', { headers: { prefer: 'code=401; example=empty' } });
    expect(exchange.status).toBe(400);
    expect(exchange.body.code).toBe('invalid_prefer');
    expect(exchange.body.message).toContain('missing-api-key');
  });
});
