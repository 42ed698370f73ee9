import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, expectConforms, expectErrorBody, type TestMock } from '../helpers/mock-client.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock();
});
afterAll(() => mock.close());

describe('routing', () => {
  it('serves the API under the base path /v1 only', async () => {
    const outside = await fetch(`${mock.running.origin}/pets`, { headers: { authorization: `Bearer ${mock.key}` } });
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { message: string }).message).toContain('/v1');
  });

  it('405 with Allow for a known path and another method', async () => {
    const exchange = await mock.request('DELETE', '/pets/1');
    expect(exchange.status).toBe(405);
    expectErrorBody(exchange);
    expect(exchange.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('OPTIONS without CORS preflight lists the allowed methods', async () => {
    const response = await fetch(`${mock.url}/pets`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('answers CORS preflight without credentials', async () => {
    const response = await fetch(`${mock.url}/pets`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBeTruthy();
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  });

  it.each([
    ['a success', '/pets/1', {}],
    ['an error', '/pets/1', { authorization: 'Bearer not-a-key' }],
  ])('answers a request without Origin (not CORS) with Vary: Origin only: %s', async (_label, path, headers) => {
    const exchange = await mock.request('GET', path, { headers });
    expect(exchange.headers.get('vary')).toBe('Origin');
    expect([...exchange.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    const cross = await mock.request('GET', path, { headers: { ...headers, origin: 'http://localhost:5173' } });
    expect(cross.headers.get('vary')).toBe('Origin');
    expect(cross.headers.get('access-control-allow-origin')).toBe('*');
    expect(cross.headers.get('access-control-expose-headers')).toMatch(/Sunset/);
  });

  it('can turn CORS off', async () => {
    const quiet = await startTestMock({ cors: false });
    try {
      const exchange = await quiet.request('GET', '/pets', { headers: { origin: 'http://localhost:5173' } });
      expect(exchange.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await quiet.close();
    }
  });
});

describe('GET /store/orders: declared, behaviour not shown', () => {
  it('requires auth like every operation', async () => {
    const exchange = await mock.request('GET', '/store/orders', { headers: { authorization: null } });
    expect(exchange.status).toBe(401);
    expectConforms(mock, 'listStoreOrders', exchange);
  });

  it('answers 501 not_specified instead of inventing data', async () => {
    const exchange = await mock.request('GET', '/store/orders');
    expect(exchange.status).toBe(501);
    expectErrorBody(exchange);
    expect(exchange.body.code).toBe('not_specified');
    expect(exchange.body.message).toContain('GET /store/orders');
    expectConforms(mock, 'listStoreOrders', exchange);
  });

  it('can still be forced to its documented 401', async () => {
    const exchange = await mock.request('GET', '/store/orders', { headers: { prefer: 'code=401' } });
    expect(exchange.status).toBe(401);
    expectConforms(mock, 'listStoreOrders', exchange);
  });
});
