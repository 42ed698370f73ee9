// The README's "Embedded use" example, verbatim in spirit: kennel imported by its package name.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from 'kennel-openapi';

describe('import { startMock } from "kennel-openapi"', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ apiKeys: ['suite-key'], seed: 42 });
  });
  beforeEach(() => mock.reset());
  afterAll(() => mock.close());

  const headers = { authorization: 'Bearer suite-key', 'content-type': 'application/json' };

  it('gives a URL on a free port and a stateful store', async () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const created = await fetch(`${mock.url}/pets`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Embedded', categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    const pets = (await (await fetch(`${mock.url}/pets?limit=100`, { headers })).json()) as { name: string }[];
    expect(pets.map((pet) => pet.name)).toContain('Embedded');
  });

  it('starts each test from the seed after reset()', async () => {
    const pets = (await (await fetch(`${mock.url}/pets?limit=100`, { headers })).json()) as { name: string }[];
    expect(pets).toHaveLength(30);
    expect(pets.map((pet) => pet.name)).not.toContain('Embedded');
  });
});
