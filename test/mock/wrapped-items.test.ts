// Items wrapped in their own name or in `data` (fixtures/explore/rules.yaml): the mock unwraps a
// wrapped create body into its store, answers wrapped where the document wraps, and knows which
// keys it has, so an unknown one is a 404 (a wrapper used to hide the key and leave it to Prism).
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';

const RULES = fileURLToPath(new URL('../fixtures/explore/rules.yaml', import.meta.url));

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ specPath: RULES });
});
afterAll(() => mock.close());

const post = (path: string, body: unknown) =>
  fetch(`${mock.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('wrapped items in the mock', () => {
  it('stores what a wrapped create body holds and answers it wrapped, then reads it bare', async () => {
    const created = await post('/trips', { trip: { name: 'Lyon to Nice' } });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { data: { id: number; name: string } };
    expect(body).toEqual({ data: { id: expect.any(Number), name: 'Lyon to Nice' } });
    const read = await fetch(`${mock.url}/trips/${body.data.id}`);
    expect(await read.json()).toEqual(body.data);
  });

  it('answers a read wrapped in the resource name, and 404 for a key it does not have', async () => {
    const created = (await (await post('/stations', { name: 'Part-Dieu', code: 'LYS' })).json()) as { id: string };
    const read = await fetch(`${mock.url}/stations/${created.id}`);
    expect(await read.json()).toEqual({ station: { id: created.id, name: 'Part-Dieu', code: 'LYS' } });
    expect((await fetch(`${mock.url}/stations/${randomUUID()}`)).status).toBe(404);
  });
});
