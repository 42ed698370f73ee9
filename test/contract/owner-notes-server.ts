// A small server for test/fixtures/contract/owner-notes.yaml: owners and the notes under each.
// Notes are numbered once for all owners or per owner (both correct); each fault breaks how a
// note belongs to its owner.
import { fileURLToPath } from 'node:url';
import { jsonBody, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

export const OWNER_NOTES = fileURLToPath(new URL('../fixtures/contract/owner-notes.yaml', import.meta.url));

export interface NotesOptions {
  numbering: 'global' | 'per-owner';
  /** The fault: a note is found by its id whichever owner the path names. */
  ignoresParent?: boolean;
  /** Notes show `ownerId`: their own owner's, or (the fault) the first owner's. */
  showsOwner?: 'own' | 'first';
  /** The fault: a deleted owner's notes stay, and new notes are still taken under it. */
  keepsNotesOfDeleted?: boolean;
}

interface Note {
  id: number;
  owner: string;
  text: string;
}

export function startOwnerNotes(options: NotesOptions): Promise<LoopbackServer> {
  const { numbering, ignoresParent = false, showsOwner, keepsNotesOfDeleted = false } = options;
  const owners = new Map([
    ['o1', { id: 'o1', name: 'Ada' }],
    ['o2', { id: 'o2', name: 'Grace' }],
  ]);
  const notes: Note[] = [
    { id: 1, owner: 'o1', text: 'first of Ada' },
    { id: numbering === 'global' ? 2 : 1, owner: 'o2', text: 'first of Grace' },
  ];
  const shown = ({ id, text, owner }: Note) =>
    showsOwner === undefined ? { id, text } : { id, text, ownerId: showsOwner === 'own' ? owner : 'o1' };

  const deleted = new Set<string>();
  let made = owners.size;

  function owner(id: string, forNotes = false): string {
    if (!owners.has(id) && !(forNotes && keepsNotesOfDeleted && deleted.has(id)))
      throw new Refusal(404, `no owner ${id}`);
    return id;
  }

  function note(ownerId: string, raw: string): Note {
    const found = notes.find(
      (candidate) => String(candidate.id) === raw && (ignoresParent || candidate.owner === ownerId),
    );
    if (!found) throw new Refusal(404, `no note ${raw} of ${ownerId}`);
    return found;
  }

  function createNote(ownerId: string, body: unknown): Answer {
    const text = (body as { text?: unknown } | null)?.text;
    if (typeof text !== 'string') throw new Refusal(400, 'text is a string');
    const mine = notes.filter((candidate) => numbering === 'global' || candidate.owner === ownerId);
    const created = { id: Math.max(0, ...mine.map((candidate) => candidate.id)) + 1, owner: ownerId, text };
    notes.push(created);
    return { status: 201, body: shown(created) };
  }

  function route(request: ReceivedRequest): Answer {
    const { method, url } = request;
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== 'owners') throw new Refusal(404, 'no such path');
    if (parts.length === 1 && method === 'GET') return { status: 200, body: [...owners.values()] };
    if (parts.length === 1 && method === 'POST') {
      const name = (jsonBody(request) as { name?: unknown } | null)?.name;
      if (typeof name !== 'string') throw new Refusal(400, 'name is a string');
      const created = { id: `o${++made}`, name };
      owners.set(created.id, created);
      return { status: 201, body: created };
    }
    const ownerId = owner(parts[1]!, parts.length > 2);
    if (parts.length === 2 && method === 'GET') return { status: 200, body: owners.get(ownerId) };
    if (parts.length === 2 && method === 'DELETE') {
      owners.delete(ownerId);
      deleted.add(ownerId);
      return { status: 204 };
    }
    if (parts[2] !== 'notes') throw new Refusal(404, 'no such path');
    if (parts.length === 3 && method === 'GET')
      return { status: 200, body: notes.filter((candidate) => candidate.owner === ownerId).map(shown) };
    if (parts.length === 3 && method === 'POST') return createNote(ownerId, jsonBody(request));
    if (parts.length === 4 && method === 'GET') return { status: 200, body: shown(note(ownerId, parts[3]!)) };
    throw new Refusal(405, 'not allowed');
  }

  return startJsonServer(route, (refusal) => ({ status: refusal.status, body: { message: refusal.message } }));
}
