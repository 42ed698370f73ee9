// Issue 18, item 8, over HTTP: the admin API (/__kennel) and the world API (/__kennel/world)
// answer only to a Host kennel serves (DNS rebinding), and refuse state changes from a foreign
// origin or in a form or text body (CSRF), token or not. The browser half is
// test/browser/admin-csrf.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { rawExchange, rawJson } from '../helpers/raw-http.js';

const TOKEN = 'admin-guard-token';

/** A raw request (so any Host can be sent), optionally with headers and a body. */
function send(running: RunningMock, method: string, path: string, headers: Record<string, string>, body = '') {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const length = body || !['GET', 'HEAD'].includes(method) ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : '';
  return rawExchange(
    running.origin,
    `${method} ${path} HTTP/1.1\r\n${lines.join('')}${length}Connection: close\r\n\r\n${body}`,
  );
}

describe('the admin and world APIs answer only to a Host kennel serves', () => {
  let open: RunningMock;
  let named: RunningMock;
  let port: string;

  beforeAll(async () => {
    open = await startMock({ port: 0 });
    named = await startMock({ port: 0, world: false, allowedHosts: ['mock.internal', '.corp.example'] });
    port = new URL(open.origin).port;
  });
  afterAll(async () => {
    await open.close();
    await named.close();
  });

  it.each([
    ['GET', '/__kennel/journal'],
    ['DELETE', '/__kennel/journal'],
    ['POST', '/__kennel/reset'],
    ['GET', '/__kennel/chaos'],
    ['PUT', '/__kennel/now'],
    ['GET', '/__kennel/world/state'],
    ['POST', '/__kennel/world/reset'],
    ['GET', '/__kennel/dashboard'],
    ['OPTIONS', '/__kennel/reset'],
  ])('%s %s with Host: attacker.example is a 403 naming the host and the flag', async (method, path) => {
    for (const host of ['attacker.example', `attacker.example:${port}`, 'ATTACKER.example.', '127.0.0.1.nip.io']) {
      const answer = await send(open, method, path, { Host: host });
      expect(answer.status, `${host}: ${answer.text}`).toBe(403);
      expect(rawJson(answer)).toMatchObject({
        code: 'host_not_allowed',
        status: 403,
        message: expect.stringContaining('--allowed-host'),
      });
    }
  });

  it.each([
    `127.0.0.1:PORT`,
    'localhost:PORT',
    'LocalHost',
    'app.localhost:PORT',
    '[::1]:PORT',
    '10.1.2.3:PORT',
    '[fe80::1]',
  ])('Host: %s is served', async (host) => {
    const answer = await send(open, 'GET', '/__kennel/journal?limit=1', { Host: host.replace('PORT', port) });
    expect(answer.status, answer.text).toBe(200);
  });

  it('an HTTP/1.0 request without Host (no browser sends one) is served', async () => {
    const answer = await rawExchange(open.origin, 'GET /__kennel/journal?limit=1 HTTP/1.0\r\n\r\n');
    expect(answer.status).toBe(200);
  });

  it.each([
    ['health, for probes that address the container by any name', 'GET', '/__kennel/health'],
    ['the API itself', 'GET', '/v1/pets?limit=1'],
  ])('%s answers any Host', async (_name, method, path) => {
    const answer = await send(open, method, path, { Host: 'attacker.example', Authorization: 'Bearer kennel-dev-key' });
    expect(answer.status).toBe(200);
  });

  it.each([
    ['mock.internal', 200],
    ['mock.internal:4010', 200],
    ['corp.example', 200],
    ['api.corp.example', 200],
    ['a.b.corp.example', 200],
    ['evilcorp.example', 403],
    ['mock.internal.attacker.example', 403],
  ])('--allowed-host mock.internal --allowed-host .corp.example: Host %s → %i', async (host, status) => {
    const answer = await send(named, 'GET', '/__kennel/journal?limit=1', { Host: host });
    expect(answer.status).toBe(status);
  });
});

