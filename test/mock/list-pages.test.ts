// The mock pages its stateful lists for real (fixtures/explore/paging.yaml): the envelope's links,
// cursors and counts lead through every item once, and a documented Link header does the same.
import { fileURLToPath } from 'node:url';
import LinkHeader from 'http-link-header';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';

const PAGING = fileURLToPath(new URL('../fixtures/explore/paging.yaml', import.meta.url));

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ specPath: PAGING });
  for (const path of ['notes', 'memos', 'tags', 'labels', 'pins'])
    for (let index = 0; index < 4; index += 1)
      await fetch(`${mock.url}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: `${path} ${index}` }),
      });
});
afterAll(() => mock.close());

type Body = Record<string, unknown>;

/** Follows `next` from `first` (at most 10 pages); the ids listed page by page. */
async function walk(first: string, next: (body: Body, response: Response, url: string) => string | undefined) {
  const pages: number[][] = [];
  for (let url: string | undefined = first; url && pages.length < 10;) {
    const response = await fetch(url);
    expect(response.status, url).toBe(200);
    const body = (await response.json()) as Body;
    const items = (Array.isArray(body) ? body : (body.data ?? body.items)) as { id: number }[];
    pages.push(items.map((item) => item.id));
    url = next(body, response, url);
  }
  return pages;
}

const everyIdOnce = (pages: number[][]) => {
  const ids = pages.flat();
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toHaveLength(7);
  expect(pages.slice(0, -1).every((page) => page.length === 2)).toBe(true);
};

describe('a stateful list in its envelope', () => {
  it('pages a list whose document gives only a next link (no page parameter) with a cursor of its own', async () => {
    const pages = await walk(`${mock.url}/pins`, (page) => ((page.links as Body).next as string | null) ?? undefined);
    everyIdOnce(pages);
    const first = (await (await fetch(`${mock.url}/pins`)).json()) as { links: Body };
    expect(first.links.next).toMatch(/\?(limit=2&)?kennel_cursor=/);
  });

  it('links to real pages of the mock, with counts, by page number', async () => {
    const response = await fetch(`${mock.url}/notes`);
    const body = (await response.json()) as { links: Body; meta: Body; data: unknown[] };
    expect(body.data).toHaveLength(2);
    expect(body.links).toEqual({
      self: `${mock.url}/notes`,
      first: `${mock.url}/notes?page=1`,
      last: `${mock.url}/notes?page=4`,
      next: `${mock.url}/notes?page=2`,
      prev: null,
    });
    expect(body.meta).toEqual({ total: 7, page: 1 });
    everyIdOnce(await walk(`${mock.url}/notes`, (page) => ((page.links as Body).next as string | null) ?? undefined));
  });

  it('keeps the other query parameters in its links', async () => {
    const body = (await (await fetch(`${mock.url}/notes?limit=3&page=3`)).json()) as { links: Body; data: unknown[] };
    expect(body.data).toHaveLength(1);
    expect(body.links).toMatchObject({ next: null, prev: `${mock.url}/notes?limit=3&page=2` });
  });

  it('hands out cursors, and refuses one it did not give', async () => {
    everyIdOnce(
      await walk(`${mock.url}/memos`, (page) =>
        page.next_cursor ? `${mock.url}/memos?cursor=${String(page.next_cursor)}` : undefined,
      ),
    );
    expect((await fetch(`${mock.url}/memos?cursor=nonsense`)).status).toBe(400);
  });

  it('says has_more, and goes on after the last id', async () => {
    everyIdOnce(
      await walk(`${mock.url}/tags`, (page) => {
        const items = page.data as { id: number }[];
        return page.has_more === true ? `${mock.url}/tags?starting_after=${items.at(-1)!.id}` : undefined;
      }),
    );
  });

  it('announces the pages of a bare array in the documented Link header', async () => {
    const pages = await walk(`${mock.url}/labels`, (_body, response) => {
      const header = response.headers.get('link');
      return header ? LinkHeader.parse(header).rel('next')[0]?.uri : undefined;
    });
    everyIdOnce(pages);
    const last = await fetch(`${mock.url}/labels?offset=6`);
    expect(LinkHeader.parse(last.headers.get('link') ?? '').rel('next')).toEqual([]);
    expect(LinkHeader.parse(last.headers.get('link') ?? '').rel('prev')[0]?.uri).toBe(`${mock.url}/labels?offset=4`);
  });
});
