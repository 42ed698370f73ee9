import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { startTestMock, expectConforms, expectErrorBody, type TestMock } from '../helpers/mock-client.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock({ pets: 10, maxBodyBytes: 1024 });
});
afterAll(() => mock.close());

const JSON_TYPE = { 'content-type': 'application/json' };

/** [label, method, path, headers, body, status, code, words the message must contain] */
const cases: [string, string, string, Record<string, string | null>, string | undefined, number, string, string[]][] = [
  [
    'malformed JSON',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name": "Rex",',
    400,
    'malformed_json',
    ['not valid JSON', 'line 1, column 16'],
  ],
  ['truncated JSON', 'POST', '/pets', JSON_TYPE, '{"name":', 400, 'malformed_json', ['value expected', 'column 9']],
  [
    'JSON with a trailing comma',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":"Rex","categoryId":1,}',
    400,
    'malformed_json',
    ['property name expected', 'column 30'],
  ],
  ['empty body', 'POST', '/pets', JSON_TYPE, '', 400, 'invalid_body', ['required']],
  ['whitespace body', 'POST', '/pets', JSON_TYPE, '   ', 400, 'invalid_body', ['required']],
  ['null body', 'POST', '/pets', JSON_TYPE, 'null', 400, 'invalid_body', ['(root)', 'object']],
  [
    'array body',
    'POST',
    '/pets',
    JSON_TYPE,
    '[{"name":"Rex","categoryId":1}]',
    400,
    'invalid_body',
    ['(root)', 'object'],
  ],
  ['string body', 'POST', '/pets', JSON_TYPE, '"Rex"', 400, 'invalid_body', ['(root)']],
  ['number body', 'POST', '/pets', JSON_TYPE, '42', 400, 'invalid_body', ['(root)']],
  [
    'empty object',
    'POST',
    '/pets',
    JSON_TYPE,
    '{}',
    400,
    'invalid_body',
    ['/name is required', '/categoryId is required'],
  ],
  ['missing name', 'POST', '/pets', JSON_TYPE, '{"categoryId":1}', 400, 'invalid_body', ['/name is required']],
  [
    'missing categoryId',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":"Rex"}',
    400,
    'invalid_body',
    ['/categoryId is required'],
  ],
  [
    'name is a number',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":5,"categoryId":1}',
    400,
    'invalid_body',
    ['/name must be string'],
  ],
  ['name is null', 'POST', '/pets', JSON_TYPE, '{"name":null,"categoryId":1}', 400, 'invalid_body', ['/name']],
  [
    'name is an object',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":{"first":"Rex"},"categoryId":1}',
    400,
    'invalid_body',
    ['/name'],
  ],
  [
    'categoryId is a string',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":"Rex","categoryId":"1"}',
    400,
    'invalid_body',
    ['/categoryId must be integer'],
  ],
  [
    'categoryId is fractional',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":"Rex","categoryId":1.5}',
    400,
    'invalid_body',
    ['/categoryId must be integer'],
  ],
  [
    'categoryId above int64',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":"Rex","categoryId":9223372036854775808}',
    400,
    'invalid_body',
    ['/categoryId', 'int64'],
  ],
  [
    'categoryId below int64',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":"Rex","categoryId":-9223372036854775809}',
    400,
    'invalid_body',
    ['/categoryId', 'int64'],
  ],
  [
    'categoryId 1e300',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":"Rex","categoryId":1e300}',
    400,
    'invalid_body',
    ['/categoryId', 'int64'],
  ],
  [
    'categoryId 1.0e-400 (not an integer, though JavaScript reads 0)',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":"Rex","categoryId":1.0e-400}',
    400,
    'invalid_body',
    ['/categoryId must be integer'],
  ],
  [
    'categoryId is boolean',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":"Rex","categoryId":true}',
    400,
    'invalid_body',
    ['/categoryId'],
  ],
  [
    'status outside the enum',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":"Rex","categoryId":1,"status":"adopted"}',
    400,
    'invalid_body',
    ['/status must be one of'],
  ],
  [
    'status in the wrong case',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":"Rex","categoryId":1,"status":"Available"}',
    400,
    'invalid_body',
    ['/status'],
  ],
  [
    'status is null',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":"Rex","categoryId":1,"status":null}',
    400,
    'invalid_body',
    ['/status'],
  ],
  [
    'every field wrong',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":1,"categoryId":"x","status":"x"}',
    400,
    'invalid_body',
    ['/name', '/categoryId', '/status'],
  ],
  [
    'required fields only through __proto__',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"__proto__":{"name":"x","categoryId":1}}',
    400,
    'invalid_body',
    ['/__proto__ is not allowed'],
  ],
  [
    'a __proto__ key beside valid fields, nested',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"name":"Rex","categoryId":1,"tags":[{"__proto__":{"status":"sold"}}]}',
    400,
    'invalid_body',
    ['/tags/0/__proto__'],
  ],
  [
    'a __proto__ key spelt with an escape',
    'POST',
    '/pets',
    JSON_TYPE,
    '{"__pro\\u0074o__":{"name":"x","categoryId":1}}',
    400,
    'invalid_body',
    ['/__proto__'],
  ],
  [
    'objects nested 101 levels',
    'POST',
    '/pets',
    JSON_TYPE,
    `${'{"a":'.repeat(101)}1${'}'.repeat(101)}`,
    400,
    'malformed_json',
    ['nesting deeper than 100 levels', 'column 501'],
  ],
  [
    'arrays nested 500 levels',
    'POST',
    '/pets',
    JSON_TYPE,
    `${'['.repeat(500)}${']'.repeat(500)}`,
    400,
    'malformed_json',
    ['nesting deeper than 100 levels', 'column 101'],
  ],
  [
    'no Content-Type',
    'POST',
    '/pets',
    { 'content-type': null },
    '{"name":"Rex","categoryId":1}',
    400,
    'unsupported_media_type',
    ['Content-Type'],
  ],
  [
    'text/plain body',
    'POST',
    '/pets',
    { 'content-type': 'text/plain' },
    '{"name":"Rex","categoryId":1}',
    400,
    'unsupported_media_type',
    ['text/plain'],
  ],
  [
    'form body',
    'POST',
    '/pets',
    { 'content-type': 'application/x-www-form-urlencoded' },
    'name=Rex&categoryId=1',
    400,
    'unsupported_media_type',
    ['application/x-www-form-urlencoded'],
  ],
  [
    'garbage Content-Type',
    'POST',
    '/pets',
    { 'content-type': '???' },
    '{}',
    400,
    'unsupported_media_type',
    ['Content-Type'],
  ],
  [
    'non-UTF-8 charset',
    'POST',
    '/pets',
    { 'content-type': 'application/json; charset=latin1' },
    '{"name":"Rex","categoryId":1}',
    400,
    'unsupported_media_type',
    ['latin1'],
  ],
  [
    'gzip-encoded body',
    'POST',
    '/pets',
    { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    '{"name":"Rex","categoryId":1}',
    400,
    'unsupported_media_type',
    ['gzip'],
  ],
  [
    'body over the size limit',
    'POST',
    '/pets',
    JSON_TYPE,
    JSON.stringify({ name: 'x'.repeat(5000), categoryId: 1 }),
    400,
    'payload_too_large',
    ['1024'],
  ],
  ['limit=0', 'GET', '/pets?limit=0', {}, undefined, 400, 'invalid_parameter', ['"limit"', '>= 1']],
  ['limit=101', 'GET', '/pets?limit=101', {}, undefined, 400, 'invalid_parameter', ['"limit"', '<= 100']],
  ['limit=-5', 'GET', '/pets?limit=-5', {}, undefined, 400, 'invalid_parameter', ['"limit"']],
  ['limit=abc', 'GET', '/pets?limit=abc', {}, undefined, 400, 'invalid_parameter', ['"limit"', 'integer']],
  ['limit=1.5', 'GET', '/pets?limit=1.5', {}, undefined, 400, 'invalid_parameter', ['"limit"']],
  ['limit empty', 'GET', '/pets?limit=', {}, undefined, 400, 'invalid_parameter', ['"limit"']],
  ['limit repeated', 'GET', '/pets?limit=1&limit=2', {}, undefined, 400, 'invalid_parameter', ['"limit"', 'once']],
  ['limit huge', 'GET', '/pets?limit=99999999999999999999999', {}, undefined, 400, 'invalid_parameter', ['"limit"']],
  ['status unknown', 'GET', '/pets?status=lost', {}, undefined, 400, 'invalid_parameter', ['"status"', 'available']],
  ['status empty', 'GET', '/pets?status=', {}, undefined, 400, 'invalid_parameter', ['"status"']],
  [
    'status and limit both bad',
    'GET',
    '/pets?status=x&limit=0',
    {},
    undefined,
    400,
    'invalid_parameter',
    ['"status"', '"limit"'],
  ],
  ['malformed percent-encoding in the id', 'GET', '/pets/%E0%A4%A', {}, undefined, 404, 'not_found', ['%E0%A4%A']],
  ['unknown path', 'GET', '/cats', {}, undefined, 404, 'not_found', ['/v1/cats']],
  ['path outside the base path', 'GET', '/../pets', {}, undefined, 404, 'not_found', []],
  ['DELETE on the collection', 'DELETE', '/pets', {}, undefined, 405, 'method_not_allowed', ['GET', 'POST']],
  ['PUT on an item', 'PUT', '/pets/1', JSON_TYPE, '{}', 405, 'method_not_allowed', ['GET']],
  ['PATCH on orders', 'PATCH', '/store/orders', {}, undefined, 405, 'method_not_allowed', ['GET']],
  [
    'Prefer an undocumented status',
    'GET',
    '/pets',
    { prefer: 'code=418' },
    undefined,
    400,
    'invalid_prefer',
    ['418', '200, 401'],
  ],
  [
    'Prefer an unknown example',
    'GET',
    '/pets',
    { prefer: 'example=nope' },
    undefined,
    400,
    'invalid_prefer',
    ['nope', 'two-pets'],
  ],
  ['Prefer a garbled code', 'GET', '/pets', { prefer: 'code=abc' }, undefined, 400, 'invalid_prefer', []],
];

