import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { ResourceStore } from '../../src/store/resource-store.js';

/** Notes keyed by `id` of the given type, behind an API key (one store per key). */
const NOTES = (idType: 'integer' | 'string', textSchema = '{ type: string }', extra = ''): string => `
openapi: 3.1.0
info: { title: Notes, version: 1.0.0 }
components:
  securitySchemes: { key: { type: apiKey, in: header, name: X-Key } }
  schemas:
    Note:
      type: object
      required: [id, text]
      properties: { id: { type: ${idType}, readOnly: true }, text: ${textSchema} }
security: [{ key: [] }]
paths:
  /notes:
    get:
      responses:
        '200': { description: all, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Note' } } } } }
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
  /notes/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: ${idType} } }]
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
        '404': { description: none }
${extra}`;

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function serve(text: string): Promise<{ file: string; running: RunningMock }> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'kennel-reload-')), 'notes.yaml');
  writeFileSync(file, text);
  mock = await startMock({ specPath: file, apiKeys: ['a', 'b'], pets: 0 });
  return { file, running: mock };
}

async function create(running: RunningMock, key: string, text: string): Promise<string> {
  const response = await fetch(`${running.url}/notes`, {
    method: 'POST',
    headers: { 'x-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  expect(response.status).toBe(201);
  return String(((await response.json()) as { id: unknown }).id);
}

/** Memory charged for created items: the default store is the in-memory one. */
function memoryBytes(running: RunningMock): number {
  const store = running.mock.store;
  if (!(store instanceof ResourceStore)) throw new Error('expected the in-memory store');
  return store.bytes;
}

const read = async (running: RunningMock, key: string, id: string): Promise<number> =>
  (await fetch(`${running.url}/notes/${id}`, { headers: { 'x-key': key } })).status;

describe('reload (serve --watch) over real HTTP', () => {
  it('keeps every tenant its own items, and charges their memory again', async () => {
    const { file, running } = await serve(NOTES('integer'));
    const a = await create(running, 'a', 'for a');
    const b = await create(running, 'b', 'for b, longer');
    const bytes = memoryBytes(running);
    expect(bytes).toBeGreaterThan(0);
    writeFileSync(file, NOTES('integer', '{ type: string, description: reworded }'));
    const result = await running.reload();
    expect(result.dropped).toBe(0);
    expect(result.kept).toBeGreaterThanOrEqual(2);
    expect(result.operations).toBe(3);
    expect(memoryBytes(running)).toBe(bytes);
    expect(await read(running, 'a', a)).toBe(200);
    expect(await read(running, 'b', b)).toBe(200);
    // Still one store per key after the reload.
    const onlyB = (await (await fetch(`${running.url}/notes`, { headers: { 'x-key': 'b' } })).json()) as unknown[];
    expect(onlyB).toContainEqual({ id: Number(b), text: 'for b, longer' });
    expect(onlyB).not.toContainEqual({ id: Number(a), text: 'for a' });
    // The next key the server gives follows the kept items, not the seeds.
    expect(Number(await create(running, 'a', 'after'))).toBeGreaterThan(Number(a));
  });

  it('drops the items of a collection whose key changed type, and frees their memory', async () => {
    const { file, running } = await serve(NOTES('integer'));
    const id = await create(running, 'a', 'numbered');
    writeFileSync(file, NOTES('string'));
    const result = await running.reload();
    expect(result.kept).toBe(0);
    expect(result.dropped).toBeGreaterThanOrEqual(1);
    expect(memoryBytes(running)).toBe(0);
    expect(await read(running, 'a', id)).toBe(404);
  });

  it('drops only the items that no longer validate', async () => {
    const { file, running } = await serve(NOTES('integer'));
    const short = await create(running, 'a', 'ok');
    const long = await create(running, 'a', 'far too long');
    writeFileSync(file, NOTES('integer', '{ type: string, maxLength: 5 }'));
    await running.reload();
    expect(await read(running, 'a', short)).toBe(200);
    expect(await read(running, 'a', long)).toBe(404);
  });

  it('a document that fails to load changes nothing and says where', async () => {
    const { file, running } = await serve(NOTES('integer'));
    const id = await create(running, 'a', 'stays');
    const before = running.document;
    writeFileSync(file, NOTES('integer', '{ $ref: "#/components/schemas/Missing" }'));
    await expect(running.reload()).rejects.toThrow(/notes\.yaml:\d+.*Missing/);
    expect(running.document).toBe(before);
    expect(await read(running, 'a', id)).toBe(200);
  });
});
