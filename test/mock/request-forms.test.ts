import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/server.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/mock-documents/${name}`, import.meta.url));
const mocks: RunningMock[] = [];
const serve = async (name: string) => {
  const mock = await startMock({ specPath: fixture(name), world: false });
  mocks.push(mock);
  return mock;
};
afterAll(() => Promise.all(mocks.map((mock) => mock.close())));

async function call(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  return { status: response.status, text: await response.text() };
}

describe('path parameters as the document names and styles them', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await serve('path-parameters.yaml');
  });

  it.each([
    ['/users/7/posts/abc', 200],
    ['/users/x/posts/abc', 404],
    ['/users/7/posts/ABC', 404],
  ])('{user-id} and {post.id}: %s → %i', async (path, status) => {
    expect((await call(mock.url + path)).status).toBe(status);
  });

  it.each([
    ['/matrix/;id=5', 200],
    ['/matrix/5', 404],
    ['/matrix/;id=x', 404],
    ['/matrix/;other=5', 404],
    ['/matrix-list/;ids=3;ids=4', 200],
    ['/matrix-list/;ids=3;ids=4;ids=5;ids=6', 404],
    ['/label/.5', 200],
    ['/label/5', 404],
    ['/label/.x', 404],
  ])('matrix and label styles: %s → %i', async (path, status) => {
    const answer = await call(mock.url + path);
    expect(answer.status, answer.text).toBe(status);
  });

  it('a refused styled value says which style it must be in', async () => {
    const answer = await call(`${mock.url}/matrix/5`);
    expect(JSON.parse(answer.text).message).toContain('must be in matrix style, ";id=value"');
  });
});

describe('readOnly properties are not demanded of requests', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await serve('read-only.yaml');
  });
  const post = (body: unknown) =>
    call(`${mock.url}/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('a body without the required readOnly ids (top level and nested) is accepted', async () => {
    const answer = await post({ name: 'ada', password: 's3cret', owner: { name: 'root' } });
    expect(answer.status, answer.text).toBe(201);
  });

  it('the other required properties still are', async () => {
    const answer = await post({ owner: {} });
    expect(answer.status).toBe(400);
    const message = JSON.parse(answer.text).message as string;
    expect(message).toContain('/name is required');
    expect(message).toContain('/owner/name is required');
    expect(message).not.toContain('/id');
  });

  it('a readOnly property sent with the wrong type is still refused', async () => {
    expect((await post({ id: 'x', name: 'ada', owner: { name: 'root' } })).status).toBe(400);
  });
});
