import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_API_KEY } from '../../src/mock/config.js';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { callWorld } from '../helpers/world-client.js';

// The API reference as kennel serve gives it (/__kennel/docs) and as the documentation site gives
// it (every served host), with the document's API paths answered by the same mock.
const PLATFORM_HOST = 'petstore-docs.kennel-pages.dev';
const AUTH = { authorization: `Bearer ${DEV_API_KEY}` };
let mock: RunningMock;
let rootPem: string;

beforeAll(async () => {
  mock = await startMock({ sitePort: 0 });
  rootPem = (await callWorld(mock.origin, 'GET', '/ca/root.pem')).text;
});
afterAll(() => mock.close());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request to the HTTPS site for `host`, verified against the kennel root. */
function site(
  method: string,
  target: string,
  options: { host?: string; headers?: Record<string, string>; body?: string; on?: RunningMock; ca?: string } = {},
): Promise<Answer> {
  const on = options.on ?? mock;
  const host = options.host ?? PLATFORM_HOST;
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      {
        host: '127.0.0.1',
        port: on.site!.port,
        servername: PLATFORM_HOST,
        ca: options.ca ?? rootPem,
        method,
        path: target,
        headers: { host, ...options.headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

describe('kennel serve: /__kennel/docs', () => {
  it('serves the reference page under a strict Content-Security-Policy', async () => {
    const response = await fetch(`${mock.origin}/__kennel/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const page = await response.text();
    expect(page).toContain('<h1>Pet Store API</h1>');
    expect(page).toContain('Rendered by kennel from petstore.yaml.');
  });

  it.each([
    ['reference.css', 'text/css; charset=utf-8', '.try-it'],
    ['try-it.js', 'text/javascript; charset=utf-8', "addEventListener('submit'"],
  ])('serves %s', async (name, type, content) => {
    const response = await fetch(`${mock.origin}/__kennel/docs/${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(await response.text()).toContain(content);
  });

  it('answers anything else under it with the Error body: 404, and 405 for other methods', async () => {
    const missing = await fetch(`${mock.origin}/__kennel/docs/../../etc/passwd`.replace('/../../', '/%2e%2e/'));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found', status: 404 });
    const post = await fetch(`${mock.origin}/__kennel/docs`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = await fetch(`${mock.origin}/__kennel/docs`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('is public when an admin token protects the admin API: it holds no secret', async () => {
    const protectedMock = await startMock({ adminToken: 'admin-secret', apiKeys: ['k1'], world: false });
    try {
      expect((await fetch(`${protectedMock.origin}/__kennel/docs`)).status).toBe(200);
      expect((await fetch(`${protectedMock.origin}/__kennel/journal`)).status).toBe(401);
      const page = await (await fetch(`${protectedMock.origin}/__kennel/docs`)).text();
      expect(page).not.toMatch(/admin-secret|k1/);
      expect(page).toContain('placeholder="your API key"');
    } finally {
      await protectedMock.close();
    }
  });
});

describe('the documentation site serves the same reference', () => {
  it('on the platform host, with the host and project in its footer', async () => {
    const response = await site('GET', '/');
    expect(response.status).toBe(200);
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.text).toContain('<h1>Pet Store API</h1>');
    expect(response.text).toContain(`Served for ${PLATFORM_HOST} by project petstore-docs.`);
    const script = await site('GET', '/__kennel/docs/try-it.js');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it("forwards the API's paths to the mock itself: the same store as the mock's own origin", async () => {
    const name = `Site-${Date.now()}`;
    const created = await fetch(`${mock.url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const listed = await site('GET', '/v1/pets?limit=5', { headers: AUTH });
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.text)).toContainEqual(expect.objectContaining({ id, name }));
    const one = await site('GET', `/v1/pets/${id}`, { headers: AUTH });
    expect(one.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    const anonymous = await site('GET', '/v1/pets');
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.text)).toMatchObject({ code: 'missing_api_key', status: 401 });
    const posted = await site('POST', '/v1/pets', {
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ categoryId: 1 }),
    });
    expect(posted.status).toBe(400);
  });

  it("never exposes the mock's admin API or the world's control API through the site", async () => {
    for (const path of ['/__kennel/journal', '/__kennel/world/ca/root.pem', '/__kennel/health']) {
      const response = await site('GET', path);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.text).toContain('<h1>Pet Store API</h1>');
    }
  });

  it('refuses other methods on pages, and answers HEAD without a body', async () => {
    const post = await site('POST', '/', { body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const head = await site('HEAD', '/');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('a host the platform does not serve reaches neither page nor API', async () => {
    // Over a connection made for the platform's own name: 421 Misdirected Request (RFC 9110 15.5.20);
    // a client asking for nobody.example.com by SNI gets the default certificate and a failed handshake.
    const response = await site('GET', '/v1/pets', { host: 'nobody.example.com', headers: AUTH });
    expect(response.status).toBe(421);
    expect(response.text).toContain('nobody.example.com');
    expect(response.text).not.toContain('Pet Store API');
  });
});

describe('a document without a base path', () => {
  const DOCUMENT = `openapi: 3.1.0
info: { title: Things, version: '1' }
paths:
  /{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: A thing, content: { application/json: { schema: { type: object } } } } }
`;

  it("forwards the paths its templates match, but never the mock's admin API", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'kennel-reference-'));
    const file = path.join(directory, 'things.yaml');
    await writeFile(file, DOCUMENT);
    const things = await startMock({ specPath: file, sitePort: 0 });
    try {
      const ca = (await callWorld(things.origin, 'GET', '/ca/root.pem')).text;
      const thing = await site('GET', '/abc', { on: things, ca });
      expect(thing.headers['content-type']).toMatch(/^application\/json/);
      for (const target of ['/__kennel', '/__kennel/journal', '/__kennel/health']) {
        const admin = await site('GET', target, { on: things, ca });
        expect(admin.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(admin.text).toContain('<h1>Things</h1>');
      }
    } finally {
      await things.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
