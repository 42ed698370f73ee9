// Chaos faults as a real client meets them (reset, timeout, malformed, status, rate limit, latency),
// seeded draws, and a held request with a body. Per-request chaos: chaos-prefer; the admin API:
// chaos-admin.
import { describe, expect, it } from 'vitest';
import type { ChaosSettings } from '../../src/mock/chaos/chaos-types.js';
import { expectErrorBody, OTHER_KEY, TEST_KEY, type TestMock } from '../helpers/mock-client.js';
import { chaosMocks, journalOf, rawGet } from './chaos-client.js';

const mockWith = chaosMocks();

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

describe('a held request with a body', () => {
  it('is read and dropped, so Node does not answer it with 408 before the hold ends', async () => {
    const mock = await mockWith(
      { rules: [{ match: 'createPet', fault: { kind: 'timeout', holdMs: 1500 }, probability: 1 }] },
      { httpTimeouts: { headersMs: 500, requestMs: 500 } },
    );
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
