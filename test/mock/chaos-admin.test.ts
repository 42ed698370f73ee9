// The chaos admin API (/__kennel/chaos): the table shown, replaced and cleared, bad tables refused
// without a 5xx, the admin token honoured.
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from '../helpers/mock-client.js';
import { chaosMocks } from './chaos-client.js';

const mockWith = chaosMocks();

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
