import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient, MAX_RESPONSE_BYTES, RunStopped, retryAfterMs } from '../../src/contract/transport/http-client.js';
import type { PlannedOperation } from '../../src/contract/prepare/plan.js';
import { freePort } from '../helpers/cli.js';
import { gzipBombServer, neverEndingServer, streamingServer, type TestServer } from './hostile-servers.js';
import { waitUntil } from '../helpers/wait.js';

const operation = {
  id: 'listThings',
  parameters: [],
  operation: {
    method: 'get',
    path: '/things',
    responses: [],
    security: { requirements: [{ bearer: [] }], schemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  },
} as unknown as PlannedOperation;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => new Promise((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

function client(baseUrl: string, overrides: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}): HttpClient {
  return new HttpClient({
    baseUrl,
    apiKey: 'key',
    headers: { 'X-Trace': 'run-1' },
    timeoutMs: 2000,
    concurrency: 4,
    rateLimit: 0,
    maxRetries: 3,
    maxRetryAfterMs: 5000,
    ...overrides,
  });
}

describe('HttpClient', () => {
  it.each([
    ['with a Content-Length', true],
    ['streamed without one', false],
  ])('refuses a response body over the limit (%s) and says so; one at the limit is read', async (_label, declared) => {
    const url = await serve((request, response) => {
      const size = request.url?.endsWith('/at') ? 1000 : 1001;
      if (declared) response.setHeader('content-length', size);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(`"${'x'.repeat(size - 2)}`);
      response.end('"');
    });
    const http = client(url, { maxResponseBytes: 1000 });
    const over = await http.send({
      operation,
      intent: 'positive',
      purpose: 'too big',
      pathParams: {},
      query: {},
    } as never);
    expect(over.error).toBe(
      `status 200, but the body is larger than 1000 bytes (${declared ? 'Content-Length 1001' : 'streamed'}): kennel stopped reading it (--max-response-size)`,
    );
    expect(over.response).toBeUndefined();
    const at = await http.send({
      operation: { ...operation, operation: { ...operation.operation, path: '/at' } },
      intent: 'positive',
      purpose: 'at the limit',
      pathParams: {},
      query: {},
    } as never);
    expect(at.response?.text.length).toBe(1000);
  });

  it('sends the key as a Bearer token plus extra headers, and keeps the exchange', async () => {
    let seen: IncomingMessage['headers'] = {};
    const url = await serve((request, response) => {
      seen = request.headers;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"big":9223372036854775807}');
    });
    const exchange = await client(url).send({ operation, intent: 'valid', purpose: 'test', query: { a: 'b c' } });
    expect(seen.authorization).toBe('Bearer key');
    expect(seen['x-trace']).toBe('run-1');
    expect(exchange.request.url).toBe(`${url}/things?a=b+c`);
    expect(exchange.response?.json).toMatchObject({ ok: true, value: { big: 9223372036854775807n } });
  });

  it('honours Retry-After on 429 and 503, then returns the final answer', async () => {
    let calls = 0;
    const url = await serve((_request, response) => {
      calls += 1;
      if (calls === 1) response.writeHead(429, { 'retry-after': '0' }).end();
      else if (calls === 2) response.writeHead(503, { 'retry-after': new Date(Date.now() - 1000).toUTCString() }).end();
      else response.writeHead(200).end('[]');
    });
    const exchange = await client(url).send({ operation, intent: 'valid', purpose: 'test' });
    expect(calls).toBe(3);
    expect(exchange.response?.status).toBe(200);
  });

  it('gives up after the retries, and does not wait longer than allowed', async () => {
    let calls = 0;
    const url = await serve((_request, response) => {
      calls += 1;
      response.writeHead(429, { 'retry-after': calls === 1 ? '0' : '3600' }).end();
    });
    const exchange = await client(url).send({ operation, intent: 'valid', purpose: 'test' });
    expect(exchange.response?.status).toBe(429);
    expect(calls).toBe(2);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const url = await serve((_request, response) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        response.writeHead(200).end('[]');
      }, 20);
    });
    const http = client(url, { concurrency: 2 });
    await Promise.all(Array.from({ length: 8 }, () => http.send({ operation, intent: 'valid', purpose: 'test' })));
    expect(most).toBe(2);
  });

  it('spaces requests to the rate limit', async () => {
    let answered = 0;
    const url = await serve((_request, response) => {
      answered += 1;
      response.writeHead(200).end('[]');
    });
    const http = client(url, { rateLimit: 20 });
    // Measured by the client: on a busy machine the first request's connection set-up would eat
    // into gaps measured where the server receives them.
    const started = performance.now();
    for (let index = 0; index < 5; index += 1) await http.send({ operation, intent: 'valid', purpose: 'test' });
    expect(answered).toBe(5);
    const spanned = performance.now() - started;
    expect(spanned, '5 requests at 20 per second span 4 gaps of 50 ms').toBeGreaterThanOrEqual(190);
  });

  it('reports a timeout and a refused connection as errors, not responses', async () => {
    const url = await serve(() => undefined);
    const slow = await client(url, { timeoutMs: 100 }).send({ operation, intent: 'valid', purpose: 'test' });
    expect(slow.error).toBe('no response within 100 ms');
    expect(slow.response).toBeUndefined();
    const refused = await client(`http://127.0.0.1:${await freePort()}/v1`).send({
      operation,
      intent: 'valid',
      purpose: 'test',
    });
    expect(refused.error).toBe('connection refused');
  });
});

