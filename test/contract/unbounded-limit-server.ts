// Servers for fixtures/contract/unbounded-limit.yaml, whose limit documents no bound. Correct
// ones may still bound it: `silent-cap` never answers more than 5 notes, `default-above-max`
// answers its default 5 to a limit above an undocumented 50. The fault `cached-large-lists`
// answers every limit above 100 from the first such list it served: new notes never show there.
import { fileURLToPath } from 'node:url';
import { jsonBody, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

export const UNBOUNDED_LIMIT_SPEC = fileURLToPath(
  new URL('../fixtures/contract/unbounded-limit.yaml', import.meta.url),
);

export type UnboundedLimitServer = 'correct' | 'silent-cap' | 'default-above-max' | 'cached-large-lists';

interface Note {
  id: number;
  text: string;
}

/** How many notes a list answers for `limit` (undefined: none asked). */
function listed(server: UnboundedLimitServer, limit: number | undefined): number {
  if (server === 'silent-cap') return Math.min(limit ?? 5, 5);
  if (server === 'default-above-max') return limit === undefined || limit > 50 ? 5 : limit;
  return limit ?? Infinity;
}

function textOf(request: ReceivedRequest): string {
  const body = jsonBody(request);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Refusal(400, 'send an object');
  const { text, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw new Refusal(400, `unknown property ${Object.keys(rest)[0]}`);
  if (typeof text !== 'string' || [...text].length < 1 || [...text].length > 40)
    throw new Refusal(400, 'text: 1 to 40 characters');
  return text;
}

export function startUnboundedLimit(server: UnboundedLimitServer): Promise<LoopbackServer> {
  const notes: Note[] = ['one', 'two', 'three', 'four', 'five'].map((text, index) => ({ id: index + 1, text }));
  let cached: Note[] | undefined;

  function list(url: URL): Note[] {
    const raw = url.searchParams.get('limit');
    if (raw !== null && !/^[1-9][0-9]{0,8}$/.test(raw)) throw new Refusal(400, 'limit is a positive integer');
    const limit = raw === null ? undefined : Number(raw);
    if (server === 'cached-large-lists' && limit !== undefined && limit > 100) {
      cached ??= [...notes];
      return cached.slice(0, limit);
    }
    return notes.slice(0, listed(server, limit));
  }

  function route(request: ReceivedRequest): Answer {
    const { method, url } = request;
    if (url.pathname === '/notes' && method === 'GET') return { status: 200, body: list(url) };
    if (url.pathname === '/notes' && method === 'POST') {
      const note = { id: notes.length + 1, text: textOf(request) };
      notes.push(note);
      return { status: 201, body: note };
    }
    const item = /^\/notes\/([^/]+)$/.exec(url.pathname);
    if (!item || method !== 'GET') throw new Refusal(404, `nothing at ${method} ${url.pathname}`);
    const note = notes.find((candidate) => String(candidate.id) === item[1]);
    if (!note) throw new Refusal(404, `no note ${item[1]}`);
    return { status: 200, body: note };
  }

  return startJsonServer(route, (refusal) => ({ status: refusal.status, body: { error: refusal.message } }));
}
