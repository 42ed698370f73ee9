import { afterEach, describe, expect, it } from 'vitest';
import { expectErrorBody, startTestMock, type TestMock } from '../helpers/mock-client.js';

const mocks: TestMock[] = [];
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});

describe('a wrong method on an admin route', () => {
  it.each([
    ['POST', '/__kennel/health', 'GET, HEAD, OPTIONS'],
    ['GET', '/__kennel/reset', 'POST, OPTIONS'],
    ['PUT', '/__kennel/journal', 'GET, HEAD, DELETE, OPTIONS'],
    ['POST', '/__kennel/chaos', 'GET, HEAD, PUT, DELETE, OPTIONS'],
    ['PATCH', '/__kennel/now', 'GET, HEAD, PUT, DELETE, OPTIONS'],
  ])('%s %s is a 405 with Allow: %s and an Error body', async (method, path, allow) => {
    const mock = await startTestMock({ adminToken: 'admin-secret' });
    mocks.push(mock);
    const exchange = await mock.request(method, path, { headers: { authorization: null } });
    expect(exchange.status).toBe(405);
    expect(exchange.headers.get('allow')).toBe(allow);
    expectErrorBody(exchange);
    expect(exchange.body).toMatchObject({
      code: 'method_not_allowed',
      message: `${method} is not allowed on ${path}; allowed: ${allow}`,
    });
  });

  it('the right methods still answer, and OPTIONS names them', async () => {
    const mock = await startTestMock({});
    mocks.push(mock);
    expect((await mock.request('GET', '/__kennel/health')).status).toBe(200);
    expect((await mock.request('POST', '/__kennel/reset')).status).toBe(200);
    expect((await mock.request('DELETE', '/__kennel/chaos')).status).toBe(204);
    const options = await mock.request('OPTIONS', '/__kennel/reset');
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'POST, OPTIONS']);
    // Paths that are no admin route keep their 404.
    expect((await mock.request('POST', '/__kennel/nothing')).status).toBe(404);
  });
});
