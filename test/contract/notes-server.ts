// A small, correct server for fixtures/contract/notes.yaml: Basic auth with the key as password, a
// required X-Tenant header, uuid ids a client may choose, a limit with no minimum, an optional PUT
// body, an array body, a base64 field and a text/plain operation. `faults` break one thing each,
// so that the tests prove the checker still catches it.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { jsonBody, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

export const NOTES_SPEC = fileURLToPath(new URL('../fixtures/contract/notes.yaml', import.meta.url));

export type NotesFault =
  'empty-body-accepted' | 'bearer-accepted' | 'limit-beyond-maximum' | 'unknown-note-found' | 'text-unreadable';

interface Note {
  id: string;
  title: string;
  code?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function newNote(value: unknown): Omit<Note, 'id'> & { id?: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Refusal(400, 'a note is an object');
  const note = value as Record<string, unknown>;
  for (const name of Object.keys(note))
    if (!['id', 'title', 'code'].includes(name)) throw new Refusal(400, `unknown property ${name}`);
  if (typeof note.title !== 'string' || note.title.length < 1 || [...note.title].length > 40)
    throw new Refusal(400, 'title must be a string of 1 to 40 characters');
  if (note.code !== undefined && (typeof note.code !== 'string' || !/^[0-9]{4}$/.test(note.code)))
    throw new Refusal(400, 'code must be a string of four digits');
  if (note.id !== undefined && (typeof note.id !== 'string' || !UUID.test(note.id)))
    throw new Refusal(400, 'id must be a uuid');
  return note as Omit<Note, 'id'> & { id?: string };
}

function accepts(request: ReceivedRequest, type: string): boolean {
  const accept = (request.headers.accept ?? '*/*').toLowerCase();
  const [major] = type.split('/');
  return accept.includes(type) || accept.includes('*/*') || accept.includes(`${major}/*`);
}

export async function startNotesServer(apiKey: string, faults: readonly NotesFault[] = []): Promise<LoopbackServer> {
  const notes = new Map<string, Note>();
  const members = new Map<string, { id: number; handle: string }>();
  const has = (fault: NotesFault) => faults.includes(fault);

  function authenticate(request: ReceivedRequest, path: string): void {
    const header = request.headers.authorization ?? '';
    const match = /^(\S+) +(\S*)$/.exec(header);
    const bearer = match?.[1]!.toLowerCase() === 'bearer';
    if (bearer && (has('bearer-accepted') || (path === '/imports' && match[2] === apiKey))) return;
    if (match && match[1]!.toLowerCase() === 'basic') {
      const decoded = Buffer.from(match[2]!, 'base64').toString('utf8');
      if (decoded.slice(decoded.indexOf(':') + 1) === apiKey && decoded.includes(':')) return;
    }
    throw new Refusal(401, 'Basic credentials with the API key as password are required', {
      'www-authenticate': path === '/imports' ? 'Basic realm="notes", Bearer' : 'Basic realm="notes"',
    });
  }

  function create(value: unknown): Note {
    const fields = newNote(value);
    const id = fields.id && !notes.has(fields.id) ? fields.id : randomUUID();
    const note: Note = { ...fields, id };
    notes.set(id, note);
    return note;
  }

  function body(request: ReceivedRequest, required: boolean): { value: unknown } | undefined {
    if (request.text === '') {
      if (required && !has('empty-body-accepted')) throw new Refusal(400, 'a body is required');
      return has('empty-body-accepted') ? { value: { title: 'untitled' } } : undefined;
    }
    return { value: jsonBody(request, 415) };
  }

  function route(request: ReceivedRequest): Answer {
    const { method, url } = request;
    const path = url.pathname;
    const item = /^\/notes\/([^/]+)(\/text)?$/.exec(path);
    const known = (id: string) => {
      const note = UUID.test(id) ? notes.get(id.toLowerCase()) : undefined;
      if (!note && has('unknown-note-found') && UUID.test(id)) return { id: randomUUID(), title: 'someone else' };
      if (!note) throw new Refusal(404, `no note ${id}`);
      return note;
    };
    if (path === '/notes' && method === 'GET') {
      const raw = url.searchParams.get('limit');
      if (raw !== null && !/^\d+$/.test(raw)) throw new Refusal(400, 'limit must be a non-negative integer');
      const limit = raw === null ? 10 : Number(raw);
      if (limit > 50 && !has('limit-beyond-maximum')) throw new Refusal(400, 'limit is at most 50');
      return { status: 200, body: [...notes.values()].slice(0, limit) };
    }
    if (path === '/notes' && method === 'POST') return { status: 201, body: create(body(request, true)?.value) };
    if (item && !item[2] && method === 'GET') return { status: 200, body: known(item[1]!) };
    if (item && !item[2] && method === 'PUT') {
      const note = known(item[1]!);
      const sent = body(request, false);
      if (sent) Object.assign(note, newNote(sent.value), { id: note.id });
      return { status: 200, body: note };
    }
    if (item && item[2] && method === 'GET') {
      if (!accepts(request, 'text/plain')) throw new Refusal(406, 'text/plain only');
      const note = UUID.test(item[1]!) && !has('text-unreadable') ? notes.get(item[1]!.toLowerCase()) : undefined;
      return note
        ? { status: 200, body: note.title, type: 'text/plain' }
        : { status: 404, body: 'no such note', type: 'text/plain' };
    }
    if (path === '/members' && method === 'GET') return { status: 200, body: [...members.values()] };
    if (path === '/members' && method === 'POST') {
      const value = body(request, true)?.value as Record<string, unknown> | undefined;
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Refusal(400, 'a member is an object');
      if (typeof value.handle !== 'string' || value.handle === '' || [...value.handle].length > 600)
        throw new Refusal(400, 'handle must be a string of 1 to 600 characters');
      if (value.id !== undefined && !Number.isInteger(value.id)) throw new Refusal(400, 'id must be an integer');
      const member = { id: members.get(value.handle)?.id ?? members.size + 1, handle: value.handle };
      members.set(member.handle, member);
      return { status: 201, body: member };
    }
    const handle = /^\/members\/([^/]+)$/.exec(path);
    if (handle && method === 'GET') {
      const member = members.get(decodeURIComponent(handle[1]!));
      if (!member) throw new Refusal(404, 'no such member');
      return { status: 200, body: member };
    }
    if (path === '/imports' && method === 'POST') {
      const list = body(request, true)?.value;
      if (!Array.isArray(list) || list.length === 0) throw new Refusal(400, 'a non-empty array of notes');
      list.forEach(newNote);
      for (const value of list) create(value);
      return { status: 200, body: { imported: list.length } };
    }
    if (path === '/attachments' && method === 'POST') {
      const value = body(request, true)?.value as Record<string, unknown> | undefined;
      if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).join() !== 'data')
        throw new Refusal(400, 'an object with data only');
      if (typeof value.data !== 'string' || !BASE64.test(value.data)) throw new Refusal(400, 'data must be base64');
      return { status: 201, body: { size: Buffer.from(value.data, 'base64').length } };
    }
    throw new Refusal(404, `nothing at ${method} ${path}`);
  }

  function handle(request: ReceivedRequest): Answer {
    authenticate(request, request.url.pathname);
    if (request.headers['x-tenant'] === undefined) throw new Refusal(400, 'the X-Tenant header is required');
    const answer = route(request);
    if ((answer.type ?? 'application/json') === 'application/json' && !accepts(request, 'application/json'))
      throw new Refusal(406, 'application/json only');
    return answer;
  }

  return startJsonServer(handle, (refusal) => ({
    status: refusal.status,
    body: { message: refusal.message },
    headers: refusal.headers,
  }));
}
