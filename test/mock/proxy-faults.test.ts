// kennel serve --proxy in front of a faulty deployment: each fault is reported by the check it
// breaks, in the Kennel-Violations header and the journal, and the answer is relayed as sent.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { MAX_HEADER_CHARS } from '../../src/mock/respond/violation.js';
import { TEST_KEY } from '../helpers/mock-client.js';
import { capturedLogger, json, rawRequest, testUpstream, violationsOf } from './proxy-helpers.js';

const AUTH = { authorization: `Bearer ${TEST_KEY}` };

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
