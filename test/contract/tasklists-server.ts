// A strict deployment of fixtures/contract/tasklists.yaml, as a careful third party writes one: a
// PATCH takes application/merge-patch+json only (415 otherwise), a cursor it did not give is a
// 400, a list's tags must be tags it has (422), closing a list changes its state, and a due date
// is answered as the same instant in UTC.
import { fileURLToPath } from 'node:url';
import {
  isUuid,
  jsonReply,
  listen,
  parseDateTime,
  parseJson,
  type Incoming,
  type Listening,
  type Reply,
} from './foreign/http-kit.js';

export const TASKLISTS_SPEC = fileURLToPath(new URL('../fixtures/contract/tasklists.yaml', import.meta.url));

interface TaskList {
  id: string;
  name: string;
  state: 'open' | 'closed';
  /** Answered in UTC with milliseconds, whatever offset it was sent with. */
  due_at: string | null;
  tags: string[];
  /** Bumped by every change: the ETag is `"v<version>"`. */
  version: number;
}

const etag = (list: TaskList): string => `"v${list.version}"`;
const shown = (list: TaskList): Omit<TaskList, 'version'> => {
  const { version: _version, ...rest } = list;
  return rest;
};

const TAG = /^[a-z][a-z0-9-]{0,31}$/;
const refuse = (status: number, message: string): Reply => jsonReply(status, { message });

/** Where the document leaves a choice: closing a list answers it (200) or nothing (204). */
export interface TasklistsOptions {
  closeAnswers: 'list' | 'nothing';
  /** A fault: the PATCH takes application/json only, refusing its documented merge patch with 415. */
  patchTakesPlainJson?: boolean;
  /** A fault: If-None-Match (304) or If-Match (412) is ignored. */
  ignores?: 'if-none-match' | 'if-match';
  /** A fault: a PUT that creates a tag answers 200, as if it had replaced one. */
  tagCreated200?: boolean;
  /** A fault: a merge patch's `due_at: null` keeps the old due_at instead of removing it. */
  mergeNullKept?: boolean;
}

class Tasklists {
  readonly lists: TaskList[] = [];
  readonly tags = new Map<string, string>();
  readonly options: TasklistsOptions;

  constructor(options: TasklistsOptions) {
    this.options = options;
  }
  list(request: Incoming): Reply {
    const state = request.query.get('state');
    if (state !== null && state !== 'open' && state !== 'closed') return refuse(400, 'state is open or closed');
    const limit = Number(request.query.get('limit') ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 50) return refuse(400, 'limit is 1 to 50');
    const cursor = request.query.get('cursor');
    const start = cursor === null ? 0 : /^at-(\d+)$/.test(cursor) ? Number(cursor.slice(3)) : undefined;
    if (start === undefined) return refuse(400, `cursor ${cursor} is not one this list gave`);
    const matching = this.lists.filter((list) => state === null || list.state === state);
    const data = matching.slice(start, start + limit);
    const next = start + limit < matching.length ? `at-${start + limit}` : null;
    return jsonReply(200, { data: data.map(shown), meta: { next_cursor: next } });
  }

  async create(request: Incoming): Promise<Reply> {
    const body = await jsonObject(request, 'application/json');
    if ('status' in body) return body;
    const { name, tags = [], due_at: due = null, ...rest } = body.value;
    if (Object.keys(rest).length > 0) return refuse(422, `unknown members ${Object.keys(rest).join(', ')}`);
    if (typeof name !== 'string' || name.length < 1 || name.length > 80)
      return refuse(422, 'name is 1 to 80 characters');
    if (!Array.isArray(tags) || tags.length > 5 || !tags.every((tag) => typeof tag === 'string' && TAG.test(tag)))
      return refuse(422, 'tags are up to 5 tag keys');
    const unknown = tags.filter((tag: string) => !this.tags.has(tag));
    if (unknown.length > 0) return refuse(422, `no tag ${unknown.join(', ')}`);
    const dueAt = due === null ? null : typeof due === 'string' ? parseDateTime(due) : undefined;
    if (dueAt === undefined) return refuse(422, 'due_at is a date-time');
    const list: TaskList = {
      id: crypto.randomUUID(),
      name,
      state: 'open',
      due_at: dueAt === null ? null : new Date(dueAt).toISOString(),
      tags,
      version: 1,
    };
    this.lists.push(list);
    return jsonReply(201, shown(list), { etag: etag(list) });
  }

