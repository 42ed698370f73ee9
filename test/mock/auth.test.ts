import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, expectConforms, expectErrorBody, type TestMock } from '../helpers/mock-client.js';
import { startMock } from '../../src/serve/server.js';
import { DEV_API_KEY } from '../../src/mock/config.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock();
});
afterAll(() => mock.close());

const operations = [
  ['listPets', 'GET', '/pets', undefined],
  ['createPet', 'POST', '/pets', { name: 'Rex', categoryId: 1 }],
  ['getPet', 'GET', '/pets/1', undefined],
  ['listStoreOrders', 'GET', '/store/orders', undefined],
] as const;

const badCredentials = [
  ['no Authorization header', null, 'missing_api_key'],
  ['an empty Authorization header', '', 'missing_api_key'],
  ['the Basic scheme', 'Basic dGVzdDp0ZXN0', 'invalid_api_key'],
  ['a token without scheme', 'test-key-1', 'invalid_api_key'],
  ['Bearer with no token', 'Bearer', 'invalid_api_key'],
  ['Bearer with blank token', 'Bearer    ', 'invalid_api_key'],
  ['an unknown key', 'Bearer not-a-key', 'invalid_api_key'],
  ['a key differing in case', 'Bearer TEST-KEY-1', 'invalid_api_key'],
  ['the development key when keys are configured', `Bearer ${DEV_API_KEY}`, 'invalid_api_key'],
] as const;

describe('authentication comes first', () => {
  describe.each(operations)('%s', (operationId, method, path, body) => {
    it.each(badCredentials)('401 for %s', async (_label, authorization, code) => {
      const exchange = await mock.request(method, path, { headers: { authorization }, body });
      expect(exchange.status).toBe(401);
      expectErrorBody(exchange);
      expect(exchange.body.code).toBe(code);
      expect(exchange.headers.get('www-authenticate')).toMatch(/^Bearer realm="kennel"/);
      expectConforms(mock, operationId, exchange);
    });
  });

  it('checks auth before validating the request', async () => {
    const invalidBody = await mock.request('POST', '/pets', { headers: { authorization: null }, body: '{not json' });
    expect(invalidBody.status).toBe(401);
    const invalidQuery = await mock.request('GET', '/pets?limit=9999', { headers: { authorization: null } });
    expect(invalidQuery.status).toBe(401);
    const invalidId = await mock.request('GET', '/pets/abc', { headers: { authorization: 'Bearer nope' } });
    expect(invalidId.status).toBe(401);
  });

  it('accepts the scheme case-insensitively and either configured key', async () => {
    expect((await mock.request('GET', '/pets', { headers: { authorization: 'bearer test-key-1' } })).status).toBe(200);
    expect((await mock.request('GET', '/pets', { headers: { authorization: 'BEARER test-key-2' } })).status).toBe(200);
  });

  it('does not create anything for an unauthorised POST', async () => {
    const before = await mock.request('GET', '/pets?limit=100');
    await mock.request('POST', '/pets', {
      headers: { authorization: 'Bearer wrong' },
      body: { name: 'Sneaky', categoryId: 1 },
    });
    const after = await mock.request('GET', '/pets?limit=100');
    expect(after.text).toBe(before.text);
  });
});

describe('with no key configured', () => {
  it('accepts only the documented development key', async () => {
    const running = await startMock();
    try {
      expect(running.apiKeys).toEqual([DEV_API_KEY]);
      const ok = await fetch(`${running.url}/pets`, { headers: { authorization: `Bearer ${DEV_API_KEY}` } });
      expect(ok.status).toBe(200);
      const other = await fetch(`${running.url}/pets`, { headers: { authorization: 'Bearer anything-else' } });
      expect(other.status).toBe(401);
    } finally {
      await running.close();
    }
  });
});
