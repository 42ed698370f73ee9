import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_KEY, TEST_KEY, startTestMock, type TestMock } from '../helpers/mock-client.js';

const ADMIN_TOKEN = 'admin-token-xyz-42';
const SECRETS = [TEST_KEY, OTHER_KEY, ADMIN_TOKEN];
const logLines: string[] = [];
let mock: TestMock;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  mock = await startTestMock({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'info' }, sink) });
});
afterAll(() => mock.close());

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** Requests that carry a key or token somewhere a naive redaction misses. */
const leaky: [string, string, string, Record<string, string | null>, string?][] = [
  ['key in the query string', 'GET', `/pets?api_key=${TEST_KEY}&limit=1`, {}],
  ['key in an unknown query parameter', 'GET', `/pets?q=${OTHER_KEY}`, {}],
  ['key in a custom header', 'GET', '/pets?limit=1', { 'x-auth-token': TEST_KEY }],
  ['admin token in a custom header', 'GET', '/pets?limit=1', { 'x-admin-token': ADMIN_TOKEN }],
  ['key sent without Bearer', 'GET', '/pets', { authorization: TEST_KEY }],
  ['key in another case, without Bearer', 'GET', '/pets', { authorization: TEST_KEY.toUpperCase() }],
  ['key in a cookie', 'GET', '/pets?limit=1', { cookie: `s=${OTHER_KEY}; x` }],
  ['key as a pet name (echoed in the answer)', 'POST', '/pets', {}, JSON.stringify({ name: TEST_KEY, categoryId: 1 })],
  ['admin token as a Bearer key', 'GET', '/pets', { authorization: `Bearer ${ADMIN_TOKEN}` }],
  ['admin token in a path nothing serves (quoted by the 404)', 'GET', `/${ADMIN_TOKEN}`, {}],
  ['key in a Prefer header (quoted by the 400)', 'GET', '/pets', { prefer: `example=${TEST_KEY}` }],
];

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
}

describe('no configured key or token leaks', () => {
  it.each(leaky)(
    '%s: not in the answer to a wrong scheme, the journal or the log',
    async (_label, method, path, headers, body) => {
      logLines.length = 0;
      const answer = await mock.request(method, path, { headers, body });
      if (answer.status >= 400) expectNoSecret(answer.text);
      const journal = await mock.request('GET', '/__kennel/journal?limit=1', { headers: admin });
      expect(journal.status).toBe(200);
      expect(journal.body.entries).toHaveLength(1);
      expectNoSecret(journal.text);
      expect(logLines.length).toBeGreaterThan(0);
      expectNoSecret(logLines.join(''));
    },
  );

  it('labels each key, so tenants stay tellable apart', async () => {
    await mock.request('GET', '/pets?limit=1', { headers: { authorization: `Bearer ${OTHER_KEY}` } });
    const journal = await mock.request('GET', '/__kennel/journal?limit=1', { headers: admin });
    expect(journal.body.entries[0].request.headers.authorization).toBe('Bearer [api key 2]');
  });

  it('names the wrong scheme when it is a scheme, and never echoes a key', async () => {
    const basic = await mock.request('GET', '/pets', { headers: { authorization: 'Basic dXNlcg==' } });
    expect(basic.body.message).toContain('not "Basic"');
    const bare = await mock.request('GET', '/pets', { headers: { authorization: 'not-a-key-but-secret' } });
    expect(bare.body.message).not.toContain('not-a-key-but-secret');
    expect(bare.body.message).toContain('Bearer <API_KEY>');
  });
});

describe('CORS', () => {
  const origin = { origin: 'https://evil.example' };

  it('the API answers other origins', async () => {
    const answer = await mock.request('GET', '/pets?limit=1', { headers: origin });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('a token-protected admin API answers other origins (they need the token)', async () => {
    const answer = await mock.request('GET', '/__kennel/journal?limit=1', { headers: { ...origin, ...admin } });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('an unprotected admin API does not: no web page may read the journal or drive the world', async () => {
    const open = await startTestMock({ world: false });
    try {
      for (const path of ['/__kennel/journal', '/__kennel/health']) {
        const answer = await open.request('GET', path, { headers: origin });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      }
      const preflight = await fetch(`${open.running.origin}/__kennel/reset`, {
        method: 'OPTIONS',
        headers: { ...origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      const api = await open.request('GET', '/pets?limit=1', { headers: origin });
      expect(api.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await open.close();
    }
  });
});