  async update(request: Incoming, list: TaskList): Promise<Reply> {
    const type = this.options.patchTakesPlainJson ? 'application/json' : 'application/merge-patch+json';
    const body = await jsonObject(request, type);
    if ('status' in body) return body;
    const { name, due_at: due, ...rest } = body.value;
    if (Object.keys(rest).length > 0 || (name === undefined && due === undefined))
      return refuse(422, 'a patch sets name or due_at');
    if (name !== undefined && (typeof name !== 'string' || name.length < 1 || name.length > 80))
      return refuse(422, 'name is 1 to 80 characters');
    const dueAt = due === undefined || due === null ? due : typeof due === 'string' ? parseDateTime(due) : undefined;
    if (dueAt === undefined && due !== undefined) return refuse(422, 'due_at is a date-time or null');
    const ifMatch = request.headers['if-match'];
    if (this.options.ignores !== 'if-match' && ifMatch !== undefined && ifMatch !== etag(list) && ifMatch !== '*')
      return refuse(412, 'the list has changed since');
    if (typeof name === 'string') list.name = name;
    // RFC 7396: null removes the member; the list shows a removed due_at as null.
    if (dueAt === null && !this.options.mergeNullKept) list.due_at = null;
    if (typeof dueAt === 'number') list.due_at = new Date(dueAt).toISOString();
    list.version += 1;
    return jsonReply(200, shown(list), { etag: etag(list) });
  }

  close(list: TaskList): Reply {
    if (list.state === 'closed') return refuse(409, 'closed already');
    list.state = 'closed';
    list.version += 1;
    return this.options.closeAnswers === 'list' ? jsonReply(200, shown(list)) : { status: 204 };
  }

  async putTag(request: Incoming, key: string): Promise<Reply> {
    if (!TAG.test(key)) return refuse(400, 'a tag key is lower case');
    const body = await jsonObject(request, 'application/json');
    if ('status' in body) return body;
    const { color, ...rest } = body.value;
    if (Object.keys(rest).length > 0 || typeof color !== 'string' || !/^#[0-9a-f]{6}$/.test(color))
      return refuse(422, 'color is #rrggbb');
    const existed = this.tags.has(key);
    this.tags.set(key, color);
    return jsonReply(existed || this.options.tagCreated200 ? 200 : 201, { key, color });
  }
}

async function jsonObject(request: Incoming, type: string): Promise<Reply | { value: Record<string, unknown> }> {
  const sent = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (sent !== type) return refuse(415, `the body must be ${type}`);
  const parsed = parseJson((await request.body()) ?? '');
  if (!parsed) return refuse(400, 'malformed JSON');
  const { value } = parsed;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse(422, 'an object is needed');
  return { value: value as Record<string, unknown> };
}

async function route(api: Tasklists, request: Incoming): Promise<Reply> {
  const { method, path } = request;
  if (path === '/lists' && method === 'GET') return api.list(request);
  if (path === '/lists' && method === 'POST') return api.create(request);
  const tag = /^\/tags\/([^/]+)$/.exec(path)?.[1];
  if (tag !== undefined && method === 'PUT') return api.putTag(request, decodeURIComponent(tag));
  if (tag !== undefined && method === 'GET') {
    const color = api.tags.get(decodeURIComponent(tag));
    return color === undefined ? refuse(404, 'no such tag') : jsonReply(200, { key: tag, color });
  }
  const [, id, action] = /^\/lists\/([^/]+)(\/close)?$/.exec(path) ?? [];
  if (id === undefined) return refuse(404, 'nothing here');
  const list = isUuid(id) ? api.lists.find((candidate) => candidate.id === id) : undefined;
  if (!list) return refuse(404, 'no such list');
  if (action && method === 'POST') return api.close(list);
  if (!action && method === 'GET') {
    const current = request.headers['if-none-match'] === etag(list) && api.options.ignores !== 'if-none-match';
    return current ? { status: 304, headers: { etag: etag(list) } } : jsonReply(200, shown(list), { etag: etag(list) });
  }
  if (!action && method === 'PATCH') return api.update(request, list);
  return refuse(405, 'not allowed');
}

export function startTasklists(options: TasklistsOptions = { closeAnswers: 'list' }): Promise<Listening> {
  const api = new Tasklists(options);
  return listen({
    basePath: '/api',
    handle: (request) => route(api, request),
    crash: () => refuse(500, 'crashed'),
    outside: () => refuse(404, 'nothing here'),
  });
}
