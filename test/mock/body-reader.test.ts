// kennel's own request body reader (read-body.ts), over raw sockets: bodies in pieces, at the
// limit and one byte past it, and a client that goes away halfway.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, type TestMock } from '../helpers/mock-client.js';

const LIMIT = 256;
let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock({ pets: 3, maxBodyBytes: LIMIT });
});
afterAll(() => mock.close());

interface Sent {
  /** Every answer's status line, in order. */
  statuses: string[];
  text: string;
}

/**
 * True once `received` holds a whole answer that keeps the connection open: its head and the body
 * bytes its Content-Length gives. An answer that closes the connection is whole when the server
 * closes it, so that anything sent after it is seen too.
 */
function wholeKeptAlive(received: Buffer): boolean {
  const headEnd = received.indexOf('\r\n\r\n');
  if (headEnd < 0) return false;
  const head = received.subarray(0, headEnd).toString('latin1');
  const length = /^content-length: *(\d+)/im.exec(head);
  if (!length || /^connection: *close/im.test(head)) return false;
  return received.length - (headEnd + 4) >= Number(length[1]);
}

/**
 * Writes each part 30 ms apart (the pacing is the input: each part arrives in a read of its own),
 * then waits for a whole kept-alive answer, the server to close, or `waitMs`.
 */
function send(parts: readonly string[], { waitMs = 1500, hangUp = false } = {}): Promise<Sent> {
  const { port } = new URL(mock.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = Buffer.alloc(0);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = received.toString();
      resolve({ statuses: text.match(/HTTP\/1\.1 \d{3}/g) ?? [], text });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (wholeKeptAlive(received)) finish();
    });
    socket.on('end', finish);
    socket.on('error', (error) => (received.length > 0 ? finish() : reject(error)));
    const write = async () => {
      for (const part of parts) {
        socket.write(part);
        await new Promise((done) => setTimeout(done, 30));
      }
      if (hangUp) finish();
    };
    socket.on('connect', () => void write());
  });
}

const head = (framing: string) =>
  `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${mock.key}\r\nContent-Type: application/json\r\n${framing}\r\n`;
const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
/** A pet body of exactly `bytes` bytes (a name padded with é, two bytes each in UTF-8, and a).  */
function petOf(bytes: number): string {
  const frame = '{"name":"","categoryId":1}';
  const room = bytes - frame.length;
  const name = 'é'.repeat(Math.floor(room / 2)) + 'a'.repeat(room % 2);
  const body = `{"name":"${name}","categoryId":1}`;
  expect(Buffer.byteLength(body)).toBe(bytes);
  return body;
}

describe('the request body reader', () => {
  it('joins a chunked body sent in pieces, multi-byte characters split between them', async () => {
    const body = Buffer.from('{"name":"Zoé Piècemeal","categoryId":1}');
    const cut = body.indexOf(Buffer.from('é')) + 1; // between the two bytes of é
    const parts = [body.subarray(0, cut), body.subarray(cut, cut + 9), body.subarray(cut + 9)];
    const pieces = parts.map((part) => `${part.length.toString(16)}\r\n${part.toString('latin1')}\r\n`);
    const { port } = new URL(mock.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (data: Buffer) => {
        text += data.toString('utf8');
        if (text.includes('}')) resolve(text);
      });
      const write = async () => {
        socket.write(head('Transfer-Encoding: chunked\r\n'));
        for (const piece of pieces) {
          socket.write(Buffer.from(piece, 'latin1'));
          await new Promise((done) => setTimeout(done, 30));
        }
        socket.end('0\r\n\r\n');
      };
      socket.on('connect', () => void write());
    });
    expect(answer).toMatch(/^HTTP\/1\.1 201/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ name: 'Zoé Piècemeal' });
  });

  it('takes a body of exactly the limit, in pieces and without a length', async () => {
    const body = petOf(LIMIT);
    const answer = await send([
      head('Transfer-Encoding: chunked\r\n'),
      chunk(body.slice(0, 100)),
      chunk(body.slice(100)),
      '0\r\n\r\n',
    ]);
    expect(answer.statuses).toEqual(['HTTP/1.1 201']);
  });

  it('refuses one byte past the limit once it arrives, and ends the connection', async () => {
    const body = petOf(LIMIT + 1);
    const answer = await send([
      head('Transfer-Encoding: chunked\r\n'),
      chunk(body.slice(0, 100)),
      chunk(body.slice(100)),
      '0\r\n\r\n',
    ]);
    expect(answer.statuses).toEqual(['HTTP/1.1 400']);
    expect(answer.text).toContain('"payload_too_large"');
    expect(answer.text).toContain(`larger than the ${LIMIT}-byte limit`);
    expect(answer.text).toMatch(/connection: close/i);
  });

  it('refuses a declared length past the limit, with the same words', async () => {
    const body = petOf(LIMIT + 1);
    const answer = await send([head(`Content-Length: ${LIMIT + 1}\r\n`), body]);
    expect(answer.statuses).toEqual(['HTTP/1.1 400']);
    expect(answer.text).toContain('"payload_too_large"');
  });

  it('forgets a client that hangs up halfway through its body, and keeps serving', async () => {
    const before = await mock.request('GET', '/pets?limit=100');
    await send([head('Content-Length: 40\r\n'), '{"name":"Half'], { hangUp: true });
    await send([head('Transfer-Encoding: chunked\r\n'), chunk('{"name":"Half')], { hangUp: true });
    const after = await mock.request('GET', '/pets?limit=100');
    expect(after.status).toBe(200);
    expect((after.body as unknown[]).length).toBe((before.body as unknown[]).length);
    const created = await mock.request('POST', '/pets', { body: { name: 'Whole', categoryId: 1 } });
    expect(created.status).toBe(201);
  });

  it('reads a body of white space alone as no body, whatever the white space', async () => {
    for (const blank of [' \n\t\r ', '\u00a0\u2003', '']) {
      const answer = await mock.request('POST', '/pets', { body: blank });
      expect(answer.status, JSON.stringify(blank)).toBe(400);
      expect(answer.text).toContain('Request body is required');
    }
    const padded = await mock.request('POST', '/pets', { body: ' \n {"name":"Padded","categoryId":1} ' });
    expect(padded.status).toBe(201);
  });

  it('judges each Content-Type on its own, one accepted before or not', async () => {
    const pet = { name: 'Typed', categoryId: 1 };
    const json = { 'content-type': 'application/json' };
    const latin = { 'content-type': 'application/json; charset=latin1' };
    for (const headers of [json, latin, json, latin]) {
      const answer = await mock.request('POST', '/pets', { headers, body: JSON.stringify(pet) });
      expect(answer.status, headers['content-type']).toBe(headers === json ? 201 : 400);
    }
  });

  it('answers invalid JSON with where it breaks', async () => {
    const body = '{"name": "Broken",}';
    const answer = await send([head(`Content-Length: ${body.length}\r\nConnection: close\r\n`), body]);
    expect(answer.statuses).toEqual(['HTTP/1.1 400']);
    expect(answer.text).toContain('"malformed_json"');
    expect(answer.text).toMatch(/line 1, column \d+/);
  });
});
