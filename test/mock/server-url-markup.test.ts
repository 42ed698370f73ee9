// Issue 18, item 9 (its server-URL half): a document whose first server URL holds markup,
// brackets, a query or spaces starts (it stopped with "unexpected failure: pathToRegexpError"),
// and the API answers under that base path as clients send it: percent-encoded (fetch, browsers)
// or raw (curl).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { rawExchange } from '../helpers/raw-http.js';

function documentWithServer(url: string): string {
  return `openapi: 3.1.0
info: { title: Odd servers, version: '1' }
servers:
  - url: '${url}'
paths:
  /things:
    get:
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { type: string }, maxItems: 1 } } } }
`;
}

let running: RunningMock | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(url: string): Promise<RunningMock> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'kennel-server-url-')), 'odd.yaml');
  writeFileSync(file, documentWithServer(url));
  running = await startMock({ specPath: file, world: false });
  return running;
}

describe('a server URL with markup, brackets, a query or spaces', () => {
  it.each([
    ['markup', 'https://api.example.com/<b>x</b>/v1', '/%3Cb%3Ex%3C/b%3E/v1', '/<b>x</b>/v1'],
    ['brackets', 'https://api.example.com/[v1]', '/[v1]', '/%5Bv1%5D'],
    ['a query', 'https://api.example.com/v1?x=1', '/v1', '/v1'],
    // A raw space is no HTTP (400): curl sends it encoded too.
    ['spaces and quotes', '/a b/"q"', '/a%20b/%22q%22', '/a%20b/"q"'],
    ['non-ASCII', 'https://api.example.com/café', '/caf%C3%A9', '/caf%C3%A9'],
  ])('%s: starts, and answers under the base path, encoded or raw', async (_name, url, encoded, raw) => {
    const mock = await serve(url);
    // fetch encodes the path as a browser does.
    const viaFetch = await fetch(`${mock.origin}${encoded}/things`);
    expect(viaFetch.status, await viaFetch.clone().text()).toBe(200);
    const viaRaw = await rawExchange(mock.origin, `GET ${raw}/things HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(viaRaw.status, viaRaw.text).toBe(200);
  });
});
