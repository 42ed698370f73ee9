// kennel serve --proxy in front of a conforming deployment (a real kennel mock): the answer passes
// through unchanged and nothing is reported that is not wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { startTestMock, TEST_KEY, type TestMock } from '../helpers/mock-client.js';
import { rawRequest, violationsOf, type RawAnswer } from './proxy-helpers.js';

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
