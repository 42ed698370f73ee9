import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, type TestMock } from '../helpers/mock-client.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock({ pets: 3, httpTimeouts: { headersMs: 400, requestMs: 800 } });
});
afterAll(() => mock.close());

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
  /** The server closed the connection after answering. */
  closed: boolean;
  /** Everything the server sent. */
  text: string;
}

/** Writes each part, pausing `pauseMs` after each (a slow client). */
async function writeParts(socket: Socket, parts: readonly string[], pauseMs: number): Promise<void> {
  for (const part of parts) {
    socket.write(part);
    if (pauseMs) await new Promise((done) => setTimeout(done, pauseMs));
  }
}

/** Sends raw bytes and reads until the server closes or 3 s pass. */
function raw(payload: string | string[], pauseMs = 0): Promise<RawAnswer> {
  const { port } = new URL(mock.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.slice(9, 12)), headers: head, body, closed, text });
    };
    const timer = setTimeout(() => finish(false), 3000);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('end', () => finish(true));
    socket.on('error', (error) => (text ? finish(true) : reject(error)));
    const parts = Array.isArray(payload) ? payload : [payload];
    socket.on('connect', () => void writeParts(socket, parts, pauseMs));
  });
}

const AUTH = 'Authorization: Bearer test-key-1\r\n';
const PET = '{"name":"Framed","categoryId":1}';
const chunked = (body: string) => `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
const post = (headers: string, body: string) =>
  `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\n${headers}\r\n${body}`;

/** [label, raw request, status, code, words in the message] */
const refused: [string, string, number, string, string[]][] = [
  [
    'HTTP/2.0 in the request line',
    `GET /v1/pets HTTP/2.0\r\nHost: x\r\n${AUTH}\r\n`,
    400,
    'unsupported_http_version',
    ['HTTP/2.0'],
  ],
  [
    'HTTP/0.9 in the request line',
    `GET /v1/pets HTTP/0.9\r\nHost: x\r\n${AUTH}\r\n`,
    400,
    'unsupported_http_version',
    ['HTTP/0.9'],
  ],
  [
    'two Host headers',
    `GET /v1/pets HTTP/1.1\r\nHost: a\r\nHost: b\r\n${AUTH}\r\n`,
    400,
    'bad_request',
    ['2 Host headers'],
  ],
  ['no Host header in HTTP/1.1', `GET /v1/pets HTTP/1.1\r\n${AUTH}\r\n`, 400, 'bad_request', ['no Host header']],
  [
    'a Host that is not a host',
    `GET /v1/pets HTTP/1.1\r\nHost: <b>x</b>\r\n${AUTH}\r\n`,
    400,
    'bad_request',
    ['Host header'],
  ],
  [
    'an unknown Expect',
    `GET /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n${AUTH}\r\n`,
    417,
    'expectation_failed',
    ['"teapot"'],
  ],
  [
    'Transfer-Encoding: gzip, chunked',
    post('Transfer-Encoding: gzip, chunked\r\n', chunked(PET)),
    400,
    'unsupported_transfer_coding',
    ['gzip, chunked'],
  ],
  [
    'Transfer-Encoding: gzip alone',
    post('Transfer-Encoding: gzip\r\n', PET),
    400,
    'bad_request',
    ['Transfer-Encoding'],
  ],
  [
    'Transfer-Encoding with Content-Length',
    post(`Transfer-Encoding: chunked\r\nContent-Length: 5\r\n`, chunked(PET)),
    400,
    'bad_request',
    ['Content-Length'],
  ],
  [
    'two Content-Length headers',
    post(`Content-Length: ${PET.length}\r\nContent-Length: ${PET.length}\r\n`, PET),
    400,
    'bad_request',
    ['Content-Length'],
  ],
  ['CONNECT', 'CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n\r\n', 405, 'method_not_allowed', ['CONNECT']],
  ['a lower-case method', `get /v1/pets HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`, 400, 'bad_request', ['method']],
];

describe('request framing: refused with an Error body, the connection closed, nothing stored', () => {
  it.each(refused)('%s', async (_label, request, status, code, words) => {
    const before = await mock.request('GET', '/pets?limit=100');
    const answer = await raw(request);
    expect(answer.status, answer.headers).toBe(status);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    const body = JSON.parse(answer.body);
    expect(body).toEqual({ code, message: expect.any(String), status });
    for (const word of words) expect(body.message).toContain(word);
    expect(answer.closed).toBe(true);
    expect((await mock.request('GET', '/pets?limit=100')).text).toBe(before.text);
  });

  it.each([
    ['HTTP/1.0 without Host', `GET /v1/pets?limit=1 HTTP/1.0\r\n${AUTH}\r\n`, 200],
    [
      'Host with a port',
      `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1:4010\r\n${AUTH}Connection: close\r\n\r\n`,
      200,
    ],
    ['an IPv6 Host', `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: [::1]:80\r\n${AUTH}Connection: close\r\n\r\n`, 200],
    [
      'Transfer-Encoding: Chunked in another case',
      post('Transfer-Encoding: Chunked\r\nConnection: close\r\n', chunked(PET)),
      201,
    ],
    [
      'Expect: 100-continue',
      post(`Expect: 100-continue\r\nContent-Length: ${PET.length}\r\nConnection: close\r\n`, PET),
      201,
    ],
  ])('accepts %s', async (_label, request, status) => {
    const answer = await raw(request);
    expect(answer.text).toMatch(new RegExp(`^HTTP/1\\.1 ${status} |\r\n\r\nHTTP/1\\.1 ${status} `));
  });
});

describe('bodies answered before they arrive whole', () => {
  it('a small declared body refused first (no credentials) is dropped and the connection kept', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${PET.length}\r\n\r\n`;
    const next = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\n${AUTH}Connection: close\r\n\r\n`;
    const answer = await raw([head, PET, next], 100);
    expect(answer.status).toBe(401);
    expect(answer.headers).not.toMatch(/connection: close/i);
    // The body was read and dropped, not taken for the next request, which is answered on the same connection.
    expect(answer.text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 401', 'HTTP/1.1 200']);
  });

  it('a chunked body refused first ends its connection: its length is unknown', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const answer = await raw([head, chunked(PET)], 100);
    expect(answer.status).toBe(401);
    expect(answer.headers).toMatch(/connection: close/i);
    expect(answer.closed).toBe(true);
  });

  it('a body far over the limit gets its 400 and the connection closed, never read as the next request', async () => {
    const head = post(`Content-Length: 2000000\r\n`, '');
    const answer = await raw([head, '{"name":"', 'x'.repeat(100_000)]);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).code).toBe('payload_too_large');
    expect(answer.headers).toMatch(/connection: close/i);
    expect(answer.closed).toBe(true);
  });
});

describe('slow clients', () => {
  it('drops a client that trickles its headers, with a 408 Error body', async () => {
    const lines = [`GET /v1/pets HTTP/1.1\r\n`, 'Host: x\r\n', 'X-A: 1\r\n', 'X-B: 1\r\n', 'X-C: 1\r\n', 'X-D: 1\r\n'];
    const answer = await raw(lines, 300);
    expect(answer.closed).toBe(true);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'request_timeout', status: 408 });
  });

  it('drops a client that trickles its body', async () => {
    const head = post(`Content-Length: ${PET.length}\r\n`, '');
    const answer = await raw([head, ...PET.split('')], 150);
    expect(answer.closed).toBe(true);
    expect(answer.status).toBe(408);
  });
});
