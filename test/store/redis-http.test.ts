// The same requests to a memory-backed and a Redis-backed mock of a document with every kind of
// collection (integer, client-chosen and UUID keys, sub-collections, wrapped lists, filters)
// must get the same answers: the Redis store is a drop-in replacement, seen from HTTP.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_KEY, TEST_KEY, startTestMock, type TestMock } from '../helpers/mock-client.js';
import { NO_REDIS, startRedis, type TestRedis } from '../helpers/redis-server.js';

const SHOP = fileURLToPath(new URL('../fixtures/resources/shop.yaml', import.meta.url));
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;

type Step = [method: string, path: string, body?: object, headers?: Record<string, string>];

const other = { authorization: `Bearer ${OTHER_KEY}` };
const STEPS: Step[] = [
  ['GET', '/store/orders?limit=50'],
  ['POST', '/store/orders', { petId: 7, quantity: 3, status: 'placed' }],
  ['POST', '/store/orders', { petId: 8, quantity: 1, status: 'delivered' }],
  ['GET', '/store/orders/13'],
  ['GET', '/store/orders?status=placed&limit=50'],
  ['GET', '/store/orders?limit=2'],
  ['PUT', '/store/orders/10', { petId: 9, quantity: 9, status: 'placed' }],
  ['PATCH', '/store/orders/11', { quantity: 5 }],
  ['PATCH', '/store/orders/99', { quantity: 5 }],
  ['DELETE', '/store/orders/12'],
  ['DELETE', '/store/orders/12'],
  ['GET', '/store/orders/12'],
  ['POST', '/store/orders', { petId: 1, quantity: 1 }],
  ['GET', '/store/orders?limit=50'],
  ['GET', '/store/orders?limit=50', undefined, other],
  ['POST', '/users', { username: 'ann' }],
  ['POST', '/users', { username: 'ann' }],
  ['GET', '/users/ann'],
  ['GET', '/users/bob'],
  ['POST', '/users/ann/posts', { title: 'first' }],
  ['POST', '/users/ann/posts', { title: 'second' }],
  ['GET', '/users/ann/posts'],
  ['GET', '/users/ann/posts/2'],
  ['GET', '/users/bob/posts'],
  ['GET', '/users/bob/posts', undefined, other],
  ['POST', '/pets', { nickname: 'Rex' }],
  ['GET', '/pets'],
  ['POST', '/events', { name: 'launch' }],
  ['GET', '/events?page_size=2'],
  ['POST', '/__kennel/reset', { apiKey: TEST_KEY }],
  ['GET', '/store/orders?limit=50'],
  ['GET', '/users/ann'],
];

async function answers(mock: TestMock) {
  const out: unknown[] = [];
  for (const [method, path, body, headers] of STEPS) {
    const response = await mock.request(method, path, { body, headers });
    const text = JSON.stringify(response.body ?? null);
    const location = response.headers.get('location') ?? '';
    // Links name the mock they came from: its port differs between the two.
    out.push(
      `${method} ${path} -> ${response.status} ${location} ${text}`
        .replace(UUID, '<uuid>')
        .replace(/127\.0\.0\.1:\d+/g, '<host>'),
    );
  }
  return out;
}

describe.skipIf(NO_REDIS)('a document with every kind of collection, memory vs Redis', () => {
  let redis: TestRedis;
  let memory: TestMock;
  let shared: TestMock;
  beforeAll(async () => {
    redis = await startRedis();
    memory = await startTestMock({ specPath: SHOP, world: false });
    shared = await startTestMock({ specPath: SHOP, world: false, store: redis.url });
  });
  afterAll(async () => {
    await memory?.close();
    await shared?.close();
    await redis?.dispose();
  });

  it('answers every step the same (status, Location, body)', async () => {
    const expected = await answers(memory);
    expect(await answers(shared)).toEqual(expected);
    // The script exercised what it claims to: a conflict, a 404, a sub-collection and a UUID key.
    expect(expected.join('\n')).toMatch(/POST \/users -> 409/);
    expect(expected.join('\n')).toMatch(/GET \/store\/orders\/12 -> 404/);
    expect(expected.join('\n')).toMatch(/POST \/users\/ann\/posts -> 201 \/shop\/users\/ann\/posts\/2/);
    expect(expected.join('\n')).toMatch(/POST \/pets -> 201 .*<uuid>/);
  });
});
