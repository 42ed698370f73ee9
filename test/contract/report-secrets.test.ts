import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const KEY = 'Report-Secret-Key-77';
const HEADER_SECRET = 'header-secret-value-9';
const dir = mkdtempSync(path.join(tmpdir(), 'kennel-secrets-'));

/** A deployment that echoes every credential it gets, in a header and in the body, in other cases too. */
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    const said = `${request.headers.authorization ?? ''} ${request.headers['x-api-token'] ?? ''}`;
    response.setHeader('x-echo', said);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ echo: said, upper: said.toUpperCase(), url: request.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('kennel check reports never show a credential', () => {
  it('not the key nor a credential --header, whatever the deployment echoes', async () => {
    const junit = path.join(dir, 'report.xml');
    const json = path.join(dir, 'report.json');
    const cli = runCli([
      'check',
      '--base-url',
      baseUrl,
      '--api-key',
      KEY,
      '--header',
      `X-Api-Token: ${HEADER_SECRET}`,
      '--seed',
      '5',
      '--junit',
      junit,
      '--json',
      json,
    ]);
    expect(await cli.code).toBe(1);
    const outputs = { stdout: cli.stdout(), junit: readFileSync(junit, 'utf8'), json: readFileSync(json, 'utf8') };
    for (const [where, text] of Object.entries(outputs)) {
      expect(text.length, where).toBeGreaterThan(100);
      for (const secret of [KEY, HEADER_SECRET, KEY.slice(0, -1)]) {
        expect(text.toLowerCase().includes(secret.toLowerCase()), `${secret} in ${where}`).toBe(false);
      }
    }
    expect(outputs.json).toContain('$KENNEL_API_KEY');
    expect(() => JSON.parse(outputs.json)).not.toThrow();
  });
});
