import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import type { MockServerOptions } from '../../src/serve/running-mock.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mock-documents/prism-cases.yaml', import.meta.url));
const KEY = 'prism-key';

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function start(options: MockServerOptions = {}): Promise<RunningMock> {
  return startMock({ specPath: FIXTURE, world: false, apiKeys: [KEY], ...options });
}

async function call(mock: RunningMock, path: string, init: RequestInit & { key?: boolean } = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  if (init.key !== false) headers.set('x-key', KEY);
  const response = await fetch(`${mock.url}${path}`, { ...init, headers });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json');
  return { status: response.status, headers: response.headers, body: json && text ? JSON.parse(text) : text };
}

let mock: RunningMock;
beforeAll(async () => {
  mock = await start();
});
afterAll(() => mock.close());

describe('every parameter style OpenAPI allows is read', () => {
  it.each([
    ['?R=100&G=200', 'form, exploded object'],
    ['?flat=R,100,G,200', 'form object, not exploded'],
    ['?filter[min]=3', 'deepObject'],
    ['?pipes=1|2|3', 'pipeDelimited'],
    ['?spaces=1%202%203', 'spaceDelimited'],
  ])('%s (%s) is accepted', async (query) => {
    expect((await call(mock, `/colors${query}`)).status).toBe(200);
  });

  it.each([
    ['?R=300', 'a field breaks its property schema'],
    ['?flat=R,100,G', 'an odd list is no object'],
    ['?filter[min]=many', 'a deepObject field of the wrong type'],
    ['?pipes=1,2', 'commas are not pipes'],
    ['?q=', 'allowEmptyValue: false'],
  ])('%s (%s) is refused with the documented error body', async (query) => {
    const answer = await call(mock, `/colors${query}`);
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body)).toContain('reason');
  });

  it('header parameters named Content-Type and Accept are ignored, as OpenAPI says', async () => {
    const answer = await call(mock, '/colors', { headers: { accept: 'application/json' } });
    expect(answer.status).toBe(200);
  });

  it('documented response headers get values of their schema: a boolean is true, never null', async () => {
    const answer = await call(mock, '/colors');
    expect(answer.headers.get('x-cached')).toBe('true');
    expect(answer.headers.get('x-count')).toBe('5');
  });

  it('form fields are typed by the alternative of a oneOf that declares them', async () => {
    const form = (fields: Record<string, string>) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) body.append(name, value);
      return call(mock, '/menu', { method: 'POST', body });
    };
    expect((await form({ kind: 'drink', volume: '2.5' })).status).toBe(200);
    expect((await form({ kind: 'cake', sweet: 'true' })).status).toBe(200);
    expect((await form({ kind: 'cake', sweet: 'very' })).status).toBe(400);
  });

  it('a form field whose encoding says allowReserved: false must come percent-encoded', async () => {
    const post = (body: string) =>
      call(mock, '/forms', { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect((await post("reserved=:/?#[]@!$'()*+,;")).status).toBe(400);
    expect((await post(`reserved=${encodeURIComponent(":/?#[]@!$'()*+,;")}`)).status).toBe(200);
  });
});

describe('Prefer picks the answer, never skips validation', () => {
  it('an invalid request gets its documented error whatever Prefer asks for', async () => {
    for (const prefer of ['code=404', 'example=fine', 'code=200'])
      expect((await call(mock, '/colors?R=999', { headers: { prefer } })).status).toBe(400);
  });

  it('an example asked for by name, existing or not, never skips validation', async () => {
    for (const prefer of ['example=fine', 'example=broken', 'example=none', 'dynamic=true'])
      expect((await call(mock, '/labels?lang=xx', { headers: { prefer } })).status).toBe(400);
    expect((await call(mock, '/labels?lang=fr', { headers: { prefer: 'example=fine' } })).body).toEqual({
      name: 'kennel',
    });
  });

  it('a valid request gets what Prefer asks for, in the documented error schema', async () => {
    const answer = await call(mock, '/colors', { headers: { prefer: 'code=404' } });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ reason: 'invalid', detail: expect.any(String) });
  });
});

