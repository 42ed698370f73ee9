import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { documentFiles } from '../../src/cli/spec-watch.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { waitUntil } from '../helpers/wait.js';

const THING = (nameSchema: string): string => `
Thing:
  type: object
  required: [id, name]
  properties:
    id: { type: integer, readOnly: true }
    name: ${nameSchema}
`;

const DOCUMENT = (extraPaths = ''): string => `
openapi: 3.0.3
info: { title: Things, version: 1.0.0 }
servers: [{ url: http://localhost/api }]
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: things
          content:
            application/json:
              schema: { type: array, items: { $ref: 'schemas.yaml#/Thing' } }
    post:
      operationId: createThing
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: 'schemas.yaml#/Thing' }
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: { $ref: 'schemas.yaml#/Thing' }
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200':
          description: one
          content:
            application/json:
              schema: { $ref: 'schemas.yaml#/Thing' }
        '404': { description: none }
${extraPaths}`;

const STATUS_PATH = `
  /status:
    get:
      operationId: getStatus
      responses:
        '200':
          description: up
          content:
            application/json:
              schema: { type: object }
              example: { up: true }
`;

/** Writes as editors do: a new file renamed over the old one (a watch on the file itself would end). */
function save(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

const status = async (url: string): Promise<number> => (await fetch(url)).status;

let cli: CliRun | undefined;
afterEach(async () => {
  cli?.stop();
  await cli?.code;
  cli = undefined;
});

describe('kennel serve --watch', () => {
  it('reloads on edits of the document and of a $ref-ed file; a broken edit keeps the old one serving', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kennel-watch-'));
    const spec = path.join(dir, 'things.yaml');
    const schemas = path.join(dir, 'schemas.yaml');
    writeFileSync(spec, DOCUMENT());
    writeFileSync(schemas, THING('{ type: string }'));
    cli = runCli(['serve', '--port', '0', '--spec', spec, '--watch', '--log-level', 'silent']);
    const { url, origin } = await cli.ready;
    const running = cli;
    expect(running.stderr()).toContain(`watch    ${spec}`);
    // The reference is rendered once and kept: read it now, so a reload must replace it.
    const reference = async () => (await fetch(`${origin}/__kennel/docs`)).text();
    expect(await reference()).not.toContain('getStatus');

    const created = await fetch(`${url}/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Kept"}',
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect(await status(`${url}/status`)).toBe(404);

    // 1. A new operation: it answers once reloaded, and the item created before is still there.
    save(spec, DOCUMENT(STATUS_PATH));
    await waitUntil(
      async () => (await status(`${url}/status`)) === 200,
      () => `GET /status; stderr: ${running.stderr()}`,
    );
    expect(running.stderr()).toMatch(
      new RegExp(`kennel: reloaded ${spec.replace(/[.]/g, '\\.')}: 4 operations, kept [1-9]\\d* items, dropped 0\\n`),
    );
    expect(await status(`${url}/things/${id}`)).toBe(200);
    expect(await reference()).toContain('getStatus');

    // 2. The referenced file tightens the schema: items that no longer fit are dropped, and said so.
    save(schemas, THING('{ type: string, maxLength: 3 }'));
    await waitUntil(
      () => /dropped [1-9]/.test(running.stderr()),
      () => `a reload that drops items; stderr: ${running.stderr()}`,
    );
    expect(await status(`${url}/things/${id}`)).toBe(404);
    const tooLong = await fetch(`${url}/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Long"}',
    });
    expect(tooLong.status).toBe(400);

    // 3. A broken document: the error names file and line; the previous document keeps serving.
    save(spec, `${DOCUMENT(STATUS_PATH)}\n  bad: [unclosed\n`);
    await waitUntil(
      () => running.stderr().includes('reload failed'),
      () => `a reload failure; stderr: ${running.stderr()}`,
    );
    expect(running.stderr()).toMatch(
      new RegExp(`reload failed, still serving the previous document: ${spec.replace(/[.]/g, '\\.')}:\\d+:\\d+: `),
    );
    expect(await status(`${url}/status`)).toBe(200);
    expect(await status(`${url}/things`)).toBe(200);
    expect(running.stderr()).not.toMatch(/\n\s+at /);

    // 4. Fixed again: it serves the fixed document.
    save(spec, DOCUMENT());
    await waitUntil(
      async () => (await status(`${url}/status`)) === 404,
      () => `GET /status gone; stderr: ${running.stderr()}`,
    );
  }, 60_000);

  it('without --watch, edits change nothing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kennel-watch-'));
    const spec = path.join(dir, 'things.yaml');
    writeFileSync(spec, DOCUMENT());
    writeFileSync(path.join(dir, 'schemas.yaml'), THING('{ type: string }'));
    cli = runCli(['serve', '--port', '0', '--spec', spec, '--log-level', 'silent']);
    // The control: a watching serve of the same file. Once it has reloaded, the other one has seen
    // the same edit for as long, so its silence means something.
    const watching = runCli(['serve', '--port', '0', '--spec', spec, '--watch', '--log-level', 'silent']);
    try {
      const [{ url }] = await Promise.all([cli.ready, watching.ready]);
      save(spec, DOCUMENT(STATUS_PATH));
      await watching.stderrUntil('kennel: reloaded');
      expect(await status(`${url}/status`)).toBe(404);
      expect(cli.stderr()).not.toContain('reloaded');
    } finally {
      watching.stop();
      await watching.code;
    }
  });

  it('refuses --watch with --data (a reload could not carry the saved tenants over): exit 2', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kennel-watch-'));
    cli = runCli(['serve', '--port', '0', '--watch', '--data', path.join(dir, 'state.json')]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toBe(
      'kennel: --data and --watch cannot be combined: a reload would lose the saved tenants (docs/state.md)\n',
    );
  });
});

describe('documentFiles', () => {
  it('follows external $refs (quoted or not, nested), skips local ones and URLs', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kennel-refs-'));
    writeFileSync(
      path.join(dir, 'main.yaml'),
      "a: { $ref: 'parts/a.yaml#/A' }\nb:\n  $ref: '#/local'\nc: { $ref: 'https://example.com/x.yaml' }\n",
    );
    writeFileSync(path.join(dir, 'parts-placeholder'), '');
    const parts = path.join(dir, 'parts');
    await import('node:fs/promises').then((fs) => fs.mkdir(parts));
    writeFileSync(path.join(parts, 'a.yaml'), '{"A": {"$ref": "../c.json"}}');
    writeFileSync(path.join(dir, 'c.json'), '{}');
    expect(await documentFiles(path.join(dir, 'main.yaml'))).toEqual([
      path.join(dir, 'main.yaml'),
      path.join(parts, 'a.yaml'),
      path.join(dir, 'c.json'),
    ]);
  });
});
