import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mock-documents/ref-siblings.yaml', import.meta.url));

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ specPath: FIXTURE, world: false });
});
afterAll(() => mock.close());

const create = (rate: unknown) =>
  fetch(`${mock.url}/tasks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'demolition', rate }),
  });

describe('a type beside a $ref that contradicts the schema referenced is ignored, as OpenAPI 3.0 says', () => {
  it('the request takes the referenced object, and refuses the sibling type', async () => {
    expect((await create(20)).status).toBe(400);
    const created = await create({ currency: 'AUD', value: 20 });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ rate: { currency: 'AUD', value: 20 } });
  });

  it('an answer made up from the schema holds the referenced object, static or dynamic', async () => {
    for (const prefer of ['dynamic=false', 'dynamic=true']) {
      const answer = await fetch(`${mock.url}/sample`, { headers: { prefer } });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ rate: { currency: expect.any(String), value: expect.any(Number) } });
    }
  });
});
