// A small, correct server for fixtures/contract/memos.yaml, written by hand (no kennel code): ids
// are assigned (a client-sent memo id is ignored), a memo's secret is kept but never sent back,
// memo errors are application/problem+json, tag errors application/json. `faults` break one thing
// each; `variants` are other correct behaviours the checker must not call wrong.
import { fileURLToPath } from 'node:url';
import { jsonBody, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

export const MEMOS_SPEC = fileURLToPath(new URL('../fixtures/contract/memos.yaml', import.meta.url));

export type MemosFault =
  /** Every POST /tags is refused with a documented 400. */
  | 'tags-refused'
  /** Memos come back without their (required) text. */
  | 'memo-text-dropped'
  /** A memo without its (required, writeOnly) secret is accepted. */
  | 'memo-secret-optional'
  /** An attachment comes back as a file without its size. */
  | 'attachment-size-missing'
  /** Memo errors are sent as application/json although the document declares problem+json. */
  | 'plain-json-problems'
  /** A tag's integer `created` is sent as a word. */
  | 'tag-created-text';

export type MemosVariant =
  /** A tag without a label is refused with the documented 400 (the document does not say it is enough). */
  | 'tag-label-needed'
  /** Tag errors are sent as application/problem+json (the document says application/json). */
  | 'problem-json-tags'
  /** A tag's `created` is the document's own (string) example, as a server serving examples would send it. */
  | 'tag-created-example';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isInt32 = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
const isText = (value: unknown, min: number, max: number): value is string =>
  typeof value === 'string' && [...value].length >= min && [...value].length <= max;

function attachmentOf(value: unknown): Json {
  if (!isObject(value)) throw new Refusal(400, 'attachment must be an object');
  if (value.kind === 'link' && typeof value.url === 'string' && URL.canParse(value.url)) return value;
  if (value.kind === 'file' && isText(value.name, 1, 100) && isInt32(value.size) && value.size >= 0) return value;
  throw new Refusal(400, 'attachment must be a link {kind, url} or a file {kind, name, size}');
}

function memoOf(value: unknown, faults: readonly MemosFault[]): Json {
  if (!isObject(value)) throw new Refusal(400, 'a memo is an object');
  for (const name of Object.keys(value))
    if (!['id', 'text', 'secret', 'attachment'].includes(name)) throw new Refusal(400, `unknown property ${name}`);
  if (value.id !== undefined && !isInt32(value.id)) throw new Refusal(400, 'id must be an int32');
  if (!isText(value.text, 1, 200)) throw new Refusal(400, 'text must be a string of 1 to 200 characters');
  const secretOptional = faults.includes('memo-secret-optional') && value.secret === undefined;
  if (!secretOptional && !isText(value.secret, 1, 40)) throw new Refusal(400, 'secret must be 1 to 40 characters');
  return {
    text: value.text,
    secret: value.secret,
    ...(value.attachment === undefined ? {} : { attachment: attachmentOf(value.attachment) }),
  };
}

function tagOf(value: unknown, variants: readonly MemosVariant[]): Json {
  if (!isObject(value)) throw new Refusal(400, 'a tag is an object');
  for (const name of Object.keys(value))
    if (!['label', 'color'].includes(name)) throw new Refusal(400, `unknown property ${name}`);
  if (value.label !== undefined && !isText(value.label, 1, 40))
    throw new Refusal(400, 'label must be 1 to 40 characters');
  if (value.label === undefined && variants.includes('tag-label-needed')) throw new Refusal(400, 'a tag needs a label');
  if (value.color !== undefined && value.color !== 'red' && value.color !== 'blue')
    throw new Refusal(400, 'color must be red or blue');
  return value;
}

/** Starts the memos server with `faults` and `variants`. */
export async function startMemosServer(
  faults: readonly MemosFault[] = [],
  variants: readonly MemosVariant[] = [],
): Promise<LoopbackServer> {
  const memos = new Map<number, Json>();
  const tags = new Map<number, Json>();
  let next = 1;
  const shown = (memo: Json): Json => {
    const { secret: _secret, ...rest } = memo;
    if (faults.includes('memo-text-dropped')) delete rest.text;
    if (faults.includes('attachment-size-missing') && rest.attachment)
      rest.attachment = { kind: 'file', name: 'notes.txt' };
    return rest;
  };

  function handle(request: ReceivedRequest): Answer {
    const { method } = request;
    const path = request.url.pathname;
    if (path === '/api/memos' && method === 'GET') return { status: 200, body: [...memos.values()].map(shown) };
    if (path === '/api/memos' && method === 'POST') {
      const memo = { id: next++, ...memoOf(jsonBody(request), faults) };
      memos.set(memo.id, memo);
      return { status: 201, body: shown(memo) };
    }
    if (path === '/api/tags' && method === 'GET') return { status: 200, body: [...tags.values()] };
    if (/^\/api\/boards\/[1-9]\d{0,9}\/pins$/.test(path) && method === 'GET') return { status: 200, body: [] };
    if (path === '/api/tags' && method === 'POST') {
      if (faults.includes('tags-refused')) throw new Refusal(400, 'tags are read-only today');
      const created = faults.includes('tag-created-text')
        ? 'yesterday'
        : variants.includes('tag-created-example')
          ? '1700000000'
          : 1_700_000_000;
      const tag = { id: next++, ...tagOf(jsonBody(request), variants), created };
      tags.set(tag.id, tag);
      return { status: 201, body: tag };
    }
    const item = /^\/api\/(memos|tags)\/([^/]+)$/.exec(path);
    if (item && method === 'GET') {
      if (!/^[1-9]\d{0,9}$/.test(item[2]!) || !isInt32(Number(item[2]))) throw new Refusal(400, 'the id is an integer');
      const found = (item[1] === 'memos' ? memos : tags).get(Number(item[2]));
      if (!found) throw new Refusal(404, `no ${item[1]!.slice(0, -1)} ${item[2]}`);
      return { status: 200, body: item[1] === 'memos' ? shown(found) : found };
    }
    throw new Refusal(404, `no route for ${method} ${path}`);
  }

  function errorType(path: string): string {
    const problem = path.startsWith('/api/tags')
      ? variants.includes('problem-json-tags')
      : !faults.includes('plain-json-problems');
    return problem ? 'application/problem+json' : 'application/json';
  }

  const running = await startJsonServer(handle, (refusal, request) => ({
    status: refusal.status,
    body: { type: 'about:blank', title: refusal.message, status: refusal.status },
    type: errorType(request.url.pathname),
  }));
  return { url: `${running.url}/api`, close: running.close };
}
