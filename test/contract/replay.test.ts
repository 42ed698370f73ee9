// Replay lines are run, not read: each curl line is executed by bash with KENNEL_API_KEY set, and
// the request that reaches a real server must be the request kennel sent, credentials included.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlCommand } from '../../src/contract/prepare/request-builder.js';
import type { SentRequest } from '../../src/contract/types.js';
import { runCli } from '../helpers/cli.js';
import { serve, type TestServer } from './hostile-servers.js';
import { startReferencePetstore } from './reference-petstore.js';

const run = promisify(execFile);

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

let echo: TestServer;
const seen: Seen[] = [];
beforeAll(async () => {
  echo = await serve((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen.push({
        method: request.method!,
        url: request.url!,
        headers: request.headers as Record<string, string>,
        body,
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
});
afterAll(() => echo.close());

/** Runs a replay line in bash (as pasted), with the key in the environment; returns curl's output. */
async function replay(line: string, key: string): Promise<string> {
  const { stdout } = await run('bash', ['-c', line], { env: { ...process.env, KENNEL_API_KEY: key } });
  return stdout;
}

async function replayed(request: SentRequest, key: string): Promise<Seen> {
  const line = curlCommand(request, key);
  const before = seen.length;
  await replay(line, key);
  expect(seen.length, line).toBe(before + 1);
  return seen.at(-1)!;
}

const KEYS = ['Plain-Key-123', `Ab$c"d\`e'f!g\\h`, 'k'];
const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe.each(KEYS)('a replay line with the key %j', (key) => {
  const variants: [string, Record<string, string>, string?][] = [
    ['the key as a Bearer token', { authorization: `Bearer ${key}` }],
    ['the key with a character appended', { authorization: `Bearer ${key}x` }],
    ['the key in upper case', { authorization: `Bearer ${key.toUpperCase()}` }],
    ['the key in lower case', { authorization: `Bearer ${key.toLowerCase()}` }],
    ...(key.length > 1
      ? [
          ['the key without its last character', { authorization: `Bearer ${key.slice(0, -1)}` }] as [
            string,
            Record<string, string>,
          ],
        ]
      : []),
    ['the scheme in lower case with spaces', { authorization: `bearer   ${key}` }],
    ['Basic credentials', { authorization: basic(`kennel:${key}`) }],
    ['Basic credentials of a near miss', { authorization: basic(`kennel:${key}x`) }],
    ['Basic credentials, scheme in lower case', { authorization: `basic  ${basic(`kennel:${key}`).slice(6)}` }],
    ['an API key header', { 'x-api-key': key }],
    ['a cookie', { cookie: `session=${key}` }],
    ['a body', { 'content-type': 'application/json' }, JSON.stringify({ name: `it's "$HOME" ${key}` })],
  ];

  it.each(variants)('sends %s exactly, and never shows the key', async (_label, headers, body) => {
    const request: SentRequest = {
      method: body ? 'POST' : 'GET',
      url: `${echo.url}/pets?limit=2&q=${encodeURIComponent("a'b c")}`,
      headers,
      ...(body ? { body } : {}),
    };
    const line = curlCommand(request, key);
    if (key.length >= 4) expect(line).not.toContain(key);
    const received = await replayed(request, key);
    expect(received.method).toBe(request.method);
    expect(`${echo.origin}${received.url}`).toBe(request.url);
    for (const [name, value] of Object.entries(headers)) expect(received.headers[name], line).toBe(value);
    expect(received.body).toBe(body ?? '');
  });

  // A key that needs URL encoding is not rebuilt in a query string (the report redacts it instead).
  it.skipIf(!/^[\w-]+$/.test(key))('puts a query-string key in the URL', async () => {
    const request: SentRequest = { method: 'GET', url: `${echo.url}/pets?api_key=${key}`, headers: {} };
    const received = await replayed(request, key);
    expect(`${echo.origin}${received.url}`).toBe(request.url);
  });
});

describe('the replay line kennel check prints', () => {
  it('reproduces a near miss that a deployment accepts: "${KENNEL_API_KEY}x"', async () => {
    const broken = await startReferencePetstore({ fault: 'key-prefix' });
    try {
      const cli = runCli(['check', '--base-url', broken.url, '--seed', '4', '--check', 'auth-enforced'], {
        KENNEL_API_KEY: broken.apiKey,
      });
      expect(await cli.code).toBe(1);
      const lines = cli.stdout().split('\n');
      const finding = lines.findIndex((line) =>
        line.includes('accepted a request with the key with a character appended'),
      );
      expect(finding).toBeGreaterThan(-1);
      const line = lines
        .slice(finding)
        .find((text) => text.startsWith('    replay:   '))!
        .slice('    replay:   '.length);
      expect(line).toContain('"authorization: Bearer ${KENNEL_API_KEY}x"');
      expect(line).not.toContain(broken.apiKey);
      // With the right key in the variable, the deployment wrongly accepts the near miss: 200.
      expect((await replay(line, broken.apiKey)).split('\r\n')[0]).toMatch(/^HTTP\/1\.1 200/);
      // The line really uses the variable: with another key, the near miss of that key is refused.
      expect((await replay(line, 'another-key')).split('\r\n')[0]).toMatch(/^HTTP\/1\.1 401/);
    } finally {
      await broken.close();
    }
  });
});
