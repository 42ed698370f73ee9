import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/contract/prepare/link-expressions.js';
import type { Exchange } from '../../src/contract/types.js';

const exchange = {
  operation: { operation: { path: '/owners/{ownerId}/pets' } },
  request: {
    method: 'POST',
    url: 'http://x.test/v1/owners/o%2F7/pets?kind=cat',
    headers: { 'x-trace': 't-1' },
    body: '{"name":"Rex","tag":{"id":9007199254740993}}',
  },
  response: {
    status: 201,
    headers: { location: '/v1/pets/12' },
    text: '{"id":12}',
    json: { ok: true, value: { id: 12, 'a/b': 'slash' } },
  },
} as unknown as Exchange;

describe('runtime expressions of OpenAPI links', () => {
  it.each([
    ['$response.body#/id', 12],
    ['$response.body#/a~1b', 'slash'],
    ['$request.body#/tag/id', 9007199254740993n],
    ['$request.path.ownerId', 'o/7'],
    ['$request.query.kind', 'cat'],
    ['$request.header.X-Trace', 't-1'],
    ['$response.header.Location', '/v1/pets/12'],
    ['$statusCode', 201],
    ['$method', 'POST'],
    ['a constant', 'a constant'],
    [42, 42],
  ])('%s', (expression, value) => {
    expect(evaluate(expression, exchange)).toEqual({ ok: true, value });
  });

  it('says what is missing or not understood', () => {
    expect(evaluate('$response.body#/missing', exchange)).toEqual({
      ok: false,
      reason: '$response.body#/missing is absent',
    });
    expect(evaluate('$response.body#nope', exchange)).toEqual({ ok: false, reason: '$response.body#nope is absent' });
    expect(evaluate('$inputs.x', exchange)).toMatchObject({ ok: false });
  });
});
