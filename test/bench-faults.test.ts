// The fault proxy of npm run bench:faults (bench/lib/fault-proxy.js) in front of kennel serve of a
// small document: a fault changes an answer only where the document makes it one, and counts as
// applied only on an exchange a documented operation names, so the sweep's n/a means "no occasion".
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../src/openapi/load.js';
import { listOperations } from '../src/openapi/operations.js';
import { startMock } from '../src/serve/server.js';
// @ts-expect-error: the bench is plain JavaScript without declarations
import { documentView } from '../bench/lib/fault-document.js';
// @ts-expect-error: the bench is plain JavaScript without declarations
import { startFaultProxy } from '../bench/lib/fault-proxy.js';

const KEY = 'bench-key';
const DOCUMENT = fileURLToPath(new URL('fixtures/contract/located-reads.yaml', import.meta.url));

interface Proxy {
  url: string;
  applied(): number;
  close(): Promise<void>;
}

let mock: Awaited<ReturnType<typeof startMock>>;
let view: unknown;
beforeAll(async () => {
  mock = await startMock({ specPath: DOCUMENT, port: 0, apiKeys: [KEY], world: false });
  const loaded = await loadDocument(DOCUMENT);
  view = documentView(listOperations(loaded.dereferenced), loaded.basePath);
});
afterAll(() => mock.close());

async function through(fault: string, steps: (url: string) => Promise<void>): Promise<number> {
  const proxy = (await startFaultProxy(mock.url, fault, KEY, view)) as Proxy;
  try {
    await steps(proxy.url);
    return proxy.applied();
  } finally {
    await proxy.close();
  }
}

const create = (url: string, text: string) =>
  fetch(`${url}/notes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });

describe('bench:faults proxy', () => {
  it('answers a create 200 where 201 is its only documented success', async () => {
    const applied = await through('created-status-wrong', async (url) => {
      expect((await create(url, 'first')).status).toBe(200);
    });
    expect(applied).toBe(1);
  });

  it('drops the last required property of a read, where the schema requires it', async () => {
    const applied = await through('required-field-dropped', async (url) => {
      const location = (await create(url, 'kept')).headers.get('location')!;
      const read = (await (await fetch(new URL(location, url))).json()) as Record<string, unknown>;
      expect(Object.keys(read)).toEqual(['id']);
    });
    expect(applied).toBe(1);
  });

  it('answers a missing note 200 {} where 404 is documented', async () => {
    const applied = await through('not-found-as-empty-200', async (url) => {
      const answer = await fetch(`${url}/notes/no-such-note`);
      expect([answer.status, await answer.text()]).toEqual([200, '{}']);
    });
    expect(applied).toBe(1);
  });

  it('does not take the base URL for an item path', () => {
    const operations = [{ method: 'get', path: '/{ip}', responses: [] }];
    const underV1 = documentView(operations, '/v1') as { operationAt(method: string, url: string): unknown };
    expect(underV1.operationAt('GET', '/v1')).toBeUndefined();
    expect(underV1.operationAt('GET', '/v1/1.2.3.4')).toBe(operations[0]);
  });

  it('does not count what it does to a URL no operation names', async () => {
    const applied = await through('server-error-for-missing', async (url) => {
      expect((await fetch(`${url}/nowhere`)).status).toBe(500);
    });
    expect(applied).toBe(0);
  });
});
