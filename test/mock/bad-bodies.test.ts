// Bad bodies for createPet: JSON syntax, the schema, depth, __proto__, media type, encoding and
// size. Each gets a 4xx Error naming the problem and leaves the store unchanged (bad-input.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import type { TestMock } from '../helpers/mock-client.js';
import { expectRefused, JSON_TYPE, startBadInputMock, type BadInput } from './bad-input.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startBadInputMock();
});
afterAll(() => mock.close());

/** Bodies POSTed to /pets, as application/json unless `headers` say otherwise. */
const BODIES: Omit<BadInput, 'method' | 'path'>[] = [
  {
    label: 'malformed JSON',
    body: '{"name": "Rex",',
    status: 400,
    code: 'malformed_json',
    words: ['not valid JSON', 'line 1, column 16'],
  },
  {
    label: 'truncated JSON',
    body: '{"name":',
    status: 400,
    code: 'malformed_json',
    words: ['value expected', 'column 9'],
  },
  {
    label: 'JSON with a trailing comma',
    body: '{"name":"Rex","categoryId":1,}',
    status: 400,
    code: 'malformed_json',
    words: ['property name expected', 'column 30'],
  },
  { label: 'empty body', body: '', status: 400, code: 'invalid_body', words: ['required'] },
  { label: 'whitespace body', body: '   ', status: 400, code: 'invalid_body', words: ['required'] },
  { label: 'null body', body: 'null', status: 400, code: 'invalid_body', words: ['(root)', 'object'] },
  {
    label: 'array body',
    body: '[{"name":"Rex","categoryId":1}]',
    status: 400,
    code: 'invalid_body',
    words: ['(root)', 'object'],
  },
  { label: 'string body', body: '"Rex"', status: 400, code: 'invalid_body', words: ['(root)'] },
  { label: 'number body', body: '42', status: 400, code: 'invalid_body', words: ['(root)'] },
  {
    label: 'empty object',
    body: '{}',
    status: 400,
    code: 'invalid_body',
    words: ['/name is required', '/categoryId is required'],
  },
  { label: 'missing name', body: '{"categoryId":1}', status: 400, code: 'invalid_body', words: ['/name is required'] },
  {
    label: 'missing categoryId',
    body: '{"name":"Rex"}',
    status: 400,
    code: 'invalid_body',
    words: ['/categoryId is required'],
  },
  {
    label: 'name is a number',
    body: '{"name":5,"categoryId":1}',
    status: 400,
    code: 'invalid_body',
    words: ['/name must be string'],
  },
  { label: 'name is null', body: '{"name":null,"categoryId":1}', status: 400, code: 'invalid_body', words: ['/name'] },
  {
    label: 'name is an object',
    body: '{"name":{"first":"Rex"},"categoryId":1}',
    status: 400,
    code: 'invalid_body',
    words: ['/name'],
  },
  {
    label: 'categoryId is a string',
    body: '{"name":"Rex","categoryId":"1"}',
    status: 400,
    code: 'invalid_body',
    words: ['/categoryId must be integer'],
  },
  {
    label: 'categoryId is fractional',
    body: '{"name":"Rex","categoryId":1.5}',
    status: 400,
    code: 'invalid_body',
    words: ['/categoryId must be integer'],
  },
  {
    label: 'categoryId above int64',
    body: '{"name":"Rex","categoryId":9223372036854775808}',
    status: 400,
    code: 'invalid_body',
    words: ['/categoryId', 'int64'],
  },
  {
    label: 'categoryId below int64',
    body: '{"name":"Rex","categoryId":-9223372036854775809}',
    status: 400,
    code: 'invalid_body',
    words: ['/categoryId', 'int64'],
  },
  {
    label: 'categoryId 1e300',
    body: '{"name":"Rex","categoryId":1e300}',
    status: 400,
    code: 'invalid_body',
    words: ['/categoryId', 'int64'],
  },
  {
    label: 'categoryId 1.0e-400 (not an integer, though JavaScript reads 0)',
    body: '{"name":"Rex","categoryId":1.0e-400}',
    status: 400,
    code: 'invalid_body',
    words: ['/categoryId must be integer'],
  },
  {
    label: 'categoryId is boolean',
    body: '{"name":"Rex","categoryId":true}',
    status: 400,
    code: 'invalid_body',
    words: ['/categoryId'],
  },
  {
    label: 'status outside the enum',
    body: '{"name":"Rex","categoryId":1,"status":"adopted"}',
    status: 400,
    code: 'invalid_body',
    words: ['/status must be one of'],
  },
  {
    label: 'status in the wrong case',
    body: '{"name":"Rex","categoryId":1,"status":"Available"}',
    status: 400,
    code: 'invalid_body',
    words: ['/status'],
  },
  {
    label: 'status is null',
    body: '{"name":"Rex","categoryId":1,"status":null}',
    status: 400,
    code: 'invalid_body',
    words: ['/status'],
  },
  {
    label: 'every field wrong',
    body: '{"name":1,"categoryId":"x","status":"x"}',
    status: 400,
    code: 'invalid_body',
    words: ['/name', '/categoryId', '/status'],
  },
  {
    label: 'required fields only through __proto__',
    body: '{"__proto__":{"name":"x","categoryId":1}}',
    status: 400,
    code: 'invalid_body',
    words: ['/__proto__ is not allowed'],
  },
  {
    label: 'a __proto__ key beside valid fields, nested',
    body: '{"name":"Rex","categoryId":1,"tags":[{"__proto__":{"status":"sold"}}]}',
    status: 400,
    code: 'invalid_body',
    words: ['/tags/0/__proto__'],
  },
  {
    label: 'a __proto__ key spelt with an escape',
    body: '{"__pro\\u0074o__":{"name":"x","categoryId":1}}',
    status: 400,
    code: 'invalid_body',
    words: ['/__proto__'],
  },
  {
    label: 'objects nested 101 levels',
    body: `${'{"a":'.repeat(101)}1${'}'.repeat(101)}`,
    status: 400,
    code: 'malformed_json',
    words: ['nesting deeper than 100 levels', 'column 501'],
  },
  {
    label: 'arrays nested 500 levels',
    body: `${'['.repeat(500)}${']'.repeat(500)}`,
    status: 400,
    code: 'malformed_json',
    words: ['nesting deeper than 100 levels', 'column 101'],
  },
  {
    label: 'no Content-Type',
    headers: { 'content-type': null },
    body: '{"name":"Rex","categoryId":1}',
    status: 400,
    code: 'unsupported_media_type',
    words: ['Content-Type'],
  },
  {
    label: 'text/plain body',
    headers: { 'content-type': 'text/plain' },
    body: '{"name":"Rex","categoryId":1}',
    status: 400,
    code: 'unsupported_media_type',
    words: ['text/plain'],
  },
  {
    label: 'form body',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=Rex&categoryId=1',
    status: 400,
    code: 'unsupported_media_type',
    words: ['application/x-www-form-urlencoded'],
  },
  {
    label: 'garbage Content-Type',
    headers: { 'content-type': '???' },
    body: '{}',
    status: 400,
    code: 'unsupported_media_type',
    words: ['Content-Type'],
  },
  {
    label: 'non-UTF-8 charset',
    headers: { 'content-type': 'application/json; charset=latin1' },
    body: '{"name":"Rex","categoryId":1}',
    status: 400,
    code: 'unsupported_media_type',
    words: ['latin1'],
  },
  {
    label: 'gzip-encoded body',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: '{"name":"Rex","categoryId":1}',
    status: 400,
    code: 'unsupported_media_type',
    words: ['gzip'],
  },
  {
    label: 'body over the size limit',
    body: JSON.stringify({ name: 'x'.repeat(5000), categoryId: 1 }),
    status: 400,
    code: 'payload_too_large',
    words: ['1024'],
  },
];

describe('a bad body: a 4xx Error naming the problem, never a 5xx, and the store unchanged', () => {
  it.each(BODIES)('$label', (input) =>
    expectRefused(mock, { method: 'POST', path: '/pets', headers: JSON_TYPE, ...input }),
  );

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
});
