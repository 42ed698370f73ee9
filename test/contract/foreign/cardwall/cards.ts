// Cardwall's cards, under their board: list (cursor pagination, status filter), create, read
// (ETag, If-None-Match), update (merge patch, If-Match) and delete.
import { isUuid, type Incoming, type Reply } from '../http-kit.js';
import { BodyCheck, LABEL_KEY, readJsonBody, readMergePatch } from './body.js';
import { findBoard, removeWhere } from './boards.js';
import type { Board, Card, Cardwall } from './context.js';
import { cursorPage, enumQuery } from './paging.js';
import { matchesAny } from './preconditions.js';

const STATUSES = ['todo', 'doing', 'done'] as const;

export function listCards(api: Cardwall, request: Incoming, boardId: string): Reply {
  const board = api.on('cards-of-unknown-board') ? undefined : findBoard(api, boardId);
  const status = enumQuery(api, request, 'status', STATUSES);
  const cards = api.boardCards(board?.id ?? boardId).filter((card) => status === undefined || card.status === status);
  const { data, meta } = cursorPage(api, request, cards, { fallback: 25, kind: 'cards' });
  const listed = data.map((card) => cardJson(api, card));
  return api.json(200, api.on('cards-bare-array') ? listed : { data: listed, meta });
}

export async function createCard(api: Cardwall, request: Incoming, boardId: string): Promise<Reply> {
  const board = findBoard(api, boardId);
  const check = new BodyCheck(await readJsonBody(api, request), ['title', 'status', 'due_at', 'labels']);
  const title = check.text('title', { required: true, max: 200 });
  const status = api.on('card-status-unchecked') ? (check.raw('status') as Card['status']) : statusOf(check);
  const dueAt = api.on('due-at-not-date-time') ? lenientDueAt(check) : check.dateTime('due_at');
  const labels = labelsOf(api, check, board);
  check.done(api);
  const now = Date.now();
  const card: Card = {
    id: api.nextId('card'),
    boardId: board.id,
    title: title!,
    status: status ?? 'todo',
    dueAt: dueAt ?? null,
    labels,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  api.cards.push(card);
  const etag = api.etag(card.id, card.version);
  const location = { location: `${request.origin}/v1/boards/${board.id}/cards/${card.id}` };
  return api.json(201, cardJson(api, card), { ...(api.on('location-missing') ? {} : location), etag });
}

export function getCard(api: Cardwall, request: Incoming, ids: { board: string; card: string }): Reply {
  const card = findCard(api, ids);
  const etag = api.etag(card.id, card.version);
  if (matchesAny(request.headers['if-none-match'], etag))
    return { status: 304, headers: { ...api.rateHeaders(), etag } };
  return api.json(200, cardJson(api, card), api.on('etag-missing-on-read') ? {} : { etag });
}

export async function updateCard(
  api: Cardwall,
  request: Incoming,
  ids: { board: string; card: string },
): Promise<Reply> {
  const card = findCard(api, ids);
  const patch = await readMergePatch(api, request);
  const check = new BodyCheck(patch, ['title', 'status', 'due_at']);
  if (Object.keys(patch).length === 0) check.fail('', 'invalid', 'The patch changes nothing');
  const title = check.text('title', { max: 200 }) ?? undefined;
  const status = statusOf(check);
  const dueAt = check.dateTime('due_at');
  check.done(api);
  const ifMatch = request.headers['if-match'];
  if (!api.on('if-match-ignored') && ifMatch !== undefined && !matchesAny(ifMatch, api.etag(card.id, card.version)))
    return api.error(412, 'The card has changed since: read it again');
  const base: Card = api.on('card-patch-replaces') ? { ...card, status: 'todo', dueAt: null } : card;
  const keepsNull = dueAt === null && api.on('merge-patch-null-kept');
  const updated: Card = {
    ...base,
    ...(title === undefined ? {} : { title }),
    ...(status === undefined ? {} : { status }),
    ...(dueAt === undefined || keepsNull ? {} : { dueAt }),
    updatedAt: Date.now(),
    version: card.version + 1,
  };
  Object.assign(card, updated);
  return api.json(200, cardJson(api, card), { etag: api.etag(card.id, card.version) });
}

export function deleteCard(api: Cardwall, ids: { board: string; card: string }): Reply {
  const card = findCard(api, ids);
  api.cards.splice(api.cards.indexOf(card), 1);
  api.deletedCards.set(card.id, card.boardId);
  removeWhere(api.comments, (comment) => comment.cardId === card.id);
  if (api.on('delete-card-200-body')) return api.json(200, cardJson(api, card));
  return { status: 204, headers: api.rateHeaders() };
}

/** The card `ids.card` under board `ids.board`, or a 404. */
export function findCard(api: Cardwall, ids: { board: string; card: string }): Card {
  const board = findBoard(api, ids.board);
  const id = ids.card.toLowerCase();
  const card = isUuid(id) ? api.cards.find((candidate) => candidate.id === id) : undefined;
  const held = card !== undefined && (card.boardId === board.id || api.on('card-read-across-boards'));
  if (!held) throw api.refuse(404, `Board ${board.id} has no card with the id: ${ids.card}`);
  return card;
}

function statusOf(check: BodyCheck): Card['status'] | undefined {
  return check.choice('status', STATUSES);
}

function lenientDueAt(check: BodyCheck): number | null | undefined {
  const value = check.raw('due_at');
  if (value === undefined || value === null) return value;
  return check.dateTime('due_at') ?? (check.errors.pop(), Date.now() + 86_400_000);
}

function labelsOf(api: Cardwall, check: BodyCheck, board: Board): string[] {
  const value = check.raw('labels');
  if (value === undefined) return [];
  const known = api.labels.get(board.id) ?? new Map();
  const valid =
    Array.isArray(value) &&
    value.length <= 10 &&
    new Set(value).size === value.length &&
    value.every((key) => typeof key === 'string' && LABEL_KEY.test(key));
  if (!valid) return check.fail('labels', 'invalid', 'labels must be up to 10 distinct label keys') ?? [];
  const unknown = (value as string[]).filter((key) => !known.has(key));
  if (unknown.length > 0) check.fail('labels', 'invalid', `The board has no label ${unknown.join(', ')}`);
  return value as string[];
}

export function cardJson(api: Cardwall, card: Card): Record<string, unknown> {
  const position = api.boardCards(card.boardId).indexOf(card) + 1;
  return {
    id: card.id,
    board_id: api.on('card-board-id-wrong') ? api.boards[0]!.id : card.boardId,
    title: card.title,
    status: card.status,
    position: Math.max(position, 1),
    due_at: card.dueAt === null ? null : api.dateTime(card.dueAt),
    labels: card.labels,
    created_at: api.dateTime(card.createdAt),
    updated_at: api.dateTime(card.updatedAt),
  };
}
