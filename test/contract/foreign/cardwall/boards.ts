// Cardwall's boards: list (Link pagination), create, read (ETag, If-None-Match), update (merge
// patch, If-Match), delete with everything under them, and the archive action.
import { isUuid, type Incoming, type Reply } from '../http-kit.js';
import { BodyCheck, readJsonBody, readMergePatch } from './body.js';
import type { Board, Cardwall } from './context.js';
import { enumQuery, linkPage } from './paging.js';
import { matchesAny } from './preconditions.js';

const VISIBILITIES = ['private', 'team', 'public'] as const;
const STATES = ['active', 'archived'] as const;
const BOARD_FIELDS = ['name', 'description', 'visibility'];

export function listBoards(api: Cardwall, request: Incoming): Reply {
  const state = enumQuery(api, request, 'state', STATES);
  const newestFirst = [...api.boards].reverse().filter((board) => state === undefined || board.state === state);
  const { page, headers } = linkPage(api, request, newestFirst);
  return api.json(
    200,
    page.map((board) => boardJson(api, board)),
    headers,
  );
}

export async function createBoard(api: Cardwall, request: Incoming): Promise<Reply> {
  const check = new BodyCheck(await readJsonBody(api, request), BOARD_FIELDS);
  const fields = boardFields(api, check, { create: true });
  check.done(api);
  const now = Date.now();
  const board: Board = {
    id: api.nextId('board'),
    name: fields.name!,
    description: fields.description ?? null,
    visibility: fields.visibility ?? 'private',
    state: 'active',
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  api.boards.push(board);
  const location = `${request.origin}/v1/boards/${board.id}`;
  return api.json(api.on('create-board-200') ? 200 : 201, boardJson(api, board), {
    location,
    etag: api.etag(board.id, board.version),
  });
}

export function getBoard(api: Cardwall, request: Incoming, id: string): Reply {
  const board = findBoard(api, id);
  const etag = api.etag(board.id, board.version);
  if (!api.on('if-none-match-ignored') && matchesAny(request.headers['if-none-match'], etag))
    return { status: 304, headers: { ...api.rateHeaders(), etag } };
  return api.json(200, boardJson(api, board), { etag });
}

export async function updateBoard(api: Cardwall, request: Incoming, id: string): Promise<Reply> {
  const board = findBoard(api, id);
  const patch = await readMergePatch(api, request);
  const check = new BodyCheck(patch, BOARD_FIELDS);
  if (Object.keys(patch).length === 0) check.fail('', 'invalid', 'The patch changes nothing');
  const fields = boardFields(api, check, { create: false });
  check.done(api);
  const ifMatch = request.headers['if-match'];
  if (ifMatch !== undefined && !matchesAny(ifMatch, api.etag(board.id, board.version)))
    return api.error(412, 'The board has changed since: read it again');
  const updated: Board = { ...board, ...fields, updatedAt: Date.now(), version: board.version + 1 };
  if (api.on('etag-unchanged-after-update')) updated.version = board.version;
  if (!api.on('board-patch-ignored')) Object.assign(board, updated);
  return api.json(200, boardJson(api, updated), { etag: api.etag(updated.id, updated.version) });
}

export function deleteBoard(api: Cardwall, id: string): Reply {
  const board = findBoard(api, id);
  if (!api.on('board-delete-keeps')) removeBoard(api, board);
  return { status: 204, headers: api.rateHeaders() };
}

export function archiveBoard(api: Cardwall, id: string): Reply {
  const board = findBoard(api, id);
  if (board.state === 'archived') return api.error(409, 'The board is archived already');
  const archived: Board = { ...board, state: 'archived', updatedAt: Date.now(), version: board.version + 1 };
  if (!api.on('archive-not-stored')) Object.assign(board, archived);
  if (api.on('archive-204')) return { status: 204, headers: api.rateHeaders() };
  return api.json(200, boardJson(api, archived), { etag: api.etag(archived.id, archived.version) });
}

/** The board `id` names, or a 404 (a malformed id names nothing). */
export function findBoard(api: Cardwall, id: string): Board {
  const board = isUuid(id) ? api.boards.find((candidate) => candidate.id === id.toLowerCase()) : undefined;
  if (!board) throw api.refuse(404, `No board has the id: ${id}`);
  return board;
}

function removeBoard(api: Cardwall, board: Board): void {
  const cardIds = new Set(api.boardCards(board.id).map((card) => card.id));
  api.boards.splice(api.boards.indexOf(board), 1);
  removeWhere(api.cards, (card) => cardIds.has(card.id));
  removeWhere(api.comments, (comment) => cardIds.has(comment.cardId));
  api.labels.delete(board.id);
}

export function removeWhere<T>(items: T[], doomed: (item: T) => boolean): void {
  for (let index = items.length - 1; index >= 0; index--) if (doomed(items[index]!)) items.splice(index, 1);
}

function boardFields(api: Cardwall, check: BodyCheck, { create }: { create: boolean }): Partial<Board> {
  const tooLong = api.on('board-name-too-long') ? 100_000 : 80;
  const fields: Partial<Board> = {
    name: check.text('name', { required: create, max: tooLong }) ?? undefined,
    description: check.text('description', { max: 2000, nullable: true }),
    visibility: check.choice('visibility', VISIBILITIES),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

export function boardJson(api: Cardwall, board: Board): Record<string, unknown> {
  const count = api.boardCards(board.id).length;
  const created = api.on('created-at-not-rfc3339')
    ? api
        .dateTime(board.createdAt)
        .replace('T', ' ')
        .replace(/(\.\d+)?(Z|[+-]\d\d:\d\d)$/, '')
    : api.dateTime(board.createdAt);
  return {
    id: board.id,
    name: board.name,
    description: board.description,
    visibility: board.visibility,
    state: board.state,
    card_count: api.on('card-count-string') ? String(count) : count,
    created_at: created,
    updated_at: api.dateTime(board.updatedAt),
  };
}
