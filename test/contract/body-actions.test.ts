// An action on one item that takes a body and answers the item (`POST /notes/{id}/archive` with a
// reason, 200 with the note) looks like a create to a reader of the document: a POST with a body
// that answers an object with a key. It makes nothing new, so its answers naming the same note
// again are no reused id, and a second archive refused with 409 (a conflict with the note's state)
// is no refusal of the text it carried.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/runner.js';
import { jsonBody, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

const ARCHIVE = fileURLToPath(new URL('../fixtures/contract/archive-action.yaml', import.meta.url));

interface Note {
  id: number;
  text: string;
  archived: boolean;
  reason?: string;
}

function text(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | null)?.[name];
  if (typeof value !== 'string' || value.length > 200) throw new Refusal(400, `${name} is a string`);
  return value;
}

function startNotes(archive: 'once' | 'again'): Promise<LoopbackServer> {
  const notes: Note[] = [{ id: 1, text: 'first', archived: false }];
  const note = (raw: string) => {
    const found = notes.find((candidate) => String(candidate.id) === raw);
    if (!found) throw new Refusal(404, `no note ${raw}`);
    return found;
  };
  function route(request: ReceivedRequest): Answer {
    const [collection, id, action, ...rest] = request.url.pathname.split('/').filter(Boolean);
    if (collection !== 'notes' || rest.length > 0) throw new Refusal(404, 'no such path');
    if (id === undefined && request.method === 'GET') return { status: 200, body: notes };
    if (id === undefined && request.method === 'POST') {
      const created = { id: notes.length + 1, text: text(jsonBody(request), 'text'), archived: false };
      notes.push(created);
      return { status: 201, body: created };
    }
    if (action === undefined && request.method === 'GET') return { status: 200, body: note(id!) };
    if (action === 'archive' && request.method === 'POST') {
      const found = note(id!);
      const reason = text(jsonBody(request), 'reason');
      if (found.archived && archive === 'once') throw new Refusal(409, 'archived already');
      Object.assign(found, { archived: true, reason });
      return { status: 200, body: found };
    }
    throw new Refusal(405, 'not allowed');
  }
  return startJsonServer(route, (refusal) => ({ status: refusal.status, body: { message: refusal.message } }));
}

describe('an action with a body that answers its item', { timeout: 60_000 }, () => {
  it.each(['once', 'again'] as const)('draws no error when notes are archived %s', async (archive) => {
    const server = await startNotes(archive);
    try {
      const summary = await runContract({ baseUrl: server.url, apiKey: '', specPath: ARCHIVE, seed: 2 });
      const errors = summary.cases.flatMap((found) =>
        found.failures
          .filter((failure) => failure.severity === 'error')
          .map((failure) => `${found.check}: ${failure.title}`),
      );
      expect(errors).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
