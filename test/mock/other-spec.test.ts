import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startMock, type RunningMock } from '../../src/serve/server.js';

const INVENTORY = fileURLToPath(new URL('../fixtures/inventory.yaml', import.meta.url));
let running: RunningMock;
beforeAll(async () => {
  running = await startMock({ specPath: INVENTORY, apiKeys: ['inv-key'] });
});
afterAll(() => running.close());

const withKey = { 'x-api-key': 'inv-key' };

describe('any OpenAPI document (--spec): a read-only collection, and Prism for what kennel keeps no state for', () => {
  it('serves under the document base path with its apiKey scheme', async () => {
    expect(running.url).toMatch(/\/api$/);
    const denied = await fetch(`${running.url}/items`);
    expect(denied.status).toBe(401);
    expect(((await denied.json()) as { code: string }).code).toBe('missing_api_key');
    const wrong = await fetch(`${running.url}/items`, { headers: { 'x-api-key': 'nope' } });
    expect(wrong.status).toBe(401);
  });

  it('answers with the documented example', async () => {
    const response = await fetch(`${running.url}/items`, { headers: withKey });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual([{ sku: 'A-1', quantity: 3 }]);
  });

  it('reads a read-only collection by key from what the document shows; an unknown key is a 404', async () => {
    expect(await (await fetch(`${running.url}/items/A-1`)).json()).toEqual({ sku: 'A-1', quantity: 3 });
    expect((await fetch(`${running.url}/items/B-7`)).status).toBe(404);
  });

  it('generates schema-valid data with Prefer: dynamic=true (--stateless: Prism answers everything)', async () => {
    const stateless = await startMock({ specPath: INVENTORY, apiKeys: ['inv-key'], stateless: true });
    try {
      const response = await fetch(`${stateless.url}/items/B-7`, { headers: { prefer: 'dynamic=true' } });
      expect(response.status).toBe(200);
      const item = (await response.json()) as { sku: unknown; quantity: unknown };
      expect(typeof item.sku).toBe('string');
      expect(Number.isInteger(item.quantity)).toBe(true);
    } finally {
      await stateless.close();
    }
  });

  it('validates parameters with the same rules before Prism is asked', async () => {
    const response = await fetch(`${running.url}/items?max=9`, { headers: withKey });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('"max"');
    const badPath = await fetch(`${running.url}/items/lowercase`);
    expect(badPath.status).toBe(404);
  });
});

describe('--stateless: the Pet Store answered from its examples, Prism-style', () => {
  it('serves documented examples for every pet operation and keeps nothing', async () => {
    const mock = await startMock({ stateless: true, apiKeys: ['k'] });
    try {
      const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
      const list = await fetch(`${mock.url}/pets`, { headers });
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual([
        { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
        { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
      ]);
      const created = await fetch(`${mock.url}/pets`, {
        method: 'POST',
        headers,
        body: '{"name":"Ignored","categoryId":5}',
      });
      expect(created.status).toBe(201);
      expect(await created.json()).toEqual({ id: 3, name: 'Bella', categoryId: 1, status: 'available' });
      const invalid = await fetch(`${mock.url}/pets`, { method: 'POST', headers, body: '{"name":1}' });
      expect(invalid.status).toBe(400);
      expect((await fetch(`${mock.url}/pets`)).status).toBe(401);
      const one = await fetch(`${mock.url}/pets/77`, { headers });
      expect(one.status).toBe(200);
      expect(one.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    } finally {
      await mock.close();
    }
  });
});
