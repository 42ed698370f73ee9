import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';

const MULTI_FILE = fileURLToPath(new URL('../fixtures/openapi/multi-file/', import.meta.url));
const INVENTORY = fileURLToPath(new URL('../fixtures/inventory-basic.yaml', import.meta.url));

/** A static file server for the multi-file document, as a team publishes its OpenAPI files. */
let files: Server;
let origin: string;
beforeAll(async () => {
  files = createServer((request, response) => {
    const file = path.join(MULTI_FILE, path.normalize(decodeURIComponent(request.url!.split('?')[0]!)));
    readFile(file).then(
      (body) => response.writeHead(200, { 'content-type': 'application/yaml' }).end(body),
      () => response.writeHead(404).end('not found'),
    );
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => files.close(resolve)));

describe('the document: a positional argument or --spec, a file or an http(s) URL', { timeout: 60_000 }, () => {
  it.each([
    ['as an argument', (document: string) => ['serve', document]],
    ['with --spec', (document: string) => ['serve', '--spec', document]],
  ])('serve %s: a multi-file document over HTTP, $refs fetched relative to it', async (_how, argv) => {
    const cli = runCli([...argv(`${origin}/openapi.yaml`), '-p', '0', '--no-world', '--log-level', 'silent']);
    const { origin: served } = await cli.ready;
    try {
      expect(cli.stderr()).toContain(`from ${origin}/openapi.yaml`);
      const response = await fetch(`${served}/things/7`);
      expect(response.status).toBe(200);
      // The schema came from ../schemas/thing.yaml, two fetches away from the root document.
      expect(((await response.json()) as { id: unknown }).id).toEqual(expect.any(Number));
    } finally {
      cli.stop();
    }
    expect(await cli.code).toBe(0);
  });

  it('serve FILE serves that file', async () => {
    const cli = runCli(['serve', INVENTORY, '-p', '0', '--no-world', '--log-level', 'silent']);
    const { origin: served } = await cli.ready;
    try {
      expect(cli.stderr()).toContain('serving Inventory 2.0.0');
      expect((await fetch(`${served}/api/items/A-1`)).status).toBe(200);
    } finally {
      cli.stop();
    }
    expect(await cli.code).toBe(0);
  });

  it('check URL --base-url …: the checker reads the document from the URL too', async () => {
    const mock = await startMock({ specPath: `${origin}/openapi.yaml` });
    try {
      const cli = runCli(['check', `${origin}/openapi.yaml`, '--base-url', mock.url, '--seed', '1']);
      expect(await cli.code, cli.stdout() + cli.stderr()).toBe(0);
      expect(cli.stdout()).toMatch(/getThing/);
    } finally {
      await mock.close();
    }
  });

  it('a URL that answers 404 is a tool error naming it (exit 2)', async () => {
    const cli = runCli(['check', `${origin}/missing.yaml`, '--base-url', 'http://127.0.0.1:9/']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain(`kennel: ${origin}/missing.yaml: cannot fetch the OpenAPI document: HTTP 404`);
  });

  it('two different documents are refused (exit 2)', async () => {
    const cli = runCli(['check', INVENTORY, '--spec', `${origin}/openapi.yaml`, '--base-url', 'http://127.0.0.1:9/']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(/two documents given/);
  });

  it('serve --watch of a URL says why it cannot (exit 2)', async () => {
    const cli = runCli(['serve', `${origin}/openapi.yaml`, '--watch', '-p', '0', '--no-world']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(/--watch follows files; .* is a URL/);
  });
});

describe('help and mistakes', { timeout: 60_000 }, () => {
  it.each([['serve'], ['check'], ['scenario'], ['scenario', 'run']])(
    'kennel %s -h is help (exit 0)',
    async (...command) => {
      const cli = runCli([...command, '-h']);
      expect(await cli.code).toBe(0);
      expect(cli.stdout()).toMatch(/^Usage: kennel /);
      expect(cli.stdout()).toMatch(/-h, --help/);
    },
  );

  it.each([['serve'], ['check']])('kennel %s --help shows no empty defaults', async (command) => {
    const cli = runCli([command, '--help']);
    expect(await cli.code).toBe(0);
    expect(cli.stdout()).not.toContain('(default: [])');
  });

  it('a mistyped flag gets a suggestion (exit 2)', async () => {
    const cli = runCli(['check', '--base-ur', 'http://127.0.0.1:9/']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(/unknown option '--base-ur'\n\(Did you mean --base-url\?\)/);
  });

  it('a mistyped check gets a suggestion (exit 2)', async () => {
    const cli = runCli(['check', '--check', 'not-a-servr-error', '--base-url', 'http://127.0.0.1:9/']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain('unknown check "not-a-servr-error" (did you mean not-a-server-error?)');
  });

  it('--check all runs every check, as no --check does', async () => {
    const mock = await startMock({ specPath: INVENTORY });
    try {
      const all = runCli([
        'check',
        INVENTORY,
        '--base-url',
        mock.url,
        '--api-key',
        mock.apiKeys[0]!,
        '--seed',
        '3',
        '--check',
        'all',
        '--json',
        '/dev/null',
      ]);
      expect(await all.code, all.stdout()).toBe(0);
      const plain = runCli(['check', INVENTORY, '--base-url', mock.url, '--api-key', mock.apiKeys[0]!, '--seed', '3']);
      expect(await plain.code).toBe(0);
      const counts = (text: string) => /\d+ passed.* skipped/.exec(text)?.[0];
      expect(counts(all.stdout())).toBeDefined();
      expect(counts(all.stdout())).toBe(counts(plain.stdout()));
    } finally {
      await mock.close();
    }
  });
});

describe('a URL document fetches its $refs from its own origin only', { timeout: 60_000 }, () => {
  it('a $ref to another origin is not followed (exit 2), and that origin gets no request', async () => {
    let asked = 0;
    const other = createServer((_request, response) => {
      asked += 1;
      response.writeHead(200, { 'content-type': 'application/yaml' }).end('type: object\n');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherOrigin = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    const root = [
      'openapi: 3.1.0',
      'info: { title: Crossing, version: "1" }',
      'paths:',
      '  /x:',
      '    get:',
      '      responses:',
      "        '200':",
      '          description: x',
      '          content:',
      '            application/json:',
      `              schema: { $ref: '${otherOrigin}/schema.yaml' }`,
    ].join('\n');
    const documents = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/yaml' }).end(root),
    );
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(documents.address() as { port: number }).port}/openapi.yaml`;
    try {
      const cli = runCli(['serve', url, '-p', '0', '--no-world']);
      expect(await cli.code).toBe(2);
      expect(cli.stderr()).toContain(`kennel: ${url}: cannot resolve references`);
      expect(asked).toBe(0);
    } finally {
      await new Promise((resolve) => other.close(resolve));
      await new Promise((resolve) => documents.close(resolve));
    }
  });
});
