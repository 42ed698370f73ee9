// Bad parameters, paths, methods, Prefer headers and HTTP framing: each gets a 4xx Error naming
// the problem, never a 5xx, and leaves the store unchanged (bad-input.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { expectErrorBody, type TestMock } from '../helpers/mock-client.js';
import { expectRefused, JSON_TYPE, startBadInputMock, type BadInput } from './bad-input.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startBadInputMock();
});
afterAll(() => mock.close());

const REQUESTS: BadInput[] = [
  {
    label: 'limit=0',
    method: 'GET',
    path: '/pets?limit=0',
    status: 400,
    code: 'invalid_parameter',
    words: ['"limit"', '>= 1'],
  },
  {
    label: 'limit=101',
    method: 'GET',
    path: '/pets?limit=101',
    status: 400,
    code: 'invalid_parameter',
    words: ['"limit"', '<= 100'],
  },
  {
    label: 'limit=-5',
    method: 'GET',
    path: '/pets?limit=-5',
    status: 400,
    code: 'invalid_parameter',
    words: ['"limit"'],
  },
  {
    label: 'limit=abc',
    method: 'GET',
    path: '/pets?limit=abc',
    status: 400,
    code: 'invalid_parameter',
    words: ['"limit"', 'integer'],
  },
  {
    label: 'limit=1.5',
    method: 'GET',
    path: '/pets?limit=1.5',
    status: 400,
    code: 'invalid_parameter',
    words: ['"limit"'],
  },
  {
    label: 'limit empty',
    method: 'GET',
    path: '/pets?limit=',
    status: 400,
    code: 'invalid_parameter',
    words: ['"limit"'],
  },
  {
    label: 'limit repeated',
    method: 'GET',
    path: '/pets?limit=1&limit=2',
    status: 400,
    code: 'invalid_parameter',
    words: ['"limit"', 'once'],
  },
  {
    label: 'limit huge',
    method: 'GET',
    path: '/pets?limit=99999999999999999999999',
    status: 400,
    code: 'invalid_parameter',
    words: ['"limit"'],
  },
  {
    label: 'status unknown',
    method: 'GET',
    path: '/pets?status=lost',
    status: 400,
    code: 'invalid_parameter',
    words: ['"status"', 'available'],
  },
  {
    label: 'status empty',
    method: 'GET',
    path: '/pets?status=',
    status: 400,
    code: 'invalid_parameter',
    words: ['"status"'],
  },
  {
    label: 'status and limit both bad',
    method: 'GET',
    path: '/pets?status=x&limit=0',
    status: 400,
    code: 'invalid_parameter',
    words: ['"status"', '"limit"'],
  },
  {
    label: 'malformed percent-encoding in the id',
    method: 'GET',
    path: '/pets/%E0%A4%A',
    status: 404,
    code: 'not_found',
    words: ['%E0%A4%A'],
  },
  { label: 'unknown path', method: 'GET', path: '/cats', status: 404, code: 'not_found', words: ['/v1/cats'] },
  { label: 'path outside the base path', method: 'GET', path: '/../pets', status: 404, code: 'not_found', words: [] },
  {
    label: 'DELETE on the collection',
    method: 'DELETE',
    path: '/pets',
    status: 405,
    code: 'method_not_allowed',
    words: ['GET', 'POST'],
  },
  {
    label: 'PUT on an item',
    method: 'PUT',
    path: '/pets/1',
    headers: JSON_TYPE,
    body: '{}',
    status: 405,
    code: 'method_not_allowed',
    words: ['GET'],
  },
  {
    label: 'PATCH on orders',
    method: 'PATCH',
    path: '/store/orders',
    status: 405,
    code: 'method_not_allowed',
    words: ['GET'],
  },
  {
    label: 'Prefer an undocumented status',
    method: 'GET',
    path: '/pets',
    headers: { prefer: 'code=418' },
    status: 400,
    code: 'invalid_prefer',
    words: ['418', '200, 401'],
  },
  {
    label: 'Prefer an unknown example',
    method: 'GET',
    path: '/pets',
    headers: { prefer: 'example=nope' },
    status: 400,
    code: 'invalid_prefer',
    words: ['nope', 'two-pets'],
  },
  {
    label: 'Prefer a garbled code',
    method: 'GET',
    path: '/pets',
    headers: { prefer: 'code=abc' },
    status: 400,
    code: 'invalid_prefer',
    words: [],
  },
];

describe('a bad request: a 4xx Error naming the problem, never a 5xx, and the store unchanged', () => {
  it.each(REQUESTS)('$label', (input) => expectRefused(mock, input));

  it('answers oversized headers with an Error body', async () => {
    const response = await rawHttp(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    expect(response).toMatch(/^HTTP\/1\.1 431/);
    expect(response).toContain('"code":"headers_too_large"');
  });

  it('answers a broken request line with an Error body', async () => {
    const response = await rawHttp('THIS IS NOT HTTP\r\n\r\n');
    expect(response).toMatch(/^HTTP\/1\.1 400/);
    expect(response).toContain('"status":400');
  });

  it.each([
    ['a 5,000-digit limit', 'GET', `/pets?limit=${'1'.repeat(5000)}`, undefined],
    ['a 12,000-character path', 'GET', `/pets/${'1'.repeat(12_000)}`, undefined],
    ['an unknown 12,000-character path', 'GET', `/${'a'.repeat(12_000)}`, undefined],
  ])('quotes at most a short piece of %s in its message', async (_label, method, path, body) => {
    const exchange = await mock.request(method, path, { body });
    expect(exchange.status).toBeGreaterThanOrEqual(400);
    expect(exchange.status).toBeLessThan(500);
    expectErrorBody(exchange);
    expect(exchange.body.message.length).toBeLessThan(600);
  });

  it('keeps serving after all of that', async () => {
    const exchange = await mock.request('GET', '/pets/1');
    expect(exchange.status).toBe(200);
  });
});

function rawHttp(payload: string): Promise<string> {
  const { port } = new URL(mock.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(payload));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', (error) => (text ? resolve(text) : reject(error)));
  });
}
