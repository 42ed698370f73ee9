// Servers for fixtures/contract/unread-hooks.yaml (hooks created and deleted, never read). The
// correct one forgets a deleted hook (a second DELETE is 404); `tombstones`, also correct, answers
// a repeated DELETE of a hook it deleted 204 (idempotent by design); the fault `delete-lost`
// answers 204 and keeps the hook.
import { fileURLToPath } from 'node:url';
import { jsonBody, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

export const UNREAD_HOOKS_SPEC = fileURLToPath(new URL('../fixtures/contract/unread-hooks.yaml', import.meta.url));
/** The same API, its DELETE documenting no 404. */
export const UNREAD_HOOKS_NO_404_SPEC = fileURLToPath(
  new URL('../fixtures/contract/unread-hooks-no-404.yaml', import.meta.url),
);

export type UnreadHooksServer = 'correct' | 'tombstones' | 'delete-lost';

function targetOf(request: ReceivedRequest): string {
  const body = jsonBody(request);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Refusal(400, 'send an object');
  const { target, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw new Refusal(400, `unknown property ${Object.keys(rest)[0]}`);
  if (typeof target !== 'string' || [...target].length < 1 || [...target].length > 60)
    throw new Refusal(400, 'target: 1 to 60 characters');
  return target;
}

export function startUnreadHooks(server: UnreadHooksServer): Promise<LoopbackServer> {
  const hooks = new Map<number, string>();
  const deleted = new Set<number>();
  let next = 1;

  function route(request: ReceivedRequest): Answer {
    const { method, url } = request;
    if (url.pathname === '/hooks' && method === 'POST') {
      const hook = { id: next++, target: targetOf(request) };
      hooks.set(hook.id, hook.target);
      return { status: 201, body: hook };
    }
    const item = /^\/hooks\/([1-9][0-9]{0,8})$/.exec(url.pathname);
    if (!item || method !== 'DELETE') throw new Refusal(404, `nothing at ${method} ${url.pathname}`);
    const id = Number(item[1]);
    if (server === 'tombstones' && deleted.has(id)) return { status: 204 };
    if (!hooks.has(id)) throw new Refusal(404, `no hook ${id}`);
    if (server !== 'delete-lost') hooks.delete(id);
    deleted.add(id);
    return { status: 204 };
  }

  return startJsonServer(route, (refusal) => ({ status: refusal.status, body: { error: refusal.message } }));
}
