// Proxy mode under attack (issue 18): request smuggling through the body of a GET, escapes from
// the upstream's base path, upstream answers that are not HTTP answers, clients that go away.
// Real sockets only: a raw client that writes the bytes as given, real upstream servers.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { TEST_KEY } from '../helpers/mock-client.js';
import { rawExchange, rawJson } from '../helpers/raw-http.js';
import { capturedLogger, json, testUpstream } from './proxy-helpers.js';
import { answerHeadArrives, holdsThroughout, waitUntil } from '../helpers/wait.js';

const AUTH = `Authorization: Bearer ${TEST_KEY}\r\n`;
const SMUGGLED = 'GET /admin HTTP/1.1\r\nHost: x\r\n\r\n';

/** A request line and headers, with a body framed by Content-Length. */
function withLength(method: string, target: string, body: string): string {
  return `${method} ${target} HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

describe('proxy mode forwards exactly the framing it received', () => {
  let upstream: Awaited<ReturnType<typeof testUpstream>>;
  let proxy: RunningMock;

  beforeAll(async () => {
    upstream = await testUpstream((seen, response) =>
      seen.url === '/admin' ? json(response, 200, { secret: 'admin' }) : json(response, 200, []),
    );
    proxy = await startMock({ port: 0, world: false, proxy: upstream.url });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  it.each(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'POST'])(
    'the body of a %s goes upstream with its length, never as a second request',
    async (method) => {
      upstream.received.length = 0;
      const answer = await rawExchange(proxy.origin, withLength(method, '/v1/pets', SMUGGLED));
      expect(answer.status).toBe(200);
      // Whatever the upstream makes of the body, it saw one request, the one the client sent.
      await holdsThroughout(
        () => upstream.received.length === 1,
        100,
        () => `one request upstream, not ${upstream.received.length}`,
      );
      expect(upstream.received.map((seen) => `${seen.method} ${seen.url}`)).toEqual([`${method} /v1/pets`]);
      expect(upstream.received[0]!.headers['content-length']).toBe(String(SMUGGLED.length));
      expect(upstream.received[0]!.body.toString()).toBe(SMUGGLED);
    },
  );

  it('a chunked body on a GET goes upstream whole, with its length', async () => {
    upstream.received.length = 0;
    const chunk = `${SMUGGLED.length.toString(16)}\r\n${SMUGGLED}\r\n0\r\n\r\n`;
    const answer = await rawExchange(
      proxy.origin,
      `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunk}`,
    );
    expect(answer.status).toBe(200);
    expect(upstream.received.map((seen) => seen.url)).toEqual(['/v1/pets']);
    expect(upstream.received[0]!.body.toString()).toBe(SMUGGLED);
  });

  it('the next client gets its own answer, not a smuggled one (10 in 10)', async () => {
    for (let round = 0; round < 10; round += 1) {
      await rawExchange(proxy.origin, withLength('GET', '/v1/pets', SMUGGLED));
      const next = await rawExchange(
        proxy.origin,
        `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}Connection: close\r\n\r\n`,
      );
      expect(rawJson(next)).toEqual([]);
    }
    expect(upstream.received.some((seen) => seen.url === '/admin')).toBe(false);
  });

  it('a request without a body goes without one (no Content-Length invented on a GET)', async () => {
    upstream.received.length = 0;
    await rawExchange(proxy.origin, `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}Connection: close\r\n\r\n`);
    expect(upstream.received[0]!.headers['content-length']).toBeUndefined();
    expect(upstream.received[0]!.headers['transfer-encoding']).toBeUndefined();
  });
});

describe('proxy mode keeps every path under the upstream base path', () => {
  let upstream: Awaited<ReturnType<typeof testUpstream>>;
  let proxy: RunningMock;

  beforeAll(async () => {
    upstream = await testUpstream((_seen, response) => json(response, 200, []));
    proxy = await startMock({ port: 0, world: false, proxy: `${upstream.url}/base` });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  const escapes = [
    '/../admin',
    '/v1/../../admin',
    '/%2e%2e/admin',
    '/%2E%2E/admin',
    '/.%2e/admin',
    '/%2e./admin',
    '/v1/%2e%2e/%2e%2e/admin',
    '/..%2fadmin',
    '/v1/..%2F..%2Fadmin',
    '/..%5cadmin',
    '/..\\admin',
    '/v1/%252e%252e/%252e%252e/admin',
    '/./../admin',
    '/v1/pets/..;/../../admin',
  ];

  it.each(escapes)('%s never reaches a path outside /base upstream, and is answered 400', async (target) => {
    upstream.received.length = 0;
    const answer = await rawExchange(
      proxy.origin,
      `GET ${target} HTTP/1.1\r\nHost: x\r\n${AUTH}Connection: close\r\n\r\n`,
    );
    for (const seen of upstream.received) expect(seen.url.startsWith('/base/')).toBe(true);
    expect(answer.status).toBe(400);
    expect(rawJson(answer)).toMatchObject({ code: 'bad_request', status: 400 });
  });

  it.each([
    ['/v1/./pets', '/base/v1/pets'],
    ['/v1/x/../pets?limit=2', '/base/v1/pets?limit=2'],
    ['/v1/pets/a%2Fb', '/base/v1/pets/a%2Fb'],
    ['/v1/pets/..a', '/base/v1/pets/..a'],
    ['/v1/pets?next=../../admin', '/base/v1/pets?next=../../admin'],
  ])('%s is forwarded as %s', async (target, expected) => {
    upstream.received.length = 0;
    const answer = await rawExchange(
      proxy.origin,
      `GET ${target} HTTP/1.1\r\nHost: x\r\n${AUTH}Connection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    expect(upstream.received.map((seen) => seen.url)).toEqual([expected]);
  });
});

