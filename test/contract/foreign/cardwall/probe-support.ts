// What the Cardwall probes share: small request helpers over the document's conventions.
import { parseDateTime } from '../http-kit.js';
import { expectThat, type ProbeClient, type ProbeResponse, type Verdict } from '../probe-client.js';

export const BOARD = { name: 'Probe board', description: 'Made by a probe', visibility: 'team' };
export const DUE = '2031-03-01T17:00:00Z';
export const MERGE_PATCH = 'application/merge-patch+json';
const ETAG = /^"[^"]*"$/;

export const noKey = { authorization: null };

/** Runs `then` with a new board's id, or answers why it could not be created. */
export async function withBoard(
  client: ProbeClient,
  then: (boardId: string) => Promise<Verdict>,
  body: unknown = BOARD,
): Promise<Verdict> {
  const created = await client.post('/boards', body);
  if (created.status !== 201 || typeof created.body?.id !== 'string') return `createBoard answered ${created.status}`;
  return then(created.body.id as string);
}

/** Runs `then` with a new board's id and a new card's path on it. */
export function withCard(
  client: ProbeClient,
  then: (card: { boardId: string; path: string; created: ProbeResponse }) => Promise<Verdict>,
  body: unknown = { title: 'Probe card', status: 'doing', due_at: DUE },
): Promise<Verdict> {
  return withBoard(client, async (boardId) => {
    const created = await client.post(`/boards/${boardId}/cards`, body);
    if (created.status !== 201 || typeof created.body?.id !== 'string') return `createCard answered ${created.status}`;
    return then({ boardId, path: `/boards/${boardId}/cards/${created.body.id as string}`, created });
  });
}

export function patch(client: ProbeClient, path: string, body: unknown, headers: Record<string, string> = {}) {
  return client.send('PATCH', path, { body, contentType: MERGE_PATCH, headers });
}

export const etagOf = (response: ProbeResponse): string => response.headers.get('etag') ?? '';

export const isEtag = (text: string): boolean => ETAG.test(text);

export const isDateTime = (value: unknown): boolean => typeof value === 'string' && parseDateTime(value) !== undefined;

/** The targets of an RFC 8288 Link header by relation. */
export function links(response: ProbeResponse): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of (response.headers.get('link') ?? '').matchAll(/<([^>]*)>\s*;\s*rel="?([^";,]+)"?/g))
    found[match[2]!] = new URL(match[1]!, response.url).href;
  return found;
}

/** The board seeded with 60 cards (the only one with that many), by its card count. */
export async function busyBoard(client: ProbeClient): Promise<string | undefined> {
  const { body } = await client.get('/boards', { query: { per_page: 100 } });
  const boards = Array.isArray(body) ? (body as { id: string; card_count: unknown }[]) : [];
  return boards.find((board) => Number(board.card_count) >= 60)?.id;
}

export const ids = (items: unknown): string[] =>
  Array.isArray(items) ? (items as { id: string }[]).map((item) => item.id) : [];

/** A JSON Error ({message}), as every documented error is. */
export const errorBody = (response: ProbeResponse): Verdict =>
  expectThat(
    response.mediaType === 'application/json' && typeof response.body?.message === 'string',
    `an error is ${response.mediaType} ${response.text.slice(0, 40)}`,
  );
export type { Verdict };
