import { describe, expect, it } from 'vitest';
import { startTestMock, OTHER_KEY, expectErrorBody } from '../helpers/mock-client.js';

describe('admin API under /__kennel', () => {
  it('health reports the spec and seed without credentials', async () => {
    const mock = await startTestMock({ seed: 9 });
    try {
      const health = await mock.request('GET', '/__kennel/health', { headers: { authorization: null } });
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ status: 'ok', spec: { title: 'Pet Store API', version: '1.0.0' }, seed: 9 });
    } finally {
      await mock.close();
    }
  });

  it('reset forgets created pets for every tenant, and can re-seed', async () => {
    const mock = await startTestMock({ pets: 3, seed: 1 });
    try {
      const seeded = await mock.request('GET', '/pets');
      await mock.request('POST', '/pets', { body: { name: 'Temp', categoryId: 1 } });
      const reset = await mock.request('POST', '/__kennel/reset');
      expect(reset.status).toBe(200);
      expect(reset.body).toEqual({ status: 'reset', seed: 1, scope: 'all' });
      expect((await mock.request('GET', '/pets')).text).toBe(seeded.text);

      const reseeded = await mock.request('POST', '/__kennel/reset', { body: { seed: 2 } });
      expect(reseeded.body.seed).toBe(2);
      const other = await mock.request('GET', '/pets');
      expect(other.text).not.toBe(seeded.text);
      expect((await mock.request('GET', '/__kennel/health')).body.seed).toBe(2);
    } finally {
      await mock.close();
    }
  });

  it('reset of one API key leaves other tenants alone', async () => {
    const mock = await startTestMock({ pets: 3 });
    try {
      const other = { authorization: `Bearer ${OTHER_KEY}` };
      const mine = await mock.request('POST', '/pets', { body: { name: 'Mine', categoryId: 1 } });
      const theirs = await mock.request('POST', '/pets', { body: { name: 'Theirs', categoryId: 1 }, headers: other });
      const reset = await mock.request('POST', '/__kennel/reset', { body: { apiKey: mock.key } });
      expect(reset.body.scope).toBe('tenant');
      expect((await mock.request('GET', `/pets/${mine.body.id}`)).status).toBe(404);
      expect((await mock.request('GET', `/pets/${theirs.body.id}`, { headers: other })).status).toBe(200);
    } finally {
      await mock.close();
    }
  });

  it.each([
    ['a non-object body', '[1]'],
    ['a negative seed', '{"seed":-1}'],
    ['a fractional seed', '{"seed":1.5}'],
    ['a seed JavaScript would read as 0', '{"seed":1.0e-400}'],
    ['an unknown field', '{"seeds":3}'],
    ['seed with apiKey', '{"seed":3,"apiKey":"k"}'],
    ['malformed JSON', '{"seed":'],
  ])('reset rejects %s with a 400 Error', async (_label, body) => {
    const mock = await startTestMock();
    try {
      const exchange = await mock.request('POST', '/__kennel/reset', { body });
      expect(exchange.status).toBe(400);
      expectErrorBody(exchange);
    } finally {
      await mock.close();
    }
  });

  it('the journal lists recent exchanges with credentials redacted', async () => {
    const mock = await startTestMock({ journalSize: 3 });
    try {
      await mock.request('GET', '/pets?limit=1');
      await mock.request('POST', '/pets', { body: { name: 'Logged', categoryId: 4 } });
      await mock.request('GET', '/pets/1');
      await mock.request('GET', '/pets/2');
      const journal = await mock.request('GET', '/__kennel/journal');
      expect(journal.status).toBe(200);
      const entries = journal.body.entries;
      expect(entries.map((entry: { url: string }) => entry.url)).toEqual(['/v1/pets', '/v1/pets/1', '/v1/pets/2']);
      const created = entries[0];
      expect(created).toMatchObject({ method: 'POST', status: 201, operationId: 'createPet' });
      expect(JSON.parse(created.request.body)).toEqual({ name: 'Logged', categoryId: 4 });
      expect(JSON.parse(created.response.body)).toMatchObject({ name: 'Logged', categoryId: 4 });
      expect(created.request.headers.authorization).toBe('Bearer [api key 1]');
      expect(JSON.stringify(journal.body)).not.toContain(mock.key);
      const limited = await mock.request('GET', '/__kennel/journal?limit=1');
      expect(limited.body.entries).toHaveLength(1);
      expect((await mock.request('DELETE', '/__kennel/journal')).status).toBe(204);
      expect(
        (await mock.request('GET', '/__kennel/journal')).body.entries.map((entry: { url: string }) => entry.url),
      ).toEqual(['/__kennel/journal']);
    } finally {
      await mock.close();
    }
  });

  it('an admin token protects reset and journal but not health', async () => {
    const mock = await startTestMock({ adminToken: 'sesame' });
    try {
      const denied = await mock.request('POST', '/__kennel/reset');
      expect(denied.status).toBe(401);
      expectErrorBody(denied);
      expect(
        (await mock.request('GET', '/__kennel/journal', { headers: { authorization: 'Bearer wrong' } })).status,
      ).toBe(401);
      expect(
        (await mock.request('POST', '/__kennel/reset', { headers: { authorization: 'Bearer sesame' } })).status,
      ).toBe(200);
      expect((await mock.request('GET', '/__kennel/health', { headers: { authorization: null } })).status).toBe(200);
    } finally {
      await mock.close();
    }
  });

  it('unknown admin paths are 404 Errors', async () => {
    const mock = await startTestMock();
    try {
      const exchange = await mock.request('GET', '/__kennel/nope');
      expect(exchange.status).toBe(404);
      expectErrorBody(exchange);
    } finally {
      await mock.close();
    }
  });
});
