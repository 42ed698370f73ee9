import { describe, expect, it } from 'vitest';
import { startTestMock, OTHER_KEY, expectConforms, expectErrorBody } from '../helpers/mock-client.js';

describe('seeded data', () => {
  it('two fresh servers with the same seed answer byte-identical lists', async () => {
    const [a, b] = await Promise.all([startTestMock({ seed: 7, pets: 120 }), startTestMock({ seed: 7, pets: 120 })]);
    try {
      const [first, second] = await Promise.all([
        a.request('GET', '/pets?limit=100'),
        b.request('GET', '/pets?limit=100'),
      ]);
      expect(first.status).toBe(200);
      expect(first.body).toHaveLength(100);
      expect(second.text).toBe(first.text);
      const [one, two] = await Promise.all([a.request('GET', '/pets/57'), b.request('GET', '/pets/57')]);
      expect(two.text).toBe(one.text);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('another seed gives other data', async () => {
    const [a, b] = await Promise.all([startTestMock({ seed: 1 }), startTestMock({ seed: 2 })]);
    try {
      const [first, second] = await Promise.all([
        a.request('GET', '/pets?limit=100'),
        b.request('GET', '/pets?limit=100'),
      ]);
      expect(second.text).not.toBe(first.text);
      expect(second.body.map((pet: { id: number }) => pet.id)).toEqual(first.body.map((pet: { id: number }) => pet.id));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('--pets 0 starts empty and ids start at 1', async () => {
    const mock = await startTestMock({ pets: 0 });
    try {
      expect((await mock.request('GET', '/pets')).body).toEqual([]);
      const created = await mock.request('POST', '/pets', { body: { name: 'First', categoryId: 1 } });
      expect(created.body.id).toBe(1);
    } finally {
      await mock.close();
    }
  });
});

describe('tenants', () => {
  it('a pet created with one key is invisible (404) to another key, which sees the same seed', async () => {
    const mock = await startTestMock({ pets: 5 });
    try {
      const other = { authorization: `Bearer ${OTHER_KEY}` };
      const created = await mock.request('POST', '/pets', { body: { name: 'Mine', categoryId: 1 } });
      expect(created.status).toBe(201);
      expect((await mock.request('GET', `/pets/${created.body.id}`)).status).toBe(200);
      const hidden = await mock.request('GET', `/pets/${created.body.id}`, { headers: other });
      expect(hidden.status).toBe(404);
      expectErrorBody(hidden);
      const otherList = await mock.request('GET', '/pets?limit=100', { headers: other });
      expect(otherList.body).toHaveLength(5);
      expect(otherList.body).not.toContainEqual(created.body);
      const otherCreated = await mock.request('POST', '/pets', {
        body: { name: 'Theirs', categoryId: 1 },
        headers: other,
      });
      expect(otherCreated.body.id).toBe(created.body.id);
    } finally {
      await mock.close();
    }
  });

  it('--shared-store gives every key the same store', async () => {
    const mock = await startTestMock({ pets: 5, tenancy: 'shared' });
    try {
      const created = await mock.request('POST', '/pets', { body: { name: 'Ours', categoryId: 1 } });
      const seen = await mock.request('GET', `/pets/${created.body.id}`, {
        headers: { authorization: `Bearer ${OTHER_KEY}` },
      });
      expect(seen.status).toBe(200);
      expect(seen.body).toEqual(created.body);
    } finally {
      await mock.close();
    }
  });
});

describe('store capacity', () => {
  it('a full store answers 507 store_full, keeps its pets, and reset frees it', async () => {
    const mock = await startTestMock({ pets: 2, maxItemsPerTenant: 3 });
    try {
      expect((await mock.request('POST', '/pets', { body: { name: 'Third', categoryId: 1 } })).status).toBe(201);
      const full = await mock.request('POST', '/pets', { body: { name: 'Fourth', categoryId: 1 } });
      expect(full.status).toBe(507);
      expectErrorBody(full);
      expect(full.body.code).toBe('store_full');
      expect(full.body.message).toContain('/__kennel/reset');
      expectConforms(mock, 'createPet', full);
      expect((await mock.request('GET', '/pets')).body).toHaveLength(3);
      await mock.running.reset();
      expect((await mock.request('GET', '/pets')).body).toHaveLength(2);
      expect((await mock.request('POST', '/pets', { body: { name: 'Again', categoryId: 1 } })).status).toBe(201);
    } finally {
      await mock.close();
    }
  });

  it('a store full by memory answers 507 store_full naming the bound, and other stores go on', async () => {
    const mock = await startTestMock({ pets: 0, maxStoreBytes: 64 * 1024, maxTotalBytes: 80 * 1024 });
    const big = { name: 'n'.repeat(6000), categoryId: 1 };
    try {
      let created = 0;
      let answer = await mock.request('POST', '/pets', { body: big });
      while (answer.status === 201 && created < 100) {
        created += 1;
        answer = await mock.request('POST', '/pets', { body: big });
      }
      expect(created).toBeGreaterThan(0);
      expect(answer.status).toBe(507);
      expectErrorBody(answer);
      expect(answer.body.message).toContain('maximum of 64 KB of memory');
      expectConforms(mock, 'createPet', answer);
      expect((await mock.request('GET', '/pets?limit=100')).body).toHaveLength(created);
      const other = { authorization: `Bearer ${OTHER_KEY}` };
      expect((await mock.request('POST', '/pets', { body: big, headers: other })).status).toBe(201);
      let total = await mock.request('POST', '/pets', { body: big, headers: other });
      while (total.status === 201) total = await mock.request('POST', '/pets', { body: big, headers: other });
      expect(total.status).toBe(507);
      expect(total.body.message).toContain('all stores');
    } finally {
      await mock.close();
    }
  });
});
