import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../src/serve/server.js';
import { startTestMock, expectConforms, type TestMock } from '../helpers/mock-client.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock({ pets: 150 });
});
afterAll(() => mock.close());

describe('GET /pets (listPets)', () => {
  it('returns 20 pets by default, newest first', async () => {
    const exchange = await mock.request('GET', '/pets');
    expect(exchange.status).toBe(200);
    expectConforms(mock, 'listPets', exchange);
    expect(exchange.body).toHaveLength(20);
    const ids = exchange.body.map((pet: { id: number }) => pet.id);
    expect(ids).toEqual(Array.from({ length: 20 }, (_, index) => 150 - index));
  });

  it('puts a pet just created on the first page', async () => {
    const created = await mock.request('POST', '/pets', { body: { name: 'Fresh', categoryId: 1, status: 'sold' } });
    const first = await mock.request('GET', '/pets');
    expect(first.body[0]).toEqual(created.body);
    const sold = await mock.request('GET', '/pets?status=sold&limit=1');
    expect(sold.body).toEqual([created.body]);
  });

  it('lists oldest first with --order oldest-first', async () => {
    const oldest = await startTestMock({ pets: 30, listOrder: 'oldest-first' });
    try {
      const exchange = await oldest.request('GET', '/pets?limit=3');
      expect(exchange.body.map((pet: { id: number }) => pet.id)).toEqual([1, 2, 3]);
    } finally {
      await oldest.close();
    }
  });

  it.each([1, 2, 50, 100])('honours limit=%i', async (limit) => {
    const exchange = await mock.request('GET', `/pets?limit=${limit}`);
    expect(exchange.status).toBe(200);
    expect(exchange.body).toHaveLength(limit);
    expectConforms(mock, 'listPets', exchange);
  });

  it('returns every pet when fewer than the limit exist', async () => {
    const small = await startTestMock({ pets: 3 });
    try {
      const exchange = await small.request('GET', '/pets?limit=100');
      expect(exchange.body).toHaveLength(3);
    } finally {
      await small.close();
    }
  });

  it.each(['available', 'pending', 'sold'])('filters by status=%s', async (status) => {
    const exchange = await mock.request('GET', `/pets?status=${status}&limit=100`);
    expect(exchange.status).toBe(200);
    expectConforms(mock, 'listPets', exchange);
    expect(exchange.body.length).toBeGreaterThan(0);
    for (const pet of exchange.body) expect(pet.status).toBe(status);
  });

  it('combines status and limit', async () => {
    const exchange = await mock.request('GET', '/pets?status=available&limit=3');
    expect(exchange.body).toHaveLength(3);
    for (const pet of exchange.body) expect(pet.status).toBe('available');
  });

  it('seeds a mix of statuses and categories from the fixtures', async () => {
    const { body } = await mock.request('GET', '/pets?limit=100');
    const statuses = new Set(body.map((pet: { status: string }) => pet.status));
    expect(statuses).toEqual(new Set(['available', 'pending', 'sold']));
    const categories = new Set(body.map((pet: { categoryId: number }) => pet.categoryId));
    expect(categories.size).toBeGreaterThan(3);
    for (const id of categories) expect(id).toBeGreaterThanOrEqual(1);
    for (const pet of body) expect(pet.name).toMatch(/^\S.*$/);
  });

  it('gives the same order on every call (stable)', async () => {
    const first = await mock.request('GET', '/pets?limit=100');
    const second = await mock.request('GET', '/pets?limit=100');
    expect(second.text).toBe(first.text);
  });

  it('ignores unknown query parameters', async () => {
    const exchange = await mock.request('GET', '/pets?limit=2&offset=5&cursor=x');
    expect(exchange.status).toBe(200);
    expect(exchange.body).toHaveLength(2);
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await fetch(`${mock.url}/pets`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${mock.key}` },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });
});

describe('a list answered again', () => {
  it('shows an item changed in between (the last page’s text is reused only for the same records)', async () => {
    const spec = fileURLToPath(new URL('../fixtures/contract/patched-status.yaml', import.meta.url));
    const tickets = await startMock({ specPath: spec, port: 0, apiKeys: ['list-key'], world: false });
    try {
      const send = (method: string, path: string, body?: unknown) =>
        fetch(`${tickets.url}${path}`, {
          method,
          headers: { authorization: 'Bearer list-key', 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then(async (response) => ({ status: response.status, text: await response.text() }));
      const created = JSON.parse((await send('POST', '/tickets', { title: 'Broken', status: 'open' })).text) as {
        id: number;
      };
      const before = await send('GET', '/tickets');
      expect((await send('GET', '/tickets')).text).toBe(before.text);
      expect((await send('PATCH', `/tickets/${created.id}`, { status: 'closed' })).status).toBe(200);
      const after = JSON.parse((await send('GET', '/tickets')).text) as { id: number; status: string }[];
      expect(after.find((ticket) => ticket.id === created.id)?.status).toBe('closed');
      expect(JSON.stringify(after)).not.toBe(before.text);
    } finally {
      await tickets.close();
    }
  });
});
