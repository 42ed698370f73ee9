// A small, correct server for fixtures/contract/tasks.yaml: tasks created, read, replaced (PUT),
// updated (PATCH, a merge) and deleted (then 404). Each fault breaks one step of that lifecycle,
// so that the tests prove resource-lifecycle catches it.
import { fileURLToPath } from 'node:url';
import { jsonBody, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

export const TASKS_SPEC = fileURLToPath(new URL('../fixtures/contract/tasks.yaml', import.meta.url));

export type TasksFault = 'put-ignored' | 'patch-drops-fields' | 'delete-ignored' | 'delete-fails';

type Fields = Record<string, unknown>;

const RULES: Record<string, (value: unknown) => boolean> = {
  title: (value) => typeof value === 'string' && [...value].length >= 1 && [...value].length <= 60,
  done: (value) => typeof value === 'boolean',
  priority: (value) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 5,
  notes: (value) => typeof value === 'string' && [...value].length <= 200,
};

/** The fields of a task body; `whole` (POST, PUT) requires title and done, a PATCH at least one field. */
function fields(value: unknown, whole: boolean): Fields {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Refusal(400, 'a task is an object');
  const body = value as Fields;
  for (const [name, field] of Object.entries(body)) {
    const rule = RULES[name];
    if (!rule) throw new Refusal(400, `unknown property ${name}`);
    if (!rule(field)) throw new Refusal(400, `invalid ${name}`);
  }
  if (whole && (body.title === undefined || body.done === undefined))
    throw new Refusal(400, 'title and done are required');
  if (!whole && Object.keys(body).length === 0) throw new Refusal(400, 'change at least one property');
  return body;
}

export async function startTasksServer(apiKey: string, faults: readonly TasksFault[] = []): Promise<LoopbackServer> {
  const tasks = new Map<number, Fields>();
  let next = 1;
  const has = (fault: TasksFault) => faults.includes(fault);

  function task(raw: string): Fields & { id: number } {
    if (!/^[1-9][0-9]*$/.test(raw)) throw new Refusal(400, 'taskId is a positive integer');
    const found = tasks.get(Number(raw));
    if (!found) throw new Refusal(404, `no task ${raw}`);
    return found as Fields & { id: number };
  }

  function list(url: URL): Fields[] {
    const raw = url.searchParams.get('limit');
    if (raw !== null && (!/^[0-9]+$/.test(raw) || Number(raw) < 1 || Number(raw) > 100))
      throw new Refusal(400, 'limit is an integer from 1 to 100');
    return [...tasks.values()].slice(0, raw === null ? 20 : Number(raw));
  }

  function route(request: ReceivedRequest): Answer {
    if (request.headers['x-api-key'] !== apiKey) throw new Refusal(401, 'the X-Api-Key header is required');
    const { method, url } = request;
    if (url.pathname === '/tasks' && method === 'GET') return { status: 200, body: list(url) };
    if (url.pathname === '/tasks' && method === 'POST') {
      const created = { id: next++, ...fields(jsonBody(request, 415), true) };
      tasks.set(created.id, created);
      return { status: 201, body: created };
    }
    const item = /^\/tasks\/([^/]+)$/.exec(url.pathname);
    if (!item) throw new Refusal(404, `nothing at ${url.pathname}`);
    const current = task(decodeURIComponent(item[1]!));
    switch (method) {
      case 'GET':
        return { status: 200, body: current };
      case 'PUT': {
        const replacement = { id: current.id, ...fields(jsonBody(request, 415), true) };
        if (!has('put-ignored')) tasks.set(current.id, replacement);
        return { status: 200, body: replacement };
      }
      case 'PATCH': {
        const changes = fields(jsonBody(request, 415), false);
        const kept = has('patch-drops-fields') ? { title: current.title, done: current.done } : current;
        const updated = { ...kept, ...changes, id: current.id };
        tasks.set(current.id, updated);
        return { status: 200, body: updated };
      }
      case 'DELETE':
        if (has('delete-fails')) throw new Refusal(500, 'the task could not be deleted');
        if (!has('delete-ignored')) tasks.delete(current.id);
        return { status: 204 };
      default:
        throw new Refusal(405, `${method} is not allowed here`);
    }
  }

  return startJsonServer(route, (refusal) => ({ status: refusal.status, body: { error: refusal.message } }));
}
