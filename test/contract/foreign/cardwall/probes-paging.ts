// The Cardwall probes of its lists: Link pagination of boards, cursor pagination of cards and
// comments in their {data, meta} envelope.
import { expectStatus, expectThat, firstViolation, type Probe, type ProbeClient } from '../probe-client.js';
import { busyBoard, ids, links, withCard, type Verdict } from './probe-support.js';

async function onBusyBoard(client: ProbeClient, then: (path: string) => Promise<Verdict>): Promise<Verdict> {
  const board = await busyBoard(client);
  return board === undefined ? 'no board with 60 cards is listed' : then(`/boards/${board}/cards`);
}

export const CARDWALL_PAGING_PROBES = {
  'cards-bare-array': (client) =>
    onBusyBoard(client, async (path) => {
      const { body } = await client.get(path);
      return expectThat(Array.isArray(body?.data) && typeof body?.meta === 'object', 'cards are not in {data, meta}');
    }),
  'comments-meta-missing': (client) =>
    withCard(client, async ({ path }) => {
      await client.post(`${path}/comments`, { body: 'First' });
      const { body } = await client.get(`${path}/comments`);
      return expectThat(typeof body?.meta?.has_more === 'boolean', 'comments without meta');
    }),
  'cards-next-cursor-omitted': (client) =>
    withCard(client, async ({ boardId }) => {
      const { body } = await client.get(`/boards/${boardId}/cards`);
      return expectThat(body?.meta?.next_cursor === null, `the last page's next_cursor is ${body?.meta?.next_cursor}`);
    }),
  'boards-next-same-page': async (client) => {
    const first = await client.get('/boards', { query: { per_page: 10 } });
    const next = links(first).next;
    if (next === undefined) return 'page 1 of 10 boards has no next link';
    const second = await client.get(next);
    const seen = ids(first.body);
    return expectThat(
      ids(second.body).length > 0 && ids(second.body).every((id) => !seen.includes(id)),
      'next repeats page 1',
    );
  },
  'boards-per-page-ignored': async (client) => {
    const { body } = await client.get('/boards', { query: { per_page: 5 } });
    return expectThat(ids(body).length === 5, `per_page=5 lists ${ids(body).length} boards`);
  },
  'boards-next-on-last-page': async (client) => {
    let page = await client.get('/boards', { query: { per_page: 20 } });
    for (let step = 0; step < 10; step++) {
      const next = links(page).next;
      if (next === undefined) return undefined;
      page = await client.get(next);
      if (ids(page.body).length === 0) return `next led to an empty page (${next})`;
    }
    return 'next never ends';
  },
  'cards-cursor-restarts': (client) =>
    onBusyBoard(client, async (path) => {
      const first = await client.get(path, { query: { limit: 10 } });
      const cursor = first.body?.meta?.next_cursor;
      if (typeof cursor !== 'string') return 'a first page of 10 of 60 cards has no next_cursor';
      const second = await client.get(path, { query: { limit: 10, cursor } });
      const seen = ids(first.body?.data);
      return firstViolation(
        expectStatus(second, 200, 'the next page'),
        expectThat(
          ids(second.body?.data).length > 0 && ids(second.body?.data).every((id) => !seen.includes(id)),
          'the next page repeats the first',
        ),
      );
    }),
  'cards-limit-plus-one': (client) =>
    onBusyBoard(client, async (path) => {
      const { body } = await client.get(path, { query: { limit: 10 } });
      return expectThat(ids(body?.data).length === 10, `limit=10 lists ${ids(body?.data).length} cards`);
    }),
  'total-count-missing': async (client) => {
    const first = await client.get('/boards', { query: { per_page: 10 } });
    const total = first.headers.get('x-total-count');
    return expectThat(total !== null && /^\d+$/.test(total) && Number(total) >= 45, `X-Total-Count is ${total}`);
  },
  'per-page-above-max': async (client) =>
    expectStatus(await client.get('/boards', { query: { per_page: 500 } }), 400, 'per_page=500'),
} satisfies Record<string, Probe>;
