import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageFile } from '../../src/assets.js';
import { controlResponder } from '../../src/domains/live/control-api.js';
import { LiveWorld } from '../../src/domains/live/live-world.js';
import { loadWorld } from '../../src/domains/scenario/scenario-file.js';
import { specRouter } from '../../src/mock/routing/spec-router.js';
import { loadDocument } from '../../src/openapi/load.js';

// The control API over real HTTP, with a scenario directory whose file is a named pipe: loading it
// waits until the test writes the scenario, which holds a load at its `await` for as long as needed.
const dir = mkdtempSync(path.join(tmpdir(), 'kennel-serialised-'));
const fifo = path.join(dir, 'held.yaml');
const SCENARIO = `description: a load held at its await
given:
  zones: [{ apex: example.com, provider: flexdns }]
steps:
  - advance: 1m
`;

let server: Server;
let base: string;
let arrived: (operationId: string) => void = () => undefined;

beforeAll(async () => {
  execFileSync('mkfifo', [fifo]);
  const live = await LiveWorld.start(await loadWorld(), { now: Date.now(), scenarioDir: dir });
  const respond = controlResponder(live);
  const app = new Koa();
  app.use(
    specRouter({
      document: await loadDocument(packageFile('spec/domains.yaml')),
      prefix: '',
      maxBodyBytes: 64 * 1024,
      authenticate: () => null,
      // Tells the test when a request has reached the control API's responder.
      respond: (operation, input, request) => {
        const answer = respond(operation, input, request);
        arrived(operation.operation.operationId ?? '');
        return answer;
      },
    }),
  );
  server = createServer((request, response) => void app.callback()(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function call(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('control API requests run one at a time, in arrival order', () => {
  it('a write that arrives while a scenario load awaits its file lands in the loaded world, not the replaced one', async () => {
    const load = call('POST', '/scenario', { name: 'held' });
    // Opening the pipe for writing returns once the load has opened it for reading: it is at its await.
    const writer = await open(fifo, 'w');
    const writeArrived = new Promise<void>((resolve) => {
      arrived = (operationId) => operationId === 'addRecord' && resolve();
    });
    const write = call('POST', '/records', { name: 'www.example.com', type: 'A', value: '192.0.2.7' });
    await writeArrived;
    await writer.writeFile(SCENARIO);
    await writer.close();
    const [loaded, written] = await Promise.all([load, write]);
    expect(loaded.status).toBe(200);
    expect(written.status).toBe(201);
    expect((await call('GET', `/records/${written.body.id}`)).status, 'the write survived the load').toBe(200);
    expect((await call('GET', '/records')).body).toEqual([expect.objectContaining({ id: written.body.id })]);
  });

  it('concurrent writers and readers: every acknowledged write is there afterwards', async () => {
    expect((await call('POST', '/reset')).status).toBe(200);
    const writes = Array.from({ length: 40 }, (_, index) =>
      call('POST', '/records', { name: 'example.com', type: 'TXT', value: `w${index}` }),
    );
    const others = Array.from({ length: 20 }, (_, index) =>
      index % 2 === 0 ? call('POST', '/clock/advance', { by: '1m' }) : call('GET', '/state'),
    );
    const answers = await Promise.all([...writes, ...others]);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 201)).toBe(true);
    const ids = (await Promise.all(writes)).map((answer) => answer.body.id as number);
    expect(new Set(ids).size).toBe(ids.length);
    const listed = (await call('GET', '/records')).body.map((record: { id: number }) => record.id);
    expect(listed.sort()).toEqual([...ids].sort());
  });
});
