// Chaos per request with Prefer: a documented fault or a delay for that request only, replacing the
// table for it, within the cap on waiting requests; a bad preference is refused.
import { describe, expect, it } from 'vitest';
import { expectConforms, expectErrorBody, OTHER_KEY } from '../helpers/mock-client.js';
import { requestsArrive } from '../helpers/wait.js';
import { chaosMocks, rawGet } from './chaos-client.js';

const mockWith = chaosMocks();

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
