// Cardwall's comments (two levels under a board) and labels (PUT under a key the client chooses).
import type { Incoming, Reply } from '../http-kit.js';
import { BodyCheck, COLOR, LABEL_KEY, readJsonBody } from './body.js';
import { findBoard } from './boards.js';
import { findCard } from './cards.js';
import type { Card, Cardwall, Comment, Label } from './context.js';
import { cursorPage } from './paging.js';

type CardIds = { board: string; card: string };

export function listComments(api: Cardwall, request: Incoming, ids: CardIds): Reply {
  const card = findCard(api, ids);
  const comments = api.comments.filter((comment) => comment.cardId === card.id);
  const { data, meta } = cursorPage(api, request, comments, { fallback: 10, kind: 'comments' });
  const listed = data.map((comment) => commentJson(api, comment));
  return api.json(200, api.on('comments-meta-missing') ? { data: listed } : { data: listed, meta });
}

export async function createComment(api: Cardwall, request: Incoming, ids: CardIds): Promise<Reply> {
  const cardId = commentedCard(api, ids);
  const check = new BodyCheck(await readJsonBody(api, request), ['body']);
  const text = check.text('body', { required: true, max: 5000 });
  check.done(api);
  const comment: Comment = {
    id: api.nextId('comment'),
    cardId,
    body: text!,
    author: api.variant.author,
    createdAt: Date.now(),
  };
  api.comments.push(comment);
  return api.json(201, commentJson(api, comment));
}

/** The id of the card to comment on (with the fault, a deleted card still takes comments). */
function commentedCard(api: Cardwall, ids: CardIds): Card['id'] {
  const deletedUnder = api.deletedCards.get(ids.card.toLowerCase());
  if (api.on('comment-on-deleted-card') && deletedUnder === findBoard(api, ids.board).id) return ids.card.toLowerCase();
  return findCard(api, ids).id;
}

export async function putLabel(api: Cardwall, request: Incoming, boardId: string, key: string): Promise<Reply> {
  const board = findBoard(api, boardId);
  if (!LABEL_KEY.test(key)) throw api.refuse(400, `label_key must match ${LABEL_KEY.source}: got ${key}`);
  const check = new BodyCheck(await readJsonBody(api, request), ['name', 'color']);
  const name = check.text('name', { required: true, max: 50 });
  const color = api.on('label-color-unchecked')
    ? String(check.raw('color') ?? '')
    : check.matching('color', COLOR, { required: true });
  check.done(api);
  const labels = api.labels.get(board.id) ?? new Map<string, Label>();
  api.labels.set(board.id, labels);
  const existed = labels.has(key);
  const label: Label = { key, name: name!, color: color! };
  labels.set(key, label);
  return api.json(existed || api.on('label-create-200') ? 200 : 201, label);
}

export function getLabel(api: Cardwall, boardId: string, key: string): Reply {
  const board = findBoard(api, boardId);
  const label = api.labels.get(board.id)?.get(key);
  if (!label) throw api.refuse(404, `Board ${board.id} has no label with the key: ${key}`);
  return api.json(200, label);
}

function commentJson(api: Cardwall, comment: Comment): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: comment.id,
    card_id: comment.cardId,
    body: comment.body,
    author: comment.author,
    created_at: api.dateTime(comment.createdAt),
  };
  if (api.on('comment-author-missing')) delete json.author;
  return json;
}
