import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';

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

  it('writeOnly properties are not sent back, created or read', async () => {
    const created = await post({ name: 'ada', password: 's3cret', owner: { name: 'root' } });
    expect(created.status).toBe(201);
    const account = JSON.parse(created.text) as Record<string, unknown>;
    expect(account).toMatchObject({ name: 'ada' });
    expect(account).not.toHaveProperty('password');
    const read = await call(`${mock.url}/accounts/${String(account.id)}`);
    expect(read.status, read.text).toBe(200);
    expect(JSON.parse(read.text)).not.toHaveProperty('password');
  });

  it('a readOnly property sent with the wrong type is still refused', async () => {
    expect((await post({ id: 'x', name: 'ada', owner: { name: 'root' } })).status).toBe(400);
  });
});

describe('form bodies are parsed and validated against their schema', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await serve('forms.yaml');
  });
  const form = (body: string) =>
    call(`${mock.url}/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
  const multipart = (data: FormData) => call(`${mock.url}/uploads`, { method: 'POST', body: data });
  const message = (answer: { text: string }) => JSON.parse(answer.text).message as string;

  it('urlencoded: fields typed by the schema (integer, boolean, repeated names as a list)', async () => {
    const answer = await form('email=ada%40example.com&age=36&tags=a&tags=b&newsletter=true');
    expect(answer.status, answer.text).toBe(201);
  });

  it.each([
    ['email=ada%40example.com&age=12', '/age must be >= 18'],
    ['email=nope&age=30', '/email must match format "email"'],
    ['email=ada%40example.com', '/age is required'],
    ['email=ada%40example.com&age=old', '/age must be integer'],
    ['email=ada%40example.com&age=30&tags=a&tags=b&tags=c', '/tags must NOT have more than 2 items'],
    ['email=ada%40example.com&age=30&__proto__=x', '"__proto__" is not allowed'],
  ])('urlencoded %s → 400 (%s)', async (body, why) => {
    const answer = await form(body);
    expect(answer.status).toBe(400);
    expect(message(answer)).toContain(why);
  });

  it('an empty form for a required body is refused as missing', async () => {
    const answer = await form('');
    expect(answer.status).toBe(400);
    expect(message(answer)).toContain('Request body is required');
  });

  it('the same operation still takes its documented JSON', async () => {
    const answer = await call(`${mock.url}/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"ada@example.com"}',
    });
    expect(answer.status, answer.text).toBe(201);
  });

  it('multipart: fields and a file part, validated', async () => {
    const ok = new FormData();
    ok.append('title', 'holiday');
    ok.append('count', '2');
    ok.append('file', new Blob(['hello']), 'hello.txt');
    const answer = await multipart(ok);
    expect(answer.status, answer.text).toBe(201);

    const bad = new FormData();
    bad.append('title', 'a title far longer than twenty characters');
    bad.append('count', 'two');
    const refused = await multipart(bad);
    expect(refused.status).toBe(400);
    expect(message(refused)).toContain('/file is required');
    expect(message(refused)).toContain('/title must NOT have more than 20 characters');
    expect(message(refused)).toContain('/count must be integer');
  });

  it('multipart without a boundary, or another media type, is a clear 400', async () => {
    const noBoundary = await call(`${mock.url}/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: 'x',
    });
    expect(noBoundary.status).toBe(400);
    expect(message(noBoundary)).toContain('multipart/form-data cannot be read');
    const text = await call(`${mock.url}/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(text.status).toBe(400);
    expect(message(text)).toBe('Content-Type must be multipart/form-data, not text/plain');
  });

  it('a multipart body over --max-body is refused', async () => {
    const small = await startMock({ specPath: fixture('forms.yaml'), world: false, maxBodyBytes: 1024 });
    mocks.push(small);
    const big = new FormData();
    big.append('title', 'big');
    big.append('file', new Blob(['x'.repeat(5000)]), 'big.txt');
    const answer = await call(`${small.url}/uploads`, { method: 'POST', body: big });
    expect(answer.status).toBe(400);
    expect(message(answer)).toContain('larger than the 1024-byte limit');
  });
});