describe('state changes through the admin and world APIs refuse cross-site requests, token or not', () => {
  let open: RunningMock;
  let guarded: RunningMock;
  let host: string;

  beforeAll(async () => {
    open = await startMock({ port: 0 });
    guarded = await startMock({ port: 0, world: false, adminToken: TOKEN });
    host = new URL(open.origin).host;
  });
  afterAll(async () => {
    await open.close();
    await guarded.close();
  });

  const foreign: [string, Record<string, string>, number, string][] = [
    ['a foreign Origin', { Origin: 'http://evil.example' }, 403, 'cross_site_refused'],
    ['Origin: null (a sandboxed page, a file)', { Origin: 'null' }, 403, 'cross_site_refused'],
    ['another port of the same host', { Origin: 'http://127.0.0.1:1' }, 403, 'cross_site_refused'],
    ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }, 403, 'cross_site_refused'],
    ['Sec-Fetch-Site: same-site', { 'Sec-Fetch-Site': 'same-site' }, 403, 'cross_site_refused'],
    ['a form body', { 'Content-Type': 'application/x-www-form-urlencoded' }, 415, 'unsupported_media_type'],
    ['a multipart form', { 'Content-Type': 'multipart/form-data; boundary=x' }, 415, 'unsupported_media_type'],
    ['a text body', { 'Content-Type': 'text/plain' }, 415, 'unsupported_media_type'],
    ['a text body, spelt otherwise', { 'Content-Type': 'TEXT/Plain; charset=utf-8' }, 415, 'unsupported_media_type'],
  ];

  const changes: [string, string, string][] = [
    ['POST', '/__kennel/reset', '{}'],
    ['DELETE', '/__kennel/journal', ''],
    ['PUT', '/__kennel/chaos', '{"rules":[]}'],
    ['PUT', '/__kennel/now', '{"now":"2030-01-01"}'],
    ['DELETE', '/__kennel/now', ''],
    ['POST', '/__kennel/world/reset', ''],
  ];

  it.each(foreign)('%s: every state change is refused, the store untouched', async (_name, headers, status, code) => {
    const withHost = Object.fromEntries(
      Object.entries(headers).map(([key, value]) => [key, value.replace('HOST', host)]),
    );
    for (const [method, path, body] of changes) {
      for (const [running, extra] of [
        [open, {}],
        [guarded, { Authorization: `Bearer ${TOKEN}` }],
      ] as const) {
        if (running === guarded && path.startsWith('/__kennel/world')) continue;
        const answer = await send(
          running,
          method,
          path,
          { Host: new URL(running.origin).host, 'Content-Type': 'application/json', ...withHost, ...extra },
          body,
        );
        expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(status);
        expect(rawJson(answer)).toMatchObject({ code, status });
      }
    }
  });

  it.each([
    ['no Origin, no Sec-Fetch-Site (curl, a test runner)', {}],
    ['the same origin', { Origin: 'http://HOST' }],
    ['Sec-Fetch-Site: same-origin', { 'Sec-Fetch-Site': 'same-origin', Origin: 'http://HOST' }],
    ['Sec-Fetch-Site: none (typed by the user)', { 'Sec-Fetch-Site': 'none' }],
  ])('%s: the state change goes through', async (_name, headers) => {
    const withHost = Object.fromEntries(
      Object.entries(headers).map(([key, value]) => [key, value.replace('HOST', host)]),
    );
    for (const [method, path, body] of changes) {
      const contentType: Record<string, string> = body ? { 'Content-Type': 'application/json' } : {};
      const answer = await send(open, method, path, { Host: host, ...contentType, ...withHost }, body);
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
    }
  });

  it('reads stay open to other origins (a foreign page cannot read them without CORS, and with a token it may)', async () => {
    const answer = await send(open, 'GET', '/__kennel/journal?limit=1', { Host: host, Origin: 'http://evil.example' });
    expect(answer.status).toBe(200);
  });
});