/** A TCP server that reads a request head and answers with whatever `answer` writes. */
async function rawUpstream(answer: (socket: Socket) => void): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (chunk) => {
      if (head.includes('\r\n\r\n')) return;
      head += chunk.toString('latin1');
      if (head.includes('\r\n\r\n')) answer(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const TIMEOUT_MS = 800;

describe('proxy mode answers every upstream failure with a 502 or 504 Error within --proxy-timeout', () => {
  const failures: [string, (socket: Socket) => void, number, RegExp][] = [
    [
      'status 101 to a request that asked no upgrade',
      (socket) => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: evil\r\nConnection: Upgrade\r\n\r\n'),
      502,
      /101/,
    ],
    ['status 000', (socket) => socket.write('HTTP/1.1 000 OK\r\nContent-Length: 0\r\n\r\n'), 502, /000/],
    ['status 999', (socket) => socket.write('HTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n'), 502, /999/],
    ['a reset before any answer', (socket) => socket.resetAndDestroy(), 502, /reset/],
    ['a close before any answer', (socket) => socket.end(), 502, /closed|reset/],
    ['an answer that is not HTTP', (socket) => socket.end('SSH-2.0-OpenSSH\r\n\r\n'), 502, /not HTTP/],
    [
      'a reset in the middle of a held body',
      (socket) => {
        void answerHeadArrives(socket.localPort!).then(() => socket.resetAndDestroy());
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[');
      },
      502,
      /reset|closed/,
    ],
    ['silence', () => {}, 504, new RegExp(`${TIMEOUT_MS} ms`)],
    [
      'an interim 103 and then silence',
      (socket) => socket.write('HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n'),
      504,
      /ms/,
    ],
    [
      'headers trickled one byte at a time, each before the silence bound',
      (socket) => {
        const text = 'HTTP/1.1 200 OK\r\nX-Slow: ' + 'a'.repeat(200);
        let at = 0;
        const timer = setInterval(() => {
          if (socket.destroyed || at >= text.length) return clearInterval(timer);
          socket.write(text[at++]!);
        }, TIMEOUT_MS / 4);
      },
      504,
      /ms/,
    ],
  ];

  it.each(failures)('%s', async (_name, answer, status, words) => {
    const log = capturedLogger();
    const printed = vi.spyOn(console, 'error');
    const upstream = await rawUpstream(answer);
    const proxy = await startMock({
      port: 0,
      world: false,
      proxy: upstream.url,
      proxyTimeoutMs: TIMEOUT_MS,
      logger: log.logger,
    });
    try {
      const exchange = await rawExchange(
        proxy.origin,
        `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}Connection: close\r\n\r\n`,
        TIMEOUT_MS * 4,
      );
      expect(exchange.status, exchange.text).toBe(status);
      expect(exchange.ms).toBeLessThan(TIMEOUT_MS * 2 + 500);
      const body = rawJson(exchange) as { code: string; message: string; status: number };
      expect(body.status).toBe(status);
      expect(body.code).toBe(status === 502 ? 'bad_gateway' : 'gateway_timeout');
      expect(body.message).toMatch(words);
      expect(log.text()).not.toMatch(/"level":50|"stack"/);
      expect(printed).not.toHaveBeenCalled();
      // And it keeps serving.
      expect((await fetch(`${proxy.origin}/__kennel/health`)).status).toBe(200);
    } finally {
      printed.mockRestore();
      await proxy.close();
      await upstream.close();
    }
  });
});

describe('proxy mode logs a client that goes away quietly', () => {
  it.each([
    ['mid-body, under the validation bound', 100],
    ['mid-body, past the validation bound', 200 * 1024],
  ])('%s: no stack, nothing at error level, the journal says 0', async (_name, sent) => {
    const log = capturedLogger();
    const upstream = await testUpstream((_seen, response) => json(response, 201, {}));
    const proxy = await startMock({ port: 0, world: false, proxy: upstream.url, logger: log.logger });
    try {
      const { hostname, port } = new URL(proxy.origin);
      const { connect } = await import('node:net');
      const socket = connect(Number(port), hostname);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n`,
      );
      await new Promise((resolve) => socket.write(Buffer.alloc(sent, 32), resolve));
      socket.destroy();
      await waitUntil(
        () => /"status":0/.test(log.text()),
        () => `the exchange logged with status 0: ${log.text()}`,
      );
      const lines = log.text();
      expect(lines).not.toMatch(/"level":(50|60)/);
      expect(lines).not.toContain('"stack"');
      expect(lines).toMatch(/"status":0/);
      expect((await fetch(`${proxy.origin}/__kennel/health`)).status).toBe(200);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});
