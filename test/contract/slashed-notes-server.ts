// A server for fixtures/contract/slashed-notes.yaml, every path with a trailing slash (taken
// without it too). Archiving moves a note to `archived` once (409 after, before the body is
// read). Faults: `archive-deleted` archives a deleted note; `archive-unvalidated` takes any body.
import { fileURLToPath } from 'node:url';
import { jsonBody, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

export const SLASHED_NOTES_SPEC = fileURLToPath(new URL('../fixtures/contract/slashed-notes.yaml', import.meta.url));

export type SlashedNotesFault = 'archive-deleted' | 'archive-unvalidated';

interface Note {
  id: number;
  title: string;
  status: 'active' | 'archived';
}

/** The one string property `name` of a body holding nothing else, 1 to `max` characters. */
function only(request: ReceivedRequest, name: string, max: number): string {
  const body = jsonBody(request);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Refusal(400, 'send an object');
  const { [name]: value, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw new Refusal(400, `unknown property ${Object.keys(rest)[0]}`);
  if (typeof value !== 'string' || [...value].length < 1 || [...value].length > max)
    throw new Refusal(400, `${name}: 1 to ${max} characters`);
  return value;
}

export function startSlashedNotes(fault?: SlashedNotesFault): Promise<LoopbackServer> {
  const notes = new Map<number, Note>();
  const deleted = new Map<number, Note>();
  let next = 1;

  function note(raw: string, orDeleted = false): Note {
    const id = Number(raw);
    const found = notes.get(id) ?? (orDeleted ? deleted.get(id) : undefined);
    if (!/^[1-9][0-9]{0,8}$/.test(raw) || !found) throw new Refusal(404, `no note ${raw}`);
    return found;
  }

  function archive(request: ReceivedRequest, raw: string): Answer {
    const target = note(raw, fault === 'archive-deleted');
    if (target.status === 'archived') throw new Refusal(409, `note ${raw} is archived already`);
    if (fault !== 'archive-unvalidated') only(request, 'reason', 80);
    target.status = 'archived';
    return { status: 204 };
  }

  function route(request: ReceivedRequest): Answer {
    const { method, url } = request;
    if (/^\/notes\/?$/.test(url.pathname) && method === 'POST') {
      const created: Note = { id: next++, title: only(request, 'title', 40), status: 'active' };
      notes.set(created.id, created);
      return { status: 201, body: created };
    }
    const action = /^\/notes\/([^/]+)\/archive\/?$/.exec(url.pathname);
    if (action && method === 'POST') return archive(request, action[1]!);
    const item = /^\/notes\/([^/]+)\/?$/.exec(url.pathname);
    if (item && method === 'GET') return { status: 200, body: note(item[1]!) };
    if (item && method === 'DELETE') {
      const gone = note(item[1]!);
      notes.delete(gone.id);
      deleted.set(gone.id, gone);
      return { status: 204 };
    }
    throw new Refusal(404, `nothing at ${method} ${url.pathname}`);
  }

  return startJsonServer(route, (refusal) => ({ status: refusal.status, body: { error: refusal.message } }));
}
