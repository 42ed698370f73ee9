import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mock-documents/vendor-json.yaml', import.meta.url));

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ specPath: FIXTURE, world: false });
});
afterAll(() => mock.close());

describe('answers from the store carry the JSON media type the document gives them', () => {
  it('create, read and list answer application/vnd.boards+json', async () => {
    const created = await fetch(`${mock.url}/boards`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'sprint' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/vnd.boards+json');
    const board = (await created.json()) as { id: number };
    for (const path of [`/boards/${board.id}`, '/boards']) {
      const answer = await fetch(`${mock.url}${path}`, { headers: { accept: 'application/vnd.boards+json' } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/vnd.boards+json');
    }
  });
});
