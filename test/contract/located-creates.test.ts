// A create documented without an answer body names its item only by the Location header: kennel
// check reads the key from it (against the collection's item path) and looks for the item in the
// list, so a deployment that answers 201 and forgets the item is caught, and one that keeps it passes.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createdKeyOf } from '../../src/contract/checks/created-key.js';
import { buildPlan } from '../../src/contract/prepare/plan.js';
import { runContract } from '../../src/contract/run/runner.js';
import { loadDocument } from '../../src/openapi/load.js';

const KEY = 'located-key';
const DOCUMENT = fileURLToPath(new URL('../fixtures/contract/located-creates.yaml', import.meta.url));

/** The tasks API as the document says, plain node:http; `forget` answers creates and keeps nothing. */
function tasksServer(forget: boolean): Server {
  const tasks = new Map<string, { id: string; title: string }>([['t-1', { id: 't-1', title: 'seeded' }]]);
  let next = 2;
  return createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/tasks' && request.method === 'GET') return answer(response, 200, [...tasks.values()]);
      if (url.pathname === '/tasks' && request.method === 'POST') {
        let body: { title?: unknown };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { title?: unknown };
        } catch {
          return answer(response, 400, { message: 'not JSON' });
        }
        if (typeof body.title !== 'string' || body.title.length === 0 || body.title.length > 40)
          return answer(response, 400, { message: 'title' });
        const id = `t-${next++}`;
        if (!forget) tasks.set(id, { id, title: body.title });
        response.writeHead(201, { location: `/tasks/${id}`, 'content-length': '0' });
        return response.end();
      }
      const item = /^\/tasks\/([^/]+)$/.exec(url.pathname);
      if (item && request.method === 'DELETE') {
        const found = tasks.delete(decodeURIComponent(item[1]!));
        response.writeHead(found ? 204 : 404);
        return response.end();
      }
      return answer(response, 404, { message: 'no route' });
    });
  });
}

function answer(response: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

let server: Server | undefined;
afterEach(() => server?.close());

async function freshness(forget: boolean) {
  server = tasksServer(forget);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const summary = await runContract({
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: KEY,
    specPath: DOCUMENT,
    seed: 3,
    checks: ['list-freshness'],
  });
  return summary.cases.find((result) => result.check === 'list-freshness' && result.operationId === 'listTasks')!;
}

describe('list-freshness for a create answered only by its Location', () => {
  it('finds the item the Location names in the list', async () => {
    const result = await freshness(false);
    expect([result.status, result.unexercisedReason]).toEqual(['passed', undefined]);
  });

  it('reports an item the Location named that the list never shows', async () => {
    const result = await freshness(true);
    expect(result.failures.map((finding) => `${finding.severity}: ${finding.title}`)).toEqual([
      'error: 1 created resource(s) never appear in listTasks',
    ]);
  });
});

describe('the key a Location names', () => {
  it("is read only where the fixed segments are the item path's own, and never from broken text", async () => {
    const plan = buildPlan(await loadDocument(DOCUMENT));
    const create = plan.all.find((operation) => operation.id === 'createTask')!;
    const keyOf = (location: string): unknown =>
      createdKeyOf(create, {
        operation: create,
        intent: 'valid',
        purpose: 'test',
        request: { method: 'POST', url: 'http://h/api/tasks', headers: {}, body: '{}' },
        response: { status: 201, headers: { location }, text: '', json: undefined },
        durationMs: 1,
      });
    expect(keyOf('/api/tasks/t-7')).toBe('t-7');
    expect(keyOf('http://elsewhere/tasks/a%20b')).toBe('a b');
    expect(keyOf('/api/notes/t-7')).toBeUndefined();
    expect(keyOf('/tasks/%E0%A4%A')).toBeUndefined();
    expect(keyOf('/tasks/')).toBeUndefined();
  });
});