const operationFor: Record<string, string> = { 'POST /pets': 'createPet', 'GET /pets': 'listPets' };

describe('bad input: a 4xx Error naming the problem, never a 5xx, and the store unchanged', () => {
  it.each(cases)('%s', async (_label, method, path, headers, body, status, code, words) => {
    const before = await mock.request('GET', '/pets?limit=100');
    const exchange = await mock.request(method, path, { headers, body });
    expect(exchange.status, exchange.text).toBe(status);
    expectErrorBody(exchange);
    expect(exchange.body.code).toBe(code);
    for (const word of words) expect(exchange.body.message).toContain(word);
    const operationId = operationFor[`${method} ${path.split('?')[0]}`];
    if (operationId) expectConforms(mock, operationId, exchange);
    if (status === 405) expect(exchange.headers.get('allow')).toMatch(/GET/);
    const after = await mock.request('GET', '/pets?limit=100');
    expect(after.text).toBe(before.text);
  });

  it('answers a body far over the limit without reading it all, then keeps serving', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(5 * 1024 * 1024), categoryId: 1 });
    const exchange = await mock.request('POST', '/pets', { body: huge });
    expect(exchange.status).toBe(400);
    expect(exchange.body.code).toBe('payload_too_large');
    expect((await mock.request('GET', '/pets')).status).toBe(200);
  });

  it('rejects a chunked body over the limit (no Content-Length)', async () => {
    const url = new URL(`${mock.url}/pets`);
    const result = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${mock.key}`,
            'content-type': 'application/json',
            'transfer-encoding': 'chunked',
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, text }));
        },
      );
      request.on('error', reject);
      request.write('{"name":"');
      request.write('y'.repeat(4096));
      request.end('","categoryId":1}');
    });
    expect(result.status).toBe(400);
    expect(JSON.parse(result.text).code).toBe('payload_too_large');
  });

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
