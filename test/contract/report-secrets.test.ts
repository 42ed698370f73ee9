import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PETSTORE_SPEC } from '../../src/assets.js';
import { runCli } from '../helpers/cli.js';

const KEY = 'Report-Secret-Key-77';
const HEADER_SECRET = 'header-secret-value-9';
const COOKIE_SECRET = 'cookie-secret-value-3';
const dir = mkdtempSync(path.join(tmpdir(), 'kennel-secrets-'));

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** Every spelling of a credential that must not appear in a report (compared case-insensitively). */
const FORBIDDEN = [
  KEY,
  KEY.slice(0, -1),
  encodeURIComponent(KEY),
  HEADER_SECRET,
  COOKIE_SECRET,
  ...[KEY, `${KEY}x`, KEY.toUpperCase(), KEY.toLowerCase(), KEY.slice(0, -1)].flatMap((key) => [
    base64(`kennel:${key}`),
    base64(`kennel:${key}`).replace(/=+$/, ''),
  ]),
];

/**
 * A deployment that echoes every credential it gets, in a header and in the body: the raw header
 * values, the URL (query-string keys), cookies and decoded Basic credentials, in other cases too.
 */
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    const authorization = request.headers.authorization ?? '';
    const decoded = /^basic\s+(\S+)/i.test(authorization)
      ? Buffer.from(authorization.split(/\s+/)[1]!, 'base64').toString('utf8')
      : '';
    const said = [
      authorization,
      decoded,
      request.headers['x-api-key'],
      request.headers['x-api-token'],
      request.headers.cookie,
      request.url,
    ].join(' ');
    response.setHeader('x-echo', encodeURIComponent(said));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ echo: said, upper: said.toUpperCase(), url: request.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The bundled spec with its one security scheme replaced (same name, so every operation uses it). */
function specWith(scheme: string): string {
  const file = path.join(dir, `${scheme.replace(/\W+/g, '-')}.yaml`);
  const text = readFileSync(PETSTORE_SPEC, 'utf8').replace(
    /( {4}bearerAuth:\n)( {6}type: http\n {6}scheme: bearer\n)/,
    `$1${scheme
      .split('\n')
      .map((line) => `      ${line}\n`)
      .join('')}`,
  );
  expect(text).toContain(scheme.split('\n')[0]);
  writeFileSync(file, text);
  return file;
}

const SCHEMES: [string, string | undefined][] = [
  ['Bearer (the bundled spec)', undefined],
  ['Basic', 'type: http\nscheme: basic'],
  ['an API key in the query string', 'type: apiKey\nin: query\nname: api_key'],
  ['an API key header', 'type: apiKey\nin: header\nname: X-Api-Key'],
  ['an API key cookie', 'type: apiKey\nin: cookie\nname: session'],
];

describe('kennel check reports never show a credential', () => {
  it.each(SCHEMES)('%s: not the key, its near misses, nor a credential --header', async (label, scheme) => {
    const name = label.replace(/\W+/g, '-');
    const junit = path.join(dir, `${name}.xml`);
    const json = path.join(dir, `${name}.json`);
    const cli = runCli([
      'check',
      '--base-url',
      baseUrl,
      '--api-key',
      KEY,
      ...(scheme ? ['--spec', specWith(scheme)] : []),
      '--header',
      `X-Api-Token: ${HEADER_SECRET}`,
      '--header',
      `Cookie: tracking=${COOKIE_SECRET}`,
      '--seed',
      '5',
      '--junit',
      junit,
      '--json',
      json,
    ]);
    expect(await cli.code, cli.stderr()).toBe(1);
    const outputs = {
      stdout: cli.stdout(),
      stderr: cli.stderr(),
      junit: readFileSync(junit, 'utf8'),
      json: readFileSync(json, 'utf8'),
    };
    for (const [where, text] of Object.entries(outputs)) {
      if (where !== 'stderr') expect(text.length, where).toBeGreaterThan(100);
      for (const secret of FORBIDDEN)
        expect(text.toLowerCase().includes(secret.toLowerCase()), `${secret} in ${where}`).toBe(false);
    }
    // The echoes were there to hide: the report shows them redacted.
    expect(outputs.json).toMatch(/\$KENNEL_API_KEY|\[redacted\]/);
    expect(outputs.stdout).toMatch(/\$\{KENNEL_API_KEY\}/);
    expect(() => JSON.parse(outputs.json)).not.toThrow();
  });
});
