import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChaosSettings } from '../../src/mock/chaos/chaos-types.js';
import {
  expectConforms,
  expectErrorBody,
  OTHER_KEY,
  startTestMock,
  TEST_KEY,
  type TestMock,
} from '../helpers/mock-client.js';
import { requestsArrive } from '../helpers/wait.js';

const mocks: TestMock[] = [];
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});

async function mockWith(chaos: ChaosSettings, options: Parameters<typeof startTestMock>[0] = {}): Promise<TestMock> {
  const mock = await startTestMock({ chaos, ...options });
  mocks.push(mock);
  return mock;
}

/** A GET through node:http, so socket errors arrive with their code (fetch wraps them). */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const request = httpRequest(url, { headers: { authorization: `Bearer ${TEST_KEY}`, ...headers } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.end();
  });
}

async function journalOf(mock: TestMock): Promise<any[]> {
  return (await mock.request('GET', '/__kennel/journal')).body.entries;
}

describe('chaos faults, as a real client meets them', () => {
  it('reset: the connection is torn down (ECONNRESET) and the journal says so', async () => {
    const mock = await mockWith({ rules: [{ match: 'getPet', fault: { kind: 'reset' }, probability: 1 }] });
    expect(await rawGet(`${mock.url}/pets/1`)).toEqual({ error: 'ECONNRESET' });
    // A reset (RST), not a close (FIN): fetch tells them apart ("other side closed" for a FIN).
    const failure = await fetch(`${mock.url}/pets/1`, { headers: { authorization: `Bearer ${TEST_KEY}` } }).catch(
      (error: Error & { cause?: { code?: string } }) => error,
    );
    expect((failure as { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET');
    // Other operations are untouched.
    expect((await mock.request('GET', '/pets?limit=1')).status).toBe(200);
    const entry = (await journalOf(mock)).find((candidate) => candidate.operationId === 'getPet');
    expect(entry).toMatchObject({ status: 0, chaos: { cause: 'rule 1', fault: 'reset', delayMs: 0 } });
  });

  it('timeout: no answer until the client gives up, then the journal records the held request', async () => {
    const mock = await mockWith({
      rules: [{ match: 'listPets', fault: { kind: 'timeout', holdMs: 60_000 }, probability: 1 }],
    });
    const started = performance.now();
    const outcome = await fetch(`${mock.url}/pets`, {
      headers: { authorization: `Bearer ${TEST_KEY}` },
      signal: AbortSignal.timeout(300),
    }).then(
      (response) => `answered ${response.status}`,
      (error: Error) => error.name,
    );
    expect(outcome).toBe('TimeoutError');
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    const held = async () => (await journalOf(mock)).find((entry) => entry.operationId === 'listPets');
    await expect.poll(held).toMatchObject({ status: 0, chaos: { fault: 'timeout' } });
  });

  it('timeout is bounded: past its hold kennel drops the connection itself', async () => {
    const mock = await mockWith({ rules: [{ match: '*', fault: { kind: 'timeout', holdMs: 200 }, probability: 1 }] });
    const started = performance.now();
    const outcome = await rawGet(`${mock.url}/pets`);
    expect(outcome).toHaveProperty('error');
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('malformed: 200 with the documented JSON content type and a body JSON.parse refuses', async () => {
    const mock = await mockWith({ rules: [{ match: 'getPet', fault: { kind: 'malformed' }, probability: 1 }] });
    const response = await fetch(`${mock.url}/pets/1`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await response.text();
    expect(text.startsWith('{"id":1,')).toBe(true);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    // A client's own mistake is still its error, not garbage.
    expect((await mock.request('GET', '/pets/1', { headers: { authorization: null } })).status).toBe(401);
  });

  it("status: the injected error is an Error body in the operation's words", async () => {
    const mock = await mockWith({
      rules: [{ match: 'listPets', fault: { kind: 'status', status: 503 }, probability: 1 }],
    });
    const exchange = await mock.request('GET', '/pets');
    expect(exchange.status).toBe(503);
    expectErrorBody(exchange);
    expect(exchange.body.code).toBe('injected_fault');
    expect(exchange.body.message).toContain('rule 1');
  });

  it('rate limit: 429 with Retry-After in seconds past the limit, counted per caller', async () => {
    const mock = await mockWith({
      rules: [{ match: 'listPets', fault: { kind: 'rate-limit', limit: 2, windowMs: 30_000 }, probability: 1 }],
    });
    const statuses = [];
    for (let index = 0; index < 3; index += 1) statuses.push((await mock.request('GET', '/pets?limit=1')).status);
    expect(statuses).toEqual([200, 200, 429]);
    const limited = await mock.request('GET', '/pets?limit=1');
    expect(limited.status).toBe(429);
    expectErrorBody(limited);
    expect(limited.body.code).toBe('rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 30).toBe(true);
    const other = await mock.request('GET', '/pets?limit=1', { headers: { authorization: `Bearer ${OTHER_KEY}` } });
    expect(other.status).toBe(200);
  });

  it('latency: a fixed delay holds the answer at least that long', async () => {
    const mock = await mockWith({
      rules: [{ match: 'listPets', latency: { kind: 'fixed', ms: 250 }, probability: 1 }],
    });
    const started = performance.now();
    expect((await mock.request('GET', '/pets?limit=1')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    expect((await journalOf(mock)).at(-1)).toMatchObject({ chaos: { delayMs: 250, cause: 'rule 1' } });
  });

  it('never touches the admin API, so chaos can always be turned off', async () => {
    const mock = await mockWith({ rules: [{ match: '*', fault: { kind: 'reset' }, probability: 1 }] });
    expect(await rawGet(`${mock.url}/pets`)).toEqual({ error: 'ECONNRESET' });
    expect((await mock.request('GET', '/__kennel/health')).status).toBe(200);
    expect((await mock.request('DELETE', '/__kennel/chaos')).status).toBe(204);
    expect((await mock.request('GET', '/pets?limit=1')).status).toBe(200);
  });
});

describe('seeded chaos', () => {
  const table = (seed?: number): ChaosSettings => ({
    ...(seed === undefined ? {} : { seed }),
    rules: [{ match: 'getPet', fault: { kind: 'status', status: 503 }, probability: 0.5 }],
  });
  const sequence = async (mock: TestMock) => {
    const statuses: number[] = [];
    for (let index = 0; index < 16; index += 1) statuses.push((await mock.request('GET', '/pets/1')).status);
    return statuses;
  };

  it('two servers with the same seed meet the same faults; another seed, others', async () => {
    const [first, second, other] = await Promise.all([
      mockWith(table(), { seed: 7 }),
      mockWith(table(7)),
      mockWith(table(8)),
    ]);
    const run = await sequence(first);
    expect(run).toContain(200);
    expect(run).toContain(503);
    expect(await sequence(second)).toEqual(run);
    expect(await sequence(other)).not.toEqual(run);
  });

  it('a PUT of the table starts its draws again', async () => {
    const mock = await mockWith(table(3));
    const run = await sequence(mock);
    expect((await mock.request('PUT', '/__kennel/chaos', { body: table(3) })).status).toBe(200);
    expect(await sequence(mock)).toEqual(run);
  });
});

describe('chaos per request with Prefer', () => {
  it.each([
    ['fault=503', 503],
    ['fault=status=502', 502],
  ])('Prefer: %s answers that status with an Error body and Preference-Applied', async (prefer, status) => {
    const mock = await mockWith({ rules: [] });
    const exchange = await mock.request('GET', '/pets', { headers: { prefer } });
    expect(exchange.status).toBe(status);
    expectErrorBody(exchange);
    expect(exchange.headers.get('preference-applied')).toBe(prefer);
  });

  it('Prefer: fault=404 on getPet is the documented 404', async () => {
    const mock = await mockWith({ rules: [] });
    const exchange = await mock.request('GET', '/pets/1', { headers: { prefer: 'fault=404' } });
    expect(exchange.status).toBe(404);
    expectConforms(mock, 'getPet', exchange);
  });

  it('Prefer: fault=reset, fault=malformed and fault=rate-limit with retry-after', async () => {
    const mock = await mockWith({ rules: [] });
    expect(await rawGet(`${mock.url}/pets`, { prefer: 'fault=reset' })).toEqual({ error: 'ECONNRESET' });
    const malformed = await mock.request('GET', '/pets', { headers: { prefer: 'fault=malformed' } });
    expect(malformed.status).toBe(200);
    expect(() => JSON.parse(malformed.text)).toThrow(SyntaxError);
    const limited = await mock.request('GET', '/pets', { headers: { prefer: 'fault=rate-limit, retry-after=7' } });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '7']);
  });

  it('Prefer: delay=300 delays that request only, and replaces the table for it', async () => {
    const mock = await mockWith({
      rules: [{ match: 'listPets', fault: { kind: 'status', status: 500 }, probability: 1 }],
    });
    const started = performance.now();
    const exchange = await mock.request('GET', '/pets?limit=1', { headers: { prefer: 'delay=300' } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(exchange.status).toBe(200);
    expect(exchange.headers.get('preference-applied')).toBe('delay=300');
    expect((await mock.request('GET', '/pets?limit=1')).status).toBe(500);
  });

  it('delays share the cap on waiting requests: past it, a 503 at once naming the cap, and room again later', async () => {
    const mock = await mockWith({ rules: [], maxHeld: 3 });
    const prefer = { headers: { prefer: 'delay=700' } };
    // Two clients: one alone may hold at most half of the slots (chaos-hardening.test.ts).
    const other = { headers: { prefer: 'delay=700', authorization: `Bearer ${OTHER_KEY}` } };
    const arrived = requestsArrive(Number(new URL(mock.url).port), 3);
    const waiting = [prefer, prefer, other].map((headers) => mock.request('GET', '/pets?limit=1', headers));
    await arrived;
    const started = performance.now();
    const refused = await mock.request('GET', '/pets?limit=1', other);
    expect(performance.now() - started).toBeLessThan(400);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expectErrorBody(refused);
    expect(refused.body).toMatchObject({ code: 'chaos_overloaded', message: expect.stringContaining('at most 3') });
    expect((await Promise.all(waiting)).map((exchange) => exchange.status)).toEqual([200, 200, 200]);
    const again = await mock.request('GET', '/pets?limit=1', { headers: { prefer: 'delay=50' } });
    expect(again.status).toBe(200);
  });

  it.each(['delay=soon', 'delay=61s', 'fault=explode', 'fault=200', 'fault=rate-limit, retry-after=0'])(
    'Prefer: %s is a 400 invalid_prefer naming it',
    async (prefer) => {
      const mock = await mockWith({ rules: [] });
      const exchange = await mock.request('GET', '/pets', { headers: { prefer } });
      expect(exchange.status).toBe(400);
      expect(exchange.body).toMatchObject({ code: 'invalid_prefer', message: expect.stringContaining('Prefer: ') });
    },
  );
});

describe('the chaos admin API', () => {
  it('GET shows the table, PUT replaces it (compact syntax accepted), DELETE clears it', async () => {
    const mock = await mockWith({ rules: [] }, { seed: 5 });
    expect((await mock.request('GET', '/__kennel/chaos')).body).toEqual({ seed: 5, rules: [] });
    const put = await mock.request('PUT', '/__kennel/chaos', {
      body: { rules: [{ match: 'listPets', latency: '100-300ms', fault: '503', probability: '10%' }] },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      seed: 5,
      rules: [
        {
          match: 'listPets',
          latency: { kind: 'uniform', minMs: 100, maxMs: 300 },
          fault: { kind: 'status', status: 503 },
          probability: 0.1,
        },
      ],
    });
    expect((await mock.request('GET', '/__kennel/chaos')).body).toEqual(put.body);
    await mock.request('PUT', '/__kennel/chaos', { body: { rules: [{ fault: 'malformed' }] } });
    const garbled = await mock.request('GET', '/pets?limit=1');
    expect(() => JSON.parse(garbled.text)).toThrow(SyntaxError);
    expect((await mock.request('DELETE', '/__kennel/chaos')).status).toBe(204);
    expect((await mock.request('GET', '/__kennel/chaos')).body.rules).toEqual([]);
    expect((await mock.request('GET', '/pets?limit=1')).body).toHaveLength(1);
  });

  it.each([
    [{ rules: [{ match: 'getPett', fault: 'reset' }] }, '/rules/0/match: no operation "getPett"'],
    [{ rules: [{ match: 'getPet', fault: 'explode' }] }, '/rules/0/fault: "explode" is not a fault'],
    [{ rules: [{ match: 'getPet' }] }, '/rules/0: a rule needs a latency, a fault or both'],
    [{ rules: [{ latency: '5-1ms' }] }, '/rules/0/latency'],
    [{ rules: [{ latency: { kind: 'fixed', ms: 999_999 } }] }, '/rules/0/latency/ms'],
    [{ rules: [{ fault: 'reset', probability: 2 }] }, '/rules/0/probability'],
    [{ rules: [{ fault: 'rate-limit:5/1s', probability: 0.5 }] }, '/rules/0/probability'],
    [{ rules: [], extra: 1 }, '/extra: is not allowed'],
    [{ rules: 'reset' }, '/rules: must be a list'],
    [[], '/: a chaos table must be an object'],
  ])('PUT %j is a 400 naming %s, and the table stays', async (body, expected) => {
    const mock = await mockWith({ rules: [{ match: 'listPets', latency: { kind: 'fixed', ms: 1 }, probability: 1 }] });
    const exchange = await mock.request('PUT', '/__kennel/chaos', { body: body as object });
    expect(exchange.status).toBe(400);
    expectErrorBody(exchange);
    expect(exchange.body.message).toContain(expected);
    expect((await mock.request('GET', '/__kennel/chaos')).body.rules).toHaveLength(1);
  });

  it('refuses hostile JSON without a 5xx', async () => {
    const mock = await mockWith({ rules: [] });
    for (const text of ['{"rules":[{"__proto__":{"fault":"reset"}}]}', `${'['.repeat(5000)}${']'.repeat(5000)}`, '{']) {
      const exchange = await mock.request('PUT', '/__kennel/chaos', { body: text });
      expect(exchange.status).toBe(400);
    }
    expect((await mock.request('GET', '/pets?limit=1')).status).toBe(200);
  });

  it('honours the admin token', async () => {
    const mock = await mockWith({ rules: [] }, { adminToken: 'admin-secret' });
    expect((await mock.request('GET', '/__kennel/chaos')).status).toBe(401);
    expect((await mock.request('PUT', '/__kennel/chaos', { body: { rules: [{ fault: 'reset' }] } })).status).toBe(401);
    const admin = { authorization: 'Bearer admin-secret' };
    const put = await mock.request('PUT', '/__kennel/chaos', { headers: admin, body: { rules: [{ fault: '503' }] } });
    expect(put.status).toBe(200);
    expect((await mock.request('GET', '/pets')).status).toBe(503);
    expect((await mock.request('DELETE', '/__kennel/chaos', { headers: admin })).status).toBe(204);
  });
});

describe('a held request with a body', () => {
  it('is read and dropped, so Node does not answer it with 408 before the hold ends', async () => {
    const mock = await startTestMock({
      chaos: { rules: [{ match: 'createPet', fault: { kind: 'timeout', holdMs: 1500 }, probability: 1 }] },
      httpTimeouts: { headersMs: 500, requestMs: 500 },
    });
    mocks.push(mock);
    const started = performance.now();
    const outcome = await fetch(`${mock.url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      // Larger than every buffer on the way: unread, it would stall before Node saw the request whole.
      body: JSON.stringify({ name: 'x'.repeat(4 * 1024 * 1024), categoryId: 1, status: 'available' }),
    }).then(
      (response) => `answered ${response.status}`,
      () => 'dropped',
    );
    expect(outcome).toBe('dropped');
    expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
  });
});