describe('Prefer picks among the successes of a stateful operation', () => {
  const post = (prefer?: string) =>
    call(mock, '/notes', {
      method: 'POST',
      body: JSON.stringify({ text: 'hi' }),
      headers: { 'content-type': 'application/json', ...(prefer ? { prefer } : {}) },
    });

  it('a create answers 201 with Location, or the 200 it prefers; both store the item', async () => {
    const usual = await post();
    expect(usual.status).toBe(201);
    expect(usual.headers.get('location')).toMatch(/\/notes\/\d+$/);
    const kept = await post('code=200');
    expect(kept.status).toBe(200);
    expect(kept.headers.get('preference-applied')).toBe('code=200');
    expect(kept.body).toEqual({ id: expect.any(Number), text: 'hi' });
    expect((await call(mock, `/notes/${kept.body.id}`)).body).toEqual(kept.body);
  });

  it('a delete answers its lowest success, 200 with the item, or the 204 it prefers; both delete', async () => {
    const created = (await post()).body;
    const deleted = await call(mock, `/notes/${created.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(created);
    expect((await call(mock, `/notes/${created.id}`)).status).toBe(404);
    const other = (await post()).body;
    const quiet = await call(mock, `/notes/${other.id}`, { method: 'DELETE', headers: { prefer: 'code=204' } });
    expect(quiet).toMatchObject({ status: 204, body: '' });
    expect((await call(mock, `/notes/${other.id}`)).status).toBe(404);
  });
});

describe('answers valid against the document', () => {
  it('a documented 401 body of type number is a number', async () => {
    const answer = await call(mock, '/colors', { key: false });
    expect(answer.status).toBe(401);
    expect(typeof answer.body).toBe('number');
  });

  it('missing credentials get the documented 403 where the operation documents 403 and no 401', async () => {
    const answer = await call(mock, '/vault', { key: false });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ denied: true });
  });

  it('a status the operation does not document is answered in its documented error shape', async () => {
    const answer = await call(mock, '/limited', { key: false });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      code: 401,
      message: expect.stringContaining('X-Key'),
      more_info: 'https://example.com/',
    });
  });

  it('an operation documenting no error gets the error shape most operations document', async () => {
    const answer = await call(mock, '/words', { key: false });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ reason: 'invalid', detail: expect.any(String) });
  });

  it('a fully specified array of 3,000 strings is answered in full', async () => {
    const answer = await call(mock, '/words');
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(3000);
    expect(answer.body.every((word: string) => /^[a-z]{2,5}$/.test(word))).toBe(true);
  });

  it('a valid example comes before one that breaks its schema; asked for by name, the broken one is flagged', async () => {
    const plain = await call(mock, '/labels');
    expect(plain.body).toEqual({ name: 'kennel' });
    expect(plain.headers.get('kennel-violations')).toBeNull();
    const broken = await call(mock, '/labels', { headers: { prefer: 'example=broken' } });
    expect(broken.body).toEqual({ name: 'x' });
    expect(JSON.parse(broken.headers.get('kennel-violations')!)).toEqual([
      expect.objectContaining({
        rule: 'response-schema-conformance',
        message: '/name must NOT have fewer than 3 characters',
      }),
    ]);
  });

  it('an example that breaks its schema is named at load, with its line', () => {
    expect(mock.document.warnings).toContainEqual({
      location: expect.stringMatching(/prism-cases\.yaml:\d+$/),
      message: expect.stringContaining('example "default" breaks its schema: /name is required'),
    });
  });
});

describe('Prism users feel at home', () => {
  it('--dynamic answers each request with another valid value', async () => {
    const dynamic = await start({ dynamic: true });
    try {
      const first = await call(dynamic, '/labels');
      const second = await call(dynamic, '/labels');
      expect(first.body.name).not.toBe(second.body.name);
      expect(first.body.name.length).toBeGreaterThanOrEqual(3);
      const fixed = await call(dynamic, '/labels', { headers: { prefer: 'dynamic=false' } });
      expect(fixed.body).toEqual({ name: 'kennel' });
    } finally {
      await dynamic.close();
    }
  });

  it("Prism's __code query shortcut works only when asked for (--prism-query)", async () => {
    expect((await call(mock, '/colors?__code=404')).status).toBe(200);
    const aliased = await start({ prismQuery: true });
    try {
      expect((await call(aliased, '/colors?__code=404')).status).toBe(404);
      expect((await call(aliased, '/colors?__code=404', { headers: { prefer: 'code=200' } })).status).toBe(200);
      expect((await call(aliased, '/colors?__code=404&R=999')).status).toBe(400);
    } finally {
      await aliased.close();
    }
  });

  it("Prism's __example and __dynamic query shortcuts pick the example and the generated answer", async () => {
    expect((await call(mock, '/labels?__example=broken')).body).toEqual({ name: 'kennel' });
    const aliased = await start({ prismQuery: true });
    try {
      const broken = await call(aliased, '/labels?__example=broken');
      expect(broken.body).toEqual({ name: 'x' });
      expect(broken.headers.get('kennel-violations')).toContain('response-schema-conformance');
      const first = await call(aliased, '/labels?__dynamic=true');
      const second = await call(aliased, '/labels?__dynamic=true');
      expect(first.body.name).not.toBe(second.body.name);
      expect(first.body.name.length).toBeGreaterThanOrEqual(3);
      expect((await call(aliased, '/labels?__example=fine&lang=xx')).status).toBe(400);
    } finally {
      await aliased.close();
    }
  });
});
