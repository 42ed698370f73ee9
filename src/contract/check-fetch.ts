import { Agent, fetch, type Dispatcher, type RequestInit, type Response } from 'undici';

export type { Response as CheckResponse };

/**
 * Keep-alive connections for `kennel check`, at most `connections` at once to an origin (no bound
 * when undefined). undici's own pool, not the one behind Node's global fetch: that Agent (undici
 * 7.10 to 7.29, bundled with Node 22 and 24) closes an origin's pool once a connection the server
 * ended (`Connection: close`, a per-connection request limit, an idle timeout) leaves it with none
 * while a request is already queued on it; the pool that replaces it is then closed by the old
 * one's last disconnect, and so on, so every later request opened a new connection
 * (nodejs/undici#5022). The Agent of undici 8 has the fix.
 */
export function checkConnections(connections?: number): Dispatcher {
  return new Agent(connections === undefined ? {} : { connections });
}

const shared = checkConnections();

/** `fetch` over `pool` (by default one shared by callers that send a request now and then). */
export function checkFetch(url: string | URL, init: RequestInit = {}, pool: Dispatcher = shared): Promise<Response> {
  return fetch(url, { ...init, dispatcher: pool });
}
