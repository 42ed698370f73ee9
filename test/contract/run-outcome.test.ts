// A run says what it covered, refuses to call "conforms" a run that judged nothing, and needs an
// API key only when an operation it checks requires credentials.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonReport } from '../../src/contract/reporters/json.js';
import { junitXml } from '../../src/contract/reporters/junit.js';
import { runContract } from '../../src/contract/run/runner.js';
import { runCli } from '../helpers/cli.js';
import { NOTES_SPEC, startNotesServer } from './notes-server.js';

const CATALOG_SPEC = fileURLToPath(new URL('../fixtures/contract/open-catalog.yaml', import.meta.url));

/** Accepts a photo (octet stream), a note (a form with `text`) or a file (multipart with `file`), else 400/415. */
function receive(request: IncomingMessage, what: string, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    const type = request.headers['content-type'] ?? '';
    const wanted = {
      photo: 'application/octet-stream',
      notes: 'application/x-www-form-urlencoded',
      files: 'multipart/form-data',
    }[what]!;
    const fail = (status: number, message: string) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ message }));
    if (!type.startsWith(wanted)) return fail(415, `send ${wanted}`);
    if (what === 'photo' && text === '') return fail(400, 'no bytes');
    if (what === 'notes' && !new URLSearchParams(text).get('text')) return fail(400, 'text is required');
    const boundary = /boundary=(.+)$/.exec(type)?.[1];
    if (
      what === 'files' &&
      !(boundary && text.includes(`--${boundary}\r\nContent-Disposition: form-data; name="file"`))
    )
      return fail(400, 'a file part is required');
    response.writeHead(204).end();
  });
}

/** A correct server for fixtures/contract/open-catalog.yaml: two items, no credentials anywhere. */
async function startCatalog(): Promise<{ url: string; close(): Promise<void> }> {
  const items = [
    { sku: 'A-1', name: 'lead' },
    { sku: 'B-2', name: 'collar' },
  ];
  const server = createServer((request, response) => {
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const url = new URL(request.url ?? '/', 'http://catalog.test');
    const item = /^\/items\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'POST' && /^\/items\/[^/]+\/(photo|notes|files)$/.test(url.pathname))
      return receive(request, url.pathname.split('/').at(-1)!, response);
    if (request.method === 'GET' && url.pathname === '/brands/acme') return json(200, { brand: 'acme' });
    if (request.method === 'GET' && url.pathname.startsWith('/brands/')) return json(404, { message: 'no such brand' });
    if (request.method === 'GET' && url.pathname === '/items') return json(200, items);
    if (request.method === 'GET' && item) {
      const found = items.find((candidate) => candidate.sku === decodeURIComponent(item[1]!));
      return found ? json(200, found) : json(404, { message: 'no such item' });
    }
    return json(404, { message: 'nothing here' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('what a run covered, and a run that judged nothing', () => {
  let catalog: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    catalog = await startCatalog();
  });
  afterAll(() => catalog.close());

  it('runs without --api-key when no checked operation requires credentials, and reports coverage', async () => {
    const cli = runCli(['check', '--base-url', catalog.url, '--spec', CATALOG_SPEC, '--seed', '2', '--read-only']);
    expect(await cli.code, cli.stdout() + cli.stderr()).toBe(0);
    // Two of six operations reached a documented success: the uploads change state (read-only) and
    // no brand is known (nothing lists brands), so getBrand only ever answered 404. Of the documented
    // 200 of listItems, 200 and 404 of getItem, 200 and default of getBrand and the uploads' 204s, 4
    // of 8 were seen (items are read by `sku`, the property their path parameter names).
    expect(cli.stdout()).toContain(
      'coverage: 2/6 operations reached a documented success (not uploadPhoto: no request reached it; addNote: no request reached it; attachFile: no request reached it; getBrand: 404 ×12) · 4/8 documented statuses observed',
    );
    expect(cli.stdout()).toContain('conforms: 0 error(s)');
  });

  it('sends bodies in the media type the document gives: an octet stream, a form, multipart', async () => {
    const summary = await runContract({
      baseUrl: catalog.url,
      apiKey: '',
      specPath: CATALOG_SPEC,
      seed: 3,
      checks: ['positive-data-acceptance'],
    });
    const status = (operationId: string) =>
      summary.cases.find((item) => item.check === 'positive-data-acceptance' && item.operationId === operationId)
        ?.status;
    expect([status('uploadPhoto'), status('addNote'), status('attachFile')]).toEqual(['passed', 'passed', 'passed']);
    expect(summary.exitCode).toBe(0);
  });

  it('an unknown id answered with a status the document covers by `default` is no "undocumented" warning', async () => {
    const summary = await runContract({
      baseUrl: catalog.url,
      apiKey: '',
      specPath: CATALOG_SPEC,
      seed: 3,
      checks: ['unknown-id-conformance', 'status-code-conformance'],
    });
    const brand = summary.cases.filter((item) => item.operationId === 'getBrand');
    expect(brand.flatMap((item) => item.failures.map((failure) => failure.title))).toEqual([]);
    expect(brand.find((item) => item.check === 'unknown-id-conformance')?.status).toBe('passed');
  });

  it('asks for --api-key naming the operations that require credentials', async () => {
    const cli = runCli(['check', '--base-url', catalog.url, '--spec', NOTES_SPEC]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(
      /--api-key is required \(or KENNEL_API_KEY\): 10 operations to check require credentials \(listNotes, createNote, getNote, touchNote, noteText, …/,
    );
  });

  it('exits 2 and says why when no request could be sent, never "conforms"', async () => {
    const cli = runCli([
      'check',
      '--base-url',
      catalog.url,
      '--spec',
      CATALOG_SPEC,
      '--operation',
      'uploadPhoto',
      '--read-only',
    ]);
    expect(await cli.code).toBe(2);
    expect(cli.stdout()).toMatch(
      /not checked: no request was sent, so nothing was judged: no check applied to any selected operation — read-only run: the operation changes state/,
    );
    expect(cli.stdout()).toContain('could not be fully checked: 0 error(s), 0 warning(s)');
    expect(cli.stdout()).not.toContain(' conforms');
  });

  it('puts coverage in the JSON and JUnit reports, and a run that judged nothing fails in JUnit', async () => {
    const server = await startNotesServer('k');
    try {
      const summary = await runContract({ baseUrl: server.url, apiKey: 'k', specPath: NOTES_SPEC, seed: 4 });
      expect(summary.coverage?.operations).toEqual({ succeeded: 10, total: 10 });
      expect(summary.coverage?.statuses.documented).toBe(20);
      expect(summary.coverage?.unsucceeded).toEqual([]);
      expect(JSON.parse(jsonReport(summary, 'k')).coverage.operations).toEqual({ succeeded: 10, total: 10 });
      expect(junitXml(summary, 'k')).toMatch(
        /coverage: 10\/10 operations reached a documented success · \d+\/20 documented statuses/,
      );
      const idle = await runContract({
        baseUrl: server.url,
        apiKey: 'k',
        specPath: NOTES_SPEC,
        operations: ['createNote'],
        readOnly: true,
      });
      expect(idle.exitCode).toBe(2);
      expect(idle.coverage?.unsucceeded).toEqual([{ operationId: 'createNote', got: 'no request reached it' }]);
      expect(junitXml(idle, 'k')).toContain('<testcase classname="kennel" name="nothing checked"');
      expect(junitXml(idle, 'k')).toMatch(/<testsuites name="kennel check" tests="\d+" failures="0" errors="1"/);
    } finally {
      await server.close();
    }
  });
});
