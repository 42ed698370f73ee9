// Issue 18, item 6: a `--watch` reload that lands while a create is under way (held by
// `Prefer: delay`, or by a body that has not arrived yet). Real HTTP: whatever the client is told
// was created is there after the reload, and no id is handed out twice.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { requestsArrive } from '../helpers/wait.js';

/** Tickets keyed by an integer the server assigns; `text` as given; `more` appended under paths. */
function tickets(text = '{ type: string }', more = '', idType = 'integer'): string {
  return `
openapi: 3.1.0
info: { title: Tickets, version: 1.0.0 }
components:
  schemas:
    Ticket:
      type: object
      required: [id, text]
      properties: { id: { type: ${idType}, readOnly: true }, text: ${text} }
paths:
  /tickets:
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Ticket' } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Ticket' } } } }
  /tickets/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: ${idType} } }]
    get:
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Ticket' } } } }
        '404': { description: none }
    delete:
      responses:
        '204': { description: gone }
        '404': { description: none }
${more}`;
}

/** The same API with the tickets gone and another collection instead. */
const WITHOUT_TICKETS = `
openapi: 3.1.0
info: { title: Tickets, version: 2.0.0 }
paths:
  /notes:
    post:
      requestBody: { required: true, content: { application/json: { schema: { type: object } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { type: object } } } }
`;

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function serve(text: string): Promise<{ file: string; running: RunningMock }> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'kennel-reload-flight-')), 'tickets.yaml');
  writeFileSync(file, text);
  mock = await startMock({ specPath: file, pets: 0, world: false });
  return { file, running: mock };
}

async function create(running: RunningMock, text: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${running.url}/tickets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ text }),
  });
  return { status: response.status, body: (await response.json()) as { id: number; code?: string } };
}

const portOf = (running: RunningMock): number => Number(new URL(running.origin).port);

const status = async (running: RunningMock, id: number) => (await fetch(`${running.url}/tickets/${id}`)).status;

describe('a reload while a create is under way', () => {
  it('a create held by Prefer: delay across a reload is kept, and its id is not handed out again (10 of 10)', async () => {
    const { file, running } = await serve(tickets());
    const ids = new Set<number>();
    for (let round = 0; round < 10; round += 1) {
      const arrived = requestsArrive(portOf(running));
      const held = create(running, `held ${round}`, { prefer: 'delay=150' });
      await arrived;
      writeFileSync(file, tickets(`{ type: string, description: edit ${round} }`));
      await running.reload();
      const made = await held;
      expect(made.status).toBe(201);
      const next = await create(running, `after ${round}`);
      expect(next.status).toBe(201);
      for (const id of [made.body.id, next.body.id]) {
        expect(ids.has(id), `id ${id} handed out twice`).toBe(false);
        ids.add(id);
      }
      expect(await status(running, made.body.id)).toBe(200);
      expect(await status(running, next.body.id)).toBe(200);
    }
  });

  it('two reloads within one held create: it lands in the store of the last', async () => {
    const { file, running } = await serve(tickets());
    const arrived = requestsArrive(portOf(running));
    const held = create(running, 'twice', { prefer: 'delay=300' });
    await arrived;
    for (const edit of ['one', 'two']) {
      writeFileSync(file, tickets(`{ type: string, description: ${edit} }`));
      await running.reload();
    }
    const made = await held;
    expect(made.status).toBe(201);
    expect(await status(running, made.body.id)).toBe(200);
  });

  it('a create whose body is still arriving when the reload lands is kept', async () => {
    const { file, running } = await serve(tickets());
    const body = JSON.stringify({ text: 'slow body' });
    const { port } = new URL(running.origin);
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    const arrived = requestsArrive(Number(port));
    socket.write(
      `POST /tickets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
    );
    await arrived;
    writeFileSync(file, tickets('{ type: string, description: edited }'));
    await running.reload();
    socket.write(body.slice(5));
    await closed;
    expect(text).toMatch(/^HTTP\/1\.1 201/);
    const made = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { id: number };
    expect(await status(running, made.id)).toBe(200);
    expect((await create(running, 'next')).body.id).not.toBe(made.id);
  });

  it('a create the reloaded document cannot keep (its collection is gone) is refused, never acknowledged then lost', async () => {
    const { file, running } = await serve(tickets());
    const arrived = requestsArrive(portOf(running));
    const held = create(running, 'orphan', { prefer: 'delay=200' });
    await arrived;
    writeFileSync(file, WITHOUT_TICKETS);
    await running.reload();
    const made = await held;
    expect(made.status).not.toBe(201);
    expect(made.body.code).toBe('document_reloaded');
  });

  it('a create the reloaded schema no longer admits is refused, not stored against the schema', async () => {
    const { file, running } = await serve(tickets());
    const arrived = requestsArrive(portOf(running));
    const held = create(running, 'far too long for the new schema', { prefer: 'delay=200' });
    await arrived;
    writeFileSync(file, tickets('{ type: string, maxLength: 5 }'));
    await running.reload();
    const made = await held;
    expect(made.body.code).toBe('document_reloaded');
  });

  it('an id whose item was deleted before a reload is not handed out again after it', async () => {
    const { file, running } = await serve(tickets());
    const first = await create(running, 'one');
    const second = await create(running, 'two');
    expect((await fetch(`${running.url}/tickets/${second.body.id}`, { method: 'DELETE' })).status).toBe(204);
    writeFileSync(file, tickets('{ type: string, description: edited }'));
    await running.reload();
    const third = await create(running, 'three');
    expect([first.body.id, second.body.id]).not.toContain(third.body.id);
  });
});