describe('HttpClient against hostile deployments', () => {
  let hostile: TestServer | undefined;
  afterEach(async () => {
    await hostile?.close();
    hostile = undefined;
  });

  it('reads up to 10 MB by default', () => {
    expect(MAX_RESPONSE_BYTES).toBe(10 * 1024 * 1024);
  });

  it('times out a body that never ends: the timeout covers the body, not only the headers', async () => {
    hostile = await neverEndingServer();
    const exchange = await client(hostile.url, { timeoutMs: 300 }).send({
      operation,
      intent: 'valid',
      purpose: 'test',
    });
    expect(exchange.error).toBe('status 200, but the body did not end within 300 ms');
    expect(exchange.response).toBeUndefined();
  });

  it('reads several large bodies at once (one grows past 1 MB at a time), every one complete', async () => {
    hostile = await streamingServer(3);
    const http = client(hostile.url, { concurrency: 4 });
    const exchanges = await Promise.all(
      Array.from({ length: 6 }, () => http.send({ operation, intent: 'valid', purpose: 'test' })),
    );
    expect(exchanges.map((exchange) => exchange.response?.size)).toEqual(Array(6).fill(3 * 1024 * 1024));
  });

  it('stops a 50 MB body at the limit', async () => {
    hostile = await streamingServer(50);
    const exchange = await client(hostile.url, { maxResponseBytes: 1024 * 1024 }).send({
      operation,
      intent: 'valid',
      purpose: 'test',
    });
    expect(exchange.error).toMatch(/^status 200, but the body is larger than 1 MB \(streamed\)/);
  });

  it('stops a gzip bomb at the same limit, counting decompressed bytes', async () => {
    // About 4 MB on the wire, 4 GB decompressed: a limit of 8 MB must stop it.
    hostile = await gzipBombServer(4);
    const http = client(hostile.url, { maxResponseBytes: 8 * 1024 * 1024 });
    const before = process.memoryUsage().rss;
    const exchange = await http.send({ operation, intent: 'valid', purpose: 'test' });
    expect(exchange.error).toMatch(/^status 200, but the body is larger than 8 MB \(decompressed\)/);
    // 4 GB decompressed would not fit in this process; what was read stays near the limit.
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('stops at once when the run is stopped: requests in flight, queued and later ones throw RunStopped', async () => {
    hostile = await neverEndingServer();
    const stopper = new AbortController();
    const http = client(hostile.url, { timeoutMs: 60_000, concurrency: 1, signal: stopper.signal });
    const inFlight = http.send({ operation, intent: 'valid', purpose: 'in flight' });
    const queued = http.send({ operation, intent: 'valid', purpose: 'queued' });
    await waitUntil(
      () => hostile!.requests.length > 0,
      () => 'the first request to arrive',
    );
    stopper.abort('interrupted by SIGINT');
    await expect(inFlight).rejects.toThrow(RunStopped);
    await expect(queued).rejects.toThrow('interrupted by SIGINT');
    await expect(http.send({ operation, intent: 'valid', purpose: 'later' })).rejects.toThrow(RunStopped);
    expect(hostile.requests).toHaveLength(1);
  });
});

describe('retryAfterMs', () => {
  it.each([
    [429, '2', 2000],
    [503, 'Wed, 21 Oct 2015 07:28:10 GMT', 10_000],
    [429, undefined, undefined],
    [500, '2', undefined],
    [429, 'soon', undefined],
  ])('%i with %s', (status, header, expected) => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(retryAfterMs({ status, headers: header === undefined ? {} : { 'retry-after': header } }, now)).toBe(
      expected,
    );
  });
});
