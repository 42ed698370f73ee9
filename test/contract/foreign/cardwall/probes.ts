// The careful probe of each Cardwall fault: what a person reading the document alone would check.
// Each returns the violation it sees, or undefined; every correct deployment passes every probe.
import { expectStatus, expectThat, firstViolation, unknownUuid, type Probe } from '../probe-client.js';
import type { CardwallFault } from './faults.js';
import { CARDWALL_PAGING_PROBES } from './probes-paging.js';
import { BOARD, errorBody, etagOf, isDateTime, isEtag, noKey, patch, withBoard, withCard } from './probe-support.js';

export const CARDWALL_PROBES: Record<CardwallFault, Probe> = {
  ...CARDWALL_PAGING_PROBES,
  'delete-board-without-key': (client) =>
    withBoard(client, async (id) =>
      expectStatus(await client.send('DELETE', `/boards/${id}`, noKey), 401, 'a delete without a key'),
    ),
  'any-api-key': async (client) =>
    expectStatus(await client.get('/boards', { authorization: 'not-the-key' }), 401, 'a wrong key'),
  'comments-without-key': (client) =>
    withCard(client, async ({ path }) =>
      expectStatus(await client.get(`${path}/comments`, noKey), 401, 'comments without a key'),
    ),
  'missing-key-403': async (client) => expectStatus(await client.get('/boards', noKey), 401, 'a request without a key'),
  'create-board-200': async (client) => expectStatus(await client.post('/boards', BOARD), 201, 'createBoard'),
  'delete-card-200-body': (client) =>
    withCard(client, async ({ path }) => expectStatus(await client.send('DELETE', path), 204, 'deleteCard')),
  'label-create-200': (client) =>
    withBoard(client, async (id) => {
      const label = { name: 'Design', color: '#a855f7' };
      const created = await client.send('PUT', `/boards/${id}/labels/design`, { body: label });
      const replaced = await client.send('PUT', `/boards/${id}/labels/design`, { body: label });
      return firstViolation(
        expectStatus(created, 201, 'a label under a new key'),
        expectStatus(replaced, 200, 'replacing it'),
      );
    }),
  'archive-204': (client) =>
    withBoard(client, async (id) => {
      const archived = await client.post(`/boards/${id}/archive`, undefined);
      return firstViolation(
        expectStatus(archived, 200, 'archiveBoard'),
        expectThat(archived.body?.state === 'archived', 'the archived board is not answered'),
      );
    }),
  'validation-errors-missing': async (client) => {
    const refused = await client.post('/boards', { description: 'no name' });
    return expectThat(Array.isArray(refused.body?.errors) && refused.body.errors.length > 0, 'a 422 without errors');
  },
  'validation-as-400': async (client) =>
    expectStatus(await client.post('/boards', { description: 'no name' }), 422, 'a board without a name'),
  'malformed-json-500': (client) =>
    withBoard(client, async (id) =>
      expectStatus(await client.send('POST', `/boards/${id}/cards`, { rawBody: '{"title": ' }), 400, 'malformed JSON'),
    ),
  'error-as-text': async (client) => {
    const missing = await client.get(`/boards/${unknownUuid()}`);
    return firstViolation(expectStatus(missing, 404, 'an unknown board'), errorBody(missing));
  },
  'etag-missing-on-read': (client) =>
    withCard(client, async ({ path }) =>
      expectThat(isEtag(etagOf(await client.get(path))), 'a card read without an ETag'),
    ),
  'if-none-match-ignored': (client) =>
    withBoard(client, async (id) => {
      const etag = etagOf(await client.get(`/boards/${id}`));
      const again = await client.get(`/boards/${id}`, { headers: { 'if-none-match': etag } });
      return expectStatus(again, 304, 'a read with the current ETag in If-None-Match');
    }),
  'if-match-ignored': (client) =>
    withCard(client, async ({ path }) => {
      const stale = etagOf(await client.get(path));
      await patch(client, path, { status: 'done' }, { 'if-match': stale });
      const late = await patch(client, path, { status: 'todo' }, { 'if-match': stale });
      const read = await client.get(path);
      return firstViolation(
        expectStatus(late, 412, 'an update with a stale If-Match'),
        expectThat(read.body?.status === 'done', `the stale update was applied (status ${read.body?.status})`),
      );
    }),
  'rate-limit-headers-missing': async (client) => {
    const { headers } = await client.get('/boards');
    const integer = (name: string) => /^\d+$/.test(headers.get(name) ?? '');
    return expectThat(
      ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].every(integer),
      'an answer without its X-RateLimit-* headers',
    );
  },
  'location-missing': (client) =>
    withCard(client, async ({ created }) => {
      const location = created.headers.get('location');
      if (location === null) return 'a created card without Location';
      return expectStatus(await client.get(new URL(location, created.url).href), 200, 'reading Location');
    }),
  'etag-unchanged-after-update': (client) =>
    withBoard(client, async (id) => {
      const before = etagOf(await client.get(`/boards/${id}`));
      const after = etagOf(await patch(client, `/boards/${id}`, { name: 'Renamed' }));
      const stale = await patch(client, `/boards/${id}`, { name: 'Stale' }, { 'if-match': before });
      return firstViolation(
        expectThat(after !== before, 'the ETag did not change with the board'),
        expectStatus(stale, 412, 'an update with the ETag from before the last update'),
      );
    }),
  'created-at-not-rfc3339': async (client) => {
    const { body } = await client.get('/boards');
    return expectThat(
      Array.isArray(body) && body.every((board: any) => isDateTime(board.created_at)),
      'a created_at is not a date-time',
    );
  },
  'card-count-string': async (client) => {
    const { body } = await client.get('/boards');
    return expectThat(
      Array.isArray(body) && body.every((board: any) => Number.isInteger(board.card_count)),
      'a card_count is not an integer',
    );
  },
  'merge-patch-refused': (client) =>
    withBoard(client, async (id) =>
      expectStatus(await patch(client, `/boards/${id}`, { visibility: 'public' }), 200, 'a merge patch'),
    ),
  'comment-author-missing': (client) =>
    withCard(client, async ({ path }) => {
      const made = await client.post(`${path}/comments`, { body: 'Looks good' });
      return expectThat(typeof made.body?.author === 'string', 'a comment without author');
    }),
  'board-name-too-long': async (client) =>
    expectStatus(await client.post('/boards', { name: 'x'.repeat(81) }), 422, 'a name of 81 characters'),
  'card-status-unchecked': (client) =>
    withBoard(client, async (id) =>
      expectStatus(await client.post(`/boards/${id}/cards`, { title: 'T', status: 'blocked' }), 422, 'status blocked'),
    ),
  'due-at-not-date-time': (client) =>
    withBoard(client, async (id) =>
      expectStatus(
        await client.post(`/boards/${id}/cards`, { title: 'T', due_at: 'tomorrow' }),
        422,
        'due_at tomorrow',
      ),
    ),
  'label-color-unchecked': (client) =>
    withBoard(client, async (id) =>
      expectStatus(
        await client.send('PUT', `/boards/${id}/labels/design`, { body: { name: 'Design', color: 'purple' } }),
        422,
        'color purple',
      ),
    ),
  'board-patch-ignored': (client) =>
    withBoard(client, async (id) => {
      await patch(client, `/boards/${id}`, { name: 'Renamed' });
      const read = await client.get(`/boards/${id}`);
      return expectThat(read.body?.name === 'Renamed', `the rename reads back as ${read.body?.name}`);
    }),
  'card-patch-replaces': (client) =>
    withCard(client, async ({ path }) => {
      await patch(client, path, { title: 'Retitled' });
      const { body } = await client.get(path);
      return expectThat(body?.status === 'doing' && body?.due_at !== null, 'members the patch left out were reset');
    }),
  'merge-patch-null-kept': (client) =>
    withCard(client, async ({ path }) => {
      await patch(client, path, { due_at: null });
      const { body } = await client.get(path);
      return expectThat(body?.due_at === null, `due_at: null left due_at ${body?.due_at}`);
    }),
  'board-delete-keeps': (client) =>
    withBoard(client, async (id) => {
      const deleted = await client.send('DELETE', `/boards/${id}`);
      return firstViolation(
        expectStatus(deleted, 204, 'deleteBoard'),
        expectStatus(await client.get(`/boards/${id}`), 404, 'reading a deleted board'),
      );
    }),
  'archive-not-stored': (client) =>
    withBoard(client, async (id) => {
      await client.post(`/boards/${id}/archive`, undefined);
      const read = await client.get(`/boards/${id}`);
      return expectThat(read.body?.state === 'archived', `an archived board reads back ${read.body?.state}`);
    }),
  'cards-of-unknown-board': async (client) =>
    expectStatus(await client.get(`/boards/${unknownUuid()}/cards`), 404, 'the cards of an unknown board'),
  'card-read-across-boards': (client) =>
    withCard(client, async ({ created }) =>
      withBoard(client, async (other) =>
        expectStatus(await client.get(`/boards/${other}/cards/${created.body.id}`), 404, 'a card under another board'),
      ),
    ),
  'card-board-id-wrong': (client) =>
    withCard(client, async ({ boardId, created }) =>
      expectThat(created.body?.board_id === boardId, `a card on ${boardId} names board ${created.body?.board_id}`),
    ),
  'comment-on-deleted-card': (client) =>
    withCard(client, async ({ path }) => {
      await client.send('DELETE', path);
      return expectStatus(
        await client.post(`${path}/comments`, { body: 'Too late' }),
        404,
        'a comment on a deleted card',
      );
    }),
};
