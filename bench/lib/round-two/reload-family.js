// `kennel serve --watch` with creates under way at every reload: each round starts creates held
// by `Prefer: delay`, edits the document while they wait, and checks that every create the
// client was told about is there afterwards, with an id nobody else got.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiClient } from '../api-client.js';
import { finding } from './raw.js';
import { spawnServe } from './serve-child.js';

const FAMILY = 'reload';

/** A document of tickets with integer ids; `note` changes with every edit (a reload that keeps every item). */
function tickets(note) {
  return `openapi: 3.1.0
info: { title: Tickets, version: 1.0.0, description: '${note}' }
components:
  schemas:
    Ticket:
      type: object
      required: [id, text]
      properties: { id: { type: integer, readOnly: true }, text: { type: string } }
paths:
  /tickets:
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Ticket' } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Ticket' } } } }
  /tickets/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
    get:
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Ticket' } } } }
        '404': { description: none }
`;
}

/** Runs the family; resolves its figures and findings. */
export async function runReloadFamily({ bin, cwd, profile }) {
  const folder = mkdtempSync(path.join(tmpdir(), 'kennel-reliability-reload-'));
  const file = path.join(folder, 'tickets.yaml');
  writeFileSync(file, tickets('edit 0'));
  const args = ['--no-world', '--log-level', 'warn', '--watch', '--spec', file, '--pets', '0'];
  const kennel = await spawnServe({ bin, cwd, args, patterns: { reloads: /kennel: reloaded/ } });
  const client = apiClient(kennel.origin, { timeoutMs: 10_000 });
  const findings = [];
  const ids = new Map();
  let acknowledged = 0;
  let lost = 0;
  let twice = 0;
  let fiveXx = 0;
  const statuses = {};
  try {
    for (let round = 0; round < profile.edits; round += 1) {
      const held = Array.from({ length: profile.perEdit }, (_item, index) =>
        client
          .post('/tickets', { text: `r${round}-${index}` }, { prefer: `delay=${profile.delayMs + index * 10}` })
          .catch((error) => ({ status: 0, body: error.code ?? error.message })),
      );
      const direct = client.post('/tickets', { text: `r${round}-direct` }).catch(() => ({ status: 0, body: '' }));
      await new Promise((resolve) => setTimeout(resolve, 30));
      writeFileSync(file, tickets(`edit ${round + 1}`));
      for (const answer of await Promise.all([...held, direct])) {
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        if (answer.status >= 500) fiveXx += 1;
        if (answer.status !== 201) continue;
        acknowledged += 1;
        const made = JSON.parse(answer.body);
        if (ids.has(made.id)) {
          twice += 1;
          findings.push(finding(FAMILY, 'id-twice', String(made.id), `${ids.get(made.id)} and ${made.text}`));
        }
        ids.set(made.id, made.text);
      }
      // Let the watcher's debounce pass, so the next round meets the next reload.
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    for (const [id, text] of ids) {
      const read = await client.get(`/tickets/${id}`);
      if (read.status !== 200 || JSON.parse(read.body).text !== text) {
        lost += 1;
        if (lost <= 5) findings.push(finding(FAMILY, 'lost', String(id), `acknowledged, then ${read.status}`));
      }
    }
  } finally {
    client.close();
    await kennel.stop();
    rmSync(folder, { recursive: true, force: true });
  }
  const reloads = kennel.scanned().reloads;
  if (fiveXx > 0) findings.push(finding(FAMILY, '5xx', 'create', `${fiveXx} creates answered 5xx`));
  return {
    edits: profile.edits,
    reloadsSeen: reloads,
    acknowledged,
    lost,
    idsTwice: twice,
    fiveXx,
    statuses,
    findings,
  };
}
