// A small, correct server for fixtures/contract/notes.yaml: Basic auth with the key as password, a
// required X-Tenant header, uuid ids a client may choose, a limit with no minimum, an optional PUT
// body, an array body, a base64 field and a text/plain operation. `faults` break one thing each,
// so that the tests prove the checker still catches it.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback.js';

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

class Reply extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function send(response: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const text = type === 'application/json' ? JSON.stringify(body) : String(body);
  response.writeHead(status, { 'content-type': type }).end(text);
}

function newNote(value: unknown): Omit<Note, 'id'> & { id?: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Reply(400, 'a note is an object');
  const note = value as Record<string, unknown>;
  for (const name of Object.keys(note))
    if (!['id', 'title', 'code'].includes(name)) throw new Reply(400, `unknown property ${name}`);
  if (typeof note.title !== 'string' || note.title.length < 1 || [...note.title].length > 40)
    throw new Reply(400, 'title must be a string of 1 to 40 characters');
  if (note.code !== undefined && (typeof note.code !== 'string' || !/^[0-9]{4}$/.test(note.code)))
    throw new Reply(400, 'code must be a string of four digits');
  if (note.id !== undefined && (typeof note.id !== 'string' || !UUID.test(note.id)))
    throw new Reply(400, 'id must be a uuid');
  return note as Omit<Note, 'id'> & { id?: string };
}

function accepts(request: IncomingMessage, type: string): boolean {
  const accept = (request.headers.accept ?? '*/*').toLowerCase();
  const [major] = type.split('/');
  return accept.includes(type) || accept.includes('*/*') || accept.includes(`${major}/*`);
}

export async function startNotesServer(apiKey: string, faults: readonly NotesFault[] = []): Promise<LoopbackServer> {
  const notes = new Map<string, Note>();
  const members = new Map<string, { id: number; handle: string }>();
  const has = (fault: NotesFault) => faults.includes(fault);

  function authenticate(request: IncomingMessage, path: string): void {
    const header = request.headers.authorization ?? '';
    const match = /^(\S+) +(\S*)$/.exec(header);
    const bearer = match?.[1]!.toLowerCase() === 'bearer';
    if (bearer && (has('bearer-accepted') || (path === '/imports' && match[2] === apiKey))) return;
    if (match && match[1]!.toLowerCase() === 'basic') {
      const decoded = Buffer.from(match[2]!, 'base64').toString('utf8');
      if (decoded.slice(decoded.indexOf(':') + 1) === apiKey && decoded.includes(':')) return;
    }
    throw new Reply(401, 'Basic credentials with the API key as password are required', {
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

  function body(request: IncomingMessage, text: string, required: boolean): { value: unknown } | undefined {
    if (text === '') {
      if (required && !has('empty-body-accepted')) throw new Reply(400, 'a body is required');
      return text === '' && has('empty-body-accepted') ? { value: { title: 'untitled' } } : undefined;
    }
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') throw new Reply(415, 'send application/json');
    try {
      return { value: JSON.parse(text) };
    } catch {
      throw new Reply(400, 'malformed JSON');
    }
  }

  function route(request: IncomingMessage, url: URL, text: string): { status: number; body: unknown; type?: string } {
    const method = request.method ?? 'GET';
    const path = url.pathname;
    const item = /^\/notes\/([^/]+)(\/text)?$/.exec(path);
    const known = (id: string) => {
      const note = UUID.test(id) ? notes.get(id.toLowerCase()) : undefined;
      if (!note && has('unknown-note-found') && UUID.test(id)) return { id: randomUUID(), title: 'someone else' };
      if (!note) throw new Reply(404, `no note ${id}`);
      return note;
    };
    if (path === '/notes' && method === 'GET') {
      const raw = url.searchParams.get('limit');
      if (raw !== null && !/^\d+$/.test(raw)) throw new Reply(400, 'limit must be a non-negative integer');
      const limit = raw === null ? 10 : Number(raw);
      if (limit > 50 && !has('limit-beyond-maximum')) throw new Reply(400, 'limit is at most 50');
      return { status: 200, body: [...notes.values()].slice(0, limit) };
    }
    if (path === '/notes' && method === 'POST') return { status: 201, body: create(body(request, text, true)?.value) };
    if (item && !item[2] && method === 'GET') return { status: 200, body: known(item[1]!) };
    if (item && !item[2] && method === 'PUT') {
      const note = known(item[1]!);
      const sent = body(request, text, false);
      if (sent) Object.assign(note, newNote(sent.value), { id: note.id });
      return { status: 200, body: note };
    }
    if (item && item[2] && method === 'GET') {
      if (!accepts(request, 'text/plain')) throw new Reply(406, 'text/plain only');
      const note = UUID.test(item[1]!) && !has('text-unreadable') ? notes.get(item[1]!.toLowerCase()) : undefined;
      return note
        ? { status: 200, body: note.title, type: 'text/plain' }
        : { status: 404, body: 'no such note', type: 'text/plain' };
    }
    if (path === '/members' && method === 'GET') return { status: 200, body: [...members.values()] };
    if (path === '/members' && method === 'POST') {
      const value = body(request, text, true)?.value as Record<string, unknown> | undefined;
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Reply(400, 'a member is an object');
      if (typeof value.handle !== 'string' || value.handle === '' || [...value.handle].length > 600)
        throw new Reply(400, 'handle must be a string of 1 to 600 characters');
      if (value.id !== undefined && !Number.isInteger(value.id)) throw new Reply(400, 'id must be an integer');
      const member = { id: members.get(value.handle)?.id ?? members.size + 1, handle: value.handle };
      members.set(member.handle, member);
      return { status: 201, body: member };
    }
    const handle = /^\/members\/([^/]+)$/.exec(path);
    if (handle && method === 'GET') {
      const member = members.get(decodeURIComponent(handle[1]!));
      if (!member) throw new Reply(404, 'no such member');
      return { status: 200, body: member };
    }
    if (path === '/imports' && method === 'POST') {
      const list = body(request, text, true)?.value;
      if (!Array.isArray(list) || list.length === 0) throw new Reply(400, 'a non-empty array of notes');
      list.forEach(newNote);
      for (const value of list) create(value);
      return { status: 200, body: { imported: list.length } };
    }
    if (path === '/attachments' && method === 'POST') {
      const value = body(request, text, true)?.value as Record<string, unknown> | undefined;
      if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).join() !== 'data')
        throw new Reply(400, 'an object with data only');
      if (typeof value.data !== 'string' || !BASE64.test(value.data)) throw new Reply(400, 'data must be base64');
      return { status: 201, body: { size: Buffer.from(value.data, 'base64').length } };
    }
    throw new Reply(404, `nothing at ${method} ${path}`);
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://notes.test');
      try {
        authenticate(request, url.pathname);
        const tenant = request.headers['x-tenant'];
        if (tenant === undefined) throw new Reply(400, 'the X-Tenant header is required');
        const answer = route(request, url, Buffer.concat(chunks).toString('utf8'));
        if ((answer.type ?? 'application/json') === 'application/json' && !accepts(request, 'application/json'))
          throw new Reply(406, 'application/json only');
        send(response, answer.status, answer.body, answer.type);
      } catch (error) {
        if (!(error instanceof Reply)) throw error;
        response.writeHead(error.status, { 'content-type': 'application/json', ...error.headers });
        response.end(JSON.stringify({ message: error.message }));
      }
    });
  });
  return listenOnLoopback(server);
}
