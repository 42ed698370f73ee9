import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mock-documents/path-matching.yaml', import.meta.url));

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ specPath: FIXTURE, world: false });
});
afterAll(() => mock.close());

async function get(path: string, method = 'GET'): Promise<{ status: number; body: unknown; allow: string | null }> {
  const response = await fetch(`${mock.url}${path}`, { method });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, allow: response.headers.get('allow') };
}

describe('OpenAPI path matching', () => {
  it.each([
    ['/test/fixed', 'fixed'],
    ['/test/7', 'templated'],
    ['/test:run', 'rpc'],
    ['/pet/a:x', 'colon'],
    ['/files/report.json', 'suffix'],
    ['/files/a.b.json', 'suffix'],
    ['/files/dir%2Fx.json', 'suffix'],
    ['/test%20path%20%3E%20with%20%7C%20unsafe%20%25%20characters', 'unsafe'],
    ['/caf%C3%A9', 'encoded'],
    ['/responses', 'plain'],
    ['/responses?beta=true', 'beta'],
    ['/responses?beta=false', 'plain'],
    ['/test/fixed/', 'fixed'],
  ])('GET %s is answered by the operation of %s', async (path, name) => {
    const answer = await get(path);
    expect(answer).toMatchObject({ status: 200, body: name });
  });

  it('a concrete path without the method falls through to the templated one that has it', async () => {
    expect((await get('/test/5', 'DELETE')).status).toBe(204);
    // /test/fixed has no DELETE, and "fixed" is no integer id: the templated path refuses it.
    expect((await get('/test/fixed', 'DELETE')).status).toBe(404);
  });

  it('a templated value is still validated, and 405 lists the methods of the concrete path', async () => {
    expect((await get('/test:walk')).status).toBe(404);
    const post = await get('/test/fixed', 'POST');
    expect(post.status).toBe(405);
    expect(post.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('says at load how it serves a path key that holds a query', () => {
    expect(mock.document.warnings).toContainEqual({
      location: expect.stringMatching(/path-matching\.yaml:\d+$/),
      message: expect.stringContaining('"/responses?beta=true" holds a query; kennel serves it at /responses'),
    });
  });

  it('serves a document without info, with a title of its own on /__kennel/health', async () => {
    const health = await fetch(`${mock.origin}/__kennel/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { spec: unknown }).spec).toEqual({
      title: 'untitled API',
      version: '(no version)',
    });
  });
});
