import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/server.js';
import { MAX_HEADER_CHARS } from '../../src/mock/proxy/violation.js';
import { freePort } from '../helpers/cli.js';
import { startTestMock, TEST_KEY, type TestMock } from '../helpers/mock-client.js';
import { capturedLogger, json, rawRequest, testUpstream, violationsOf, type RawAnswer } from './proxy-helpers.js';
import { holdsThroughout, waitUntil } from '../helpers/wait.js';

const AUTH = { authorization: `Bearer ${TEST_KEY}` };
/** Headers that belong to a connection or a moment, not to the answer. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive']);

function answerHeaders(answer: RawAnswer): [string, string][] {
  const pairs: [string, string][] = [];
  for (let index = 0; index < answer.rawHeaders.length; index += 2)
    if (!PER_CONNECTION.has(answer.rawHeaders[index]!.toLowerCase()))
      pairs.push([answer.rawHeaders[index]!, answer.rawHeaders[index + 1]!]);
  return pairs;
}

describe('proxy mode in front of a conforming deployment (a real kennel mock)', () => {
  let upstream: TestMock;
  let proxy: RunningMock;

  beforeAll(async () => {
    upstream = await startTestMock({ world: false });
    proxy = await startMock({ port: 0, world: false, proxy: upstream.running.origin });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('passes the answer through unchanged (status line, headers, bytes) and adds no violation header', async () => {
    const direct = await rawRequest(`${upstream.url}/pets?limit=2`, { headers: AUTH });
    const proxied = await rawRequest(`${proxy.url}/pets?limit=2`, { headers: AUTH });
    expect(proxied.status).toBe(200);
    expect(proxied.statusMessage).toBe(direct.statusMessage);
    expect(proxied.body.equals(direct.body)).toBe(true);
    expect(answerHeaders(proxied)).toEqual(answerHeaders(direct));
    expect(proxied.headers['kennel-violations']).toBeUndefined();
  });

  it("a HEAD gets the GET operation's headers as the upstream sends them, and no body", async () => {
    const direct = await rawRequest(`${upstream.url}/pets?limit=2`, { method: 'HEAD', headers: AUTH });
    const proxied = await rawRequest(`${proxy.url}/pets?limit=2`, { method: 'HEAD', headers: AUTH });
    expect([proxied.status, proxied.body.length]).toEqual([200, 0]);
    expect(answerHeaders(proxied)).toEqual(answerHeaders(direct));
    expect(proxied.headers['kennel-violations']).toBeUndefined();
  });

  it('a CORS preflight is forwarded (the deployment answers its own CORS) and not judged', async () => {
    const headers = { origin: 'http://app.test', 'access-control-request-method': 'POST' };
    const direct = await rawRequest(`${upstream.url}/pets`, { method: 'OPTIONS', headers });
    const proxied = await rawRequest(`${proxy.url}/pets`, { method: 'OPTIONS', headers });
    expect(proxied.status).toBe(direct.status);
    expect(answerHeaders(proxied)).toEqual(answerHeaders(direct));
    expect(proxied.headers['kennel-violations']).toBeUndefined();
  });

  it.each([
    ['a create', 'POST', '/pets', { name: 'Bella', categoryId: 1 }, []],
    ['a deprecated read with its Deprecation and Sunset', 'GET', '/pets/1', undefined, []],
    ['a documented 404', 'GET', '/pets/987654', undefined, []],
    // The request breaks the document; the 400 it gets is the documented answer to that.
    ['an invalid body answered with the documented 400', 'POST', '/pets', { categoryId: 1 }, ['request-body-valid']],
  ])('%s: no response violation', async (_name, method, path, body, rules) => {
    const answer = await rawRequest(`${proxy.url}${path}`, {
      method,
      headers: { ...AUTH, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body && JSON.stringify(body),
    });
    expect((violationsOf(answer) ?? []).map((violation) => violation.rule)).toEqual(rules);
  });

  it('a request without credentials is a request warning only: the 401 it gets is documented and challenged', async () => {
    const answer = await rawRequest(`${proxy.url}/pets`);
    expect(answer.status).toBe(401);
    expect(violationsOf(answer)).toEqual([
      expect.objectContaining({ location: 'request', rule: 'request-credentials-present', severity: 'warning' }),
    ]);
  });
});

describe('proxy mode in front of a faulty deployment', () => {
  const KEY = 'sk_live_0123456789abcdef';
  const BIG = Buffer.from(JSON.stringify({ id: 8, name: 'x'.repeat(3 * 1024 * 1024), categoryId: 1 }));
  const BOMB = gzipSync(Buffer.alloc(20 * 1024 * 1024, ' '));
  const SUNSET = { Deprecation: '@1735689600', Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' };
  let upstream: Awaited<ReturnType<typeof testUpstream>>;
  let proxy: RunningMock;
  const log = capturedLogger();

  beforeAll(async () => {
    upstream = await testUpstream((request, response) => {
      const route = `${request.method} ${request.url}`;
      if (route === 'GET /v1/pets') {
        response.writeHead(418, 'Short And Stout', { 'Content-Type': 'text/plain' });
        response.end('teapot');
      } else if (route === 'GET /v1/pets/7') json(response, 200, '{"id":7,"name":5,"categoryId":1}', SUNSET);
      else if (route === 'GET /v1/pets/8') json(response, 200, BIG, SUNSET);
      else if (route === 'GET /v1/pets/9') json(response, 200, BOMB, { ...SUNSET, 'Content-Encoding': 'gzip' });
      else if (route === 'GET /v1/pets?status=sold')
        json(
          response,
          200,
          Array.from({ length: 500 }, (_, id) => ({ id, name: id, categoryId: 'é' })),
        );
      else if (route === 'GET /v1/pets/10') {
        response.writeHead(200, {
          ...SUNSET,
          'Content-Type': 'application/json',
          Connection: 'X-Hop',
          'X-Hop': 'hop',
          'X-Kept': 'kept',
          'Set-Cookie': ['a=1', 'b=2'],
        });
        response.end('{"id":10,"name":"Rex","categoryId":1}');
      } else if (route === 'GET /v1/pets/12') {
        // No Content-Type at all: the client must get none either (Koa would name one).
        response.writeHead(200, { ...SUNSET, 'Content-Length': '2' });
        response.end('{}');
      } else if (route === 'POST /v1/pets') {
        response.writeHead(201, { 'Content-Type': 'text/html' });
        response.end('<p>created</p>');
      } else if (route === 'GET /v1/pets/11')
        // Echoes the credential it got, as careless error messages do.
        json(
          response,
          401,
          { code: 'invalid', message: `key ${request.headers.authorization} is not valid`, status: 401 },
          { 'WWW-Authenticate': 'Bearer' },
        );
      else json(response, 404, { code: 'not_found', message: 'nothing here', status: 404 });
    });
    proxy = await startMock({ port: 0, world: false, proxy: upstream.url, logger: log.logger, maxBodyBytes: 1024 });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  const get = (path: string, headers: Record<string, string> = AUTH) => rawRequest(`${proxy.url}${path}`, { headers });

  it('an undocumented status: status-code-conformance, the answer as sent', async () => {
    const answer = await get('/pets');
    expect([answer.status, answer.statusMessage, answer.body.toString()]).toEqual([418, 'Short And Stout', 'teapot']);
    expect(violationsOf(answer)!.map((violation) => violation.rule)).toContain('status-code-conformance');
  });

  it('a body that breaks the schema: response-schema-conformance naming the JSON pointer, in the header and the journal', async () => {
    const answer = await get('/pets/7');
    expect(answer.body.toString()).toBe('{"id":7,"name":5,"categoryId":1}');
    expect(violationsOf(answer)).toEqual([
      {
        location: 'response',
        rule: 'response-schema-conformance',
        severity: 'error',
        message: expect.stringContaining('/name must be string'),
        pointer: '/name',
      },
    ]);
    const journal = (await (await fetch(`${proxy.origin}/__kennel/journal`)).json()) as {
      entries: { url: string; violations?: { rule: string; pointer?: string }[] }[];
    };
    const entry = journal.entries.find((candidate) => candidate.url === '/v1/pets/7');
    expect(entry?.violations).toEqual([
      expect.objectContaining({ rule: 'response-schema-conformance', pointer: '/name' }),
    ]);
    expect(upstream.received.some((request) => request.url.startsWith('/__kennel'))).toBe(false);
  });

  it('a body without Content-Type is relayed without one, and reported', async () => {
    const answer = await get('/pets/12');
    expect(answer.headers['content-type']).toBeUndefined();
    expect(answer.body.toString()).toBe('{}');
    expect(violationsOf(answer)!.map((violation) => violation.rule)).toContain('content-type-conformance');
  });

  it('a wrong content type: content-type-conformance', async () => {
    const answer = await rawRequest(`${proxy.url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"name":"Bella","categoryId":1}',
    });
    expect([answer.status, answer.headers['content-type'], answer.body.toString()]).toEqual([
      201,
      'text/html',
      '<p>created</p>',
    ]);
    expect(violationsOf(answer)).toEqual([
      expect.objectContaining({ rule: 'content-type-conformance', severity: 'error' }),
    ]);
  });

  it('an invalid request is reported and still forwarded, byte for byte', async () => {
    const body = '{"name": 5, "categoryId": 1}';
    const answer = await rawRequest(`${proxy.url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body,
    });
    const request = violationsOf(answer)!.filter((violation) => violation.location === 'request');
    expect(request).toEqual([
      expect.objectContaining({ rule: 'request-body-valid', message: expect.stringContaining('/name') }),
    ]);
    expect(upstream.received.at(-1)!.body.toString()).toBe(body);
    const limit = await get('/pets?limit=0');
    expect(violationsOf(limit)!.find((violation) => violation.location === 'request')).toMatchObject({
      rule: 'request-parameters-valid',
      message: expect.stringContaining('"limit"'),
    });
  });

  it.each([
    ['/v1/nothing', 'GET /v1/nothing is not in the document'],
    ['/elsewhere', 'GET /elsewhere is not in the document (the API lives under /v1)'],
  ])('%s, not in the document, is forwarded and reported', async (path, message) => {
    const answer = await rawRequest(`${proxy.origin}${path}`, { headers: AUTH });
    expect(answer.status).toBe(404);
    expect(upstream.received.at(-1)!.url).toBe(path);
    expect(violationsOf(answer)).toEqual([
      { location: 'request', rule: 'request-operation-documented', severity: 'error', message },
    ]);
  });

  it('a method the path does not document names the documented ones', async () => {
    const answer = await rawRequest(`${proxy.url}/pets`, { method: 'DELETE', headers: AUTH });
    expect(violationsOf(answer)![0]!.message).toBe('DELETE is not documented for /v1/pets (documented: GET, POST)');
  });

  it('a body past the validation limit streams through whole and is said to be unchecked', async () => {
    const answer = await get('/pets/8');
    expect(answer.body.equals(BIG)).toBe(true);
    expect(answer.headers['content-length']).toBe(String(BIG.length));
    expect(violationsOf(answer)).toEqual([
      expect.objectContaining({ rule: 'response-body-checked', severity: 'warning' }),
    ]);
  });

  it('a compression bomb is not inflated past the limit; the client gets the compressed bytes as sent', async () => {
    const answer = await get('/pets/9');
    expect(answer.body.equals(BOMB)).toBe(true);
    expect(violationsOf(answer)).toEqual([
      expect.objectContaining({
        rule: 'response-body-checked',
        message: expect.stringContaining('decompresses to more than'),
      }),
    ]);
  });

  it('a request body past --max-body is forwarded whole, unvalidated', async () => {
    const body = JSON.stringify({ name: 'n'.repeat(200_000), categoryId: 1 });
    const answer = await rawRequest(`${proxy.url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body,
    });
    expect(upstream.received.at(-1)!.body.toString()).toBe(body);
    expect(violationsOf(answer)).toContainEqual(
      expect.objectContaining({ rule: 'request-body-checked', severity: 'warning' }),
    );
  });

  it('thousands of faults: the header stays printable ASCII under its bound, the journal keeps a capped list', async () => {
    const answer = await get('/pets?status=sold');
    const header = String(answer.headers['kennel-violations']);
    expect(header.length).toBeLessThanOrEqual(MAX_HEADER_CHARS);
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(header).at(-1)).toMatchObject({ rule: 'more-violations' });
  });

  it('drops hop-by-hop headers both ways, rewrites Host, adds Via', async () => {
    const answer = await rawRequest(`${proxy.url}/pets/10`, {
      headers: {
        ...AUTH,
        Connection: 'X-Client-Hop',
        'X-Client-Hop': '1',
        'Proxy-Authorization': 'Basic eDp5',
        'X-End': 'end',
      },
    });
    expect(answer.headers['x-hop']).toBeUndefined();
    expect(answer.headers['x-kept']).toBe('kept');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    const seen = upstream.received.at(-1)!.headers;
    expect(seen['x-client-hop']).toBeUndefined();
    expect(seen['proxy-authorization']).toBeUndefined();
    expect(seen['x-end']).toBe('end');
    expect(seen.host).toBe(new URL(upstream.url).host);
    expect(seen.via).toBe('1.1 kennel');
  });

  it('credentials are passed through but never logged, journaled or reported, even when echoed back', async () => {
    const headers = { authorization: `Bearer ${KEY}`, 'x-api-key': KEY };
    const echoed = await get('/pets/11', headers);
    expect(echoed.body.toString()).toContain(KEY);
    await rawRequest(`${proxy.url}/${KEY}?api_key=${KEY}`, { headers });
    expect(upstream.received.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(upstream.received.at(-1)!.url).toContain(KEY);
    const journal = await (await fetch(`${proxy.origin}/__kennel/journal`)).text();
    expect(journal).toContain('[credential]');
    for (const shown of [journal, log.text(), proxy.proxy!.summaryText()]) expect(shown).not.toContain(KEY);
  });

  it('counts every exchange per operation and per rule', () => {
    const summary = proxy.proxy!.tally.toJSON();
    expect(summary.operations.getPet!.exchanges).toBeGreaterThanOrEqual(5);
    expect(summary.rules['response-schema-conformance']!.severity).toBe('error');
    expect(proxy.proxy!.summaryText()).toMatch(/getPet +\d+\/\d+: .*response-schema-conformance ×\d+/);
  });
});

describe('proxy mode with the upstream down', () => {
  it('answers 502 naming the upstream, reports it, and keeps serving', async () => {
    const port = await freePort();
    const proxy = await startMock({ port: 0, world: false, proxy: `http://127.0.0.1:${port}/base/` });
    try {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const answer = await rawRequest(`${proxy.url}/pets`, { headers: AUTH });
        expect(answer.status).toBe(502);
        expect(JSON.parse(answer.body.toString())).toEqual({
          code: 'bad_gateway',
          message: `The upstream http://127.0.0.1:${port}/base could not be reached: connection refused`,
          status: 502,
        });
        expect(violationsOf(answer)).toEqual([
          expect.objectContaining({ location: 'upstream', rule: 'upstream-reachable' }),
        ]);
      }
      expect((await fetch(`${proxy.origin}/__kennel/health`)).status).toBe(200);
    } finally {
      await proxy.close();
    }
  });
});

describe('proxy mode whose upstream leads back to itself (a loop)', () => {
  it('answers 508 naming the loop after a few hops, instead of relaying until the headers overflow', async () => {
    let proxyOrigin = '';
    // A relay that sends every request back to the proxy, headers (Via) and all.
    const relay = await testUpstream((seen, response) => {
      const { host: _host, connection: _connection, ...headers } = seen.headers as Record<string, string>;
      void rawRequest(`${proxyOrigin}${seen.url}`, { method: seen.method, headers, body: seen.body }).then(
        (answer) => json(response, answer.status, answer.body),
        () => response.destroy(),
      );
    });
    const proxy = await startMock({ port: 0, world: false, proxy: relay.url });
    proxyOrigin = proxy.origin;
    try {
      const answer = await rawRequest(`${proxy.url}/pets`, { headers: AUTH });
      expect(answer.status).toBe(508);
      expect(JSON.parse(answer.body.toString())).toMatchObject({
        code: 'proxy_loop',
        message: expect.stringContaining(`--proxy ${relay.url}`),
      });
      expect(relay.received.length).toBeLessThanOrEqual(8);
    } finally {
      await proxy.close();
      await relay.close();
    }
  });
});

describe('proxy mode with a silent upstream', () => {
  it('answers 504 after --proxy-timeout, naming the upstream', async () => {
    let received = 0;
    const upstream = await testUpstream(() => {
      received += 1; // Never answers.
    });
    const proxy = await startMock({ port: 0, world: false, proxy: upstream.url, proxyTimeoutMs: 300 });
    try {
      const started = performance.now();
      const answer = await rawRequest(`${proxy.url}/pets`, { headers: AUTH });
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(JSON.parse(answer.body.toString())).toEqual({
        code: 'gateway_timeout',
        message: `The upstream ${upstream.url} did not answer within 300 ms (--proxy-timeout)`,
        status: 504,
      });
      expect(answer.status).toBe(504);
      // A client that gives up first broke nothing: only the 504 counts.
      const impatient = request(`${proxy.url}/pets`, { headers: AUTH });
      impatient.on('error', () => {});
      impatient.end();
      await waitUntil(
        () => received === 2,
        () => 'the impatient request to reach the upstream',
      );
      impatient.destroy();
      // Through the whole --proxy-timeout and beyond, the request given up on is not counted.
      await holdsThroughout(
        () => proxy.proxy!.tally.toJSON().rules['upstream-reachable']?.count === 1,
        400,
        () => `only the 504 counts: ${JSON.stringify(proxy.proxy!.tally.toJSON().rules)}`,
      );
      expect(proxy.proxy!.tally.toJSON().rules).toEqual({ 'upstream-reachable': { count: 1, severity: 'error' } });
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});

describe('proxy mode when a side breaks off a streamed body', () => {
  const MB = 1024 * 1024;
  let upstreamGone: Promise<void>;
  let upstream: Awaited<ReturnType<typeof testUpstream>>;
  let proxy: RunningMock;
  const log = capturedLogger();
  const printed = vi.spyOn(console, 'error');

  beforeAll(async () => {
    let markGone!: () => void;
    upstreamGone = new Promise((resolve) => (markGone = resolve));
    upstream = await testUpstream((request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(3 * MB) });
      response.write(Buffer.alloc(2 * MB, 32));
      if (request.url === '/v1/pets/1') setTimeout(() => response.socket!.destroy(), 50);
      else response.on('close', () => (response.writableFinished ? undefined : markGone()));
    });
    proxy = await startMock({ port: 0, world: false, proxy: upstream.url, logger: log.logger });
  });
  afterAll(async () => {
    printed.mockRestore();
    await proxy.close();
    await upstream.close();
  });

  it('the upstream breaking off cuts the client off too, with a warning and no stack trace', async () => {
    await expect(rawRequest(`${proxy.url}/pets/1`, { headers: AUTH })).rejects.toThrow(/aborted/);
    expect((await fetch(`${proxy.origin}/__kennel/health`)).status).toBe(200);
    expect(log.text()).toContain('the upstream broke off its answer');
    expect(printed).not.toHaveBeenCalled();
  });

  it('the client going away stops the download from the upstream', async () => {
    await new Promise<void>((resolve, reject) => {
      const outgoing = request(`${proxy.url}/pets/2`, { headers: AUTH }, (response) => {
        response.once('data', () => {
          outgoing.destroy();
          resolve();
        });
      });
      outgoing.on('error', () => {});
      outgoing.end();
      setTimeout(() => reject(new Error('no data')), 5_000);
    });
    await upstreamGone;
    expect(printed).not.toHaveBeenCalled();
  });

  it('the client going away mid-upload leaves kennel serving', async () => {
    const outgoing = request(`${proxy.url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json', 'content-length': String(10 * MB) },
    });
    outgoing.on('error', () => {});
    await new Promise((resolve) => outgoing.write(Buffer.alloc(512 * 1024, 32), resolve));
    const closed = new Promise((resolve) => outgoing.once('close', resolve));
    outgoing.destroy();
    await closed;
    expect((await fetch(`${proxy.origin}/__kennel/health`)).status).toBe(200);
    expect(printed).not.toHaveBeenCalled();
  });
});

describe('proxy mode on kept-alive upstream connections', () => {
  it('retries once, on a new connection, a request whose reused connection the upstream had closed', async () => {
    const served = new WeakMap<object, number>();
    const upstream = await testUpstream((_request, response) => {
      const socket = response.socket!;
      const count = (served.get(socket) ?? 0) + 1;
      served.set(socket, count);
      // The second request on a connection finds it closed, as when an idle timeout races a reuse.
      if (count > 1) socket.destroy();
      else json(response, 200, [{ id: 1, name: 'Rex', categoryId: 1 }]);
    });
    const proxy = await startMock({ port: 0, world: false, proxy: upstream.url });
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const answer = await rawRequest(`${proxy.url}/pets`, { headers: AUTH });
        expect([answer.status, answer.headers['kennel-violations']]).toEqual([200, undefined]);
      }
      expect(upstream.received).toHaveLength(5);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});
