import { describe, expect, it } from 'vitest';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { BRACKET_PAGES_SPEC, startBracketPages, type BracketPagesFault } from './bracket-pages-server.js';
import { findingTitles } from './helpers.js';
import { startTestMock } from '../helpers/mock-client.js';

async function check(faults: BracketPagesFault[] = [], checks?: string[]): Promise<RunSummary> {
  const server = await startBracketPages(faults);
  try {
    const only = checks === undefined ? {} : { checks };
    return await runContract({
      baseUrl: `${server.url}/api`,
      apiKey: '',
      specPath: BRACKET_PAGES_SPEC,
      seed: 5,
      ...only,
    });
  } finally {
    await server.close();
  }
}

// JSON:API conventions kennel check must read without being told: a limit named page[size], a
// media type whose servers refuse a charset parameter (415) but not another letter case, and
// answers that must carry that media type (its clients dispatch on it), and an update whose body
// must name the item its path names.
describe('a JSON:API-style list (fixtures/contract/bracket-pages.yaml)', () => {
  it('passes the correct server: new articles are looked for under page[size], no charset is sent', async () => {
    expect(findingTitles(await check(), 'error')).toEqual([]);
  });

  it('sees page[size] ignored', async () => {
    const errors = findingTitles(await check(['size-ignored'], ['limit-honoured']), 'error');
    expect(
      errors.some((title) => title.startsWith('limit-honoured listArticles:')),
      errors.join('\n'),
    ).toBe(true);
  });

  it('still sends the media type in another letter case', async () => {
    const errors = findingTitles(await check(['letter-case-refused'], ['positive-data-acceptance']), 'error');
    expect(
      errors.some((title) =>
        /^positive-data-acceptance createArticle: rejected .*Application\/Vnd\.Api\+JSON/.test(title),
      ),
      errors.join('\n'),
    ).toBe(true);
  });

  it('sees JSON:API documents labelled application/json', async () => {
    const errors = findingTitles(await check(['plain-json-answers'], ['content-type-conformance']), 'error');
    expect(
      errors.some((title) => title.startsWith('content-type-conformance listArticles: Content-Type application/json')),
      errors.join('\n'),
    ).toBe(true);
  });

  it('sends update bodies naming the item their path names, and so sees an invalid type accepted', async () => {
    const errors = findingTitles(await check(['patch-type-unchecked'], ['negative-data-rejection']), 'error');
    expect(
      errors.some((title) => /^negative-data-rejection updateArticle: accepted a body where .*\/type\b/.test(title)),
      errors.join('\n'),
    ).toBe(true);
  });

  it('patches one attribute where the body requires only the identifier, and sees it not kept', async () => {
    const errors = findingTitles(await check(['patch-ignored'], ['resource-lifecycle']), 'error');
    expect(
      errors.some((title) => title.startsWith('resource-lifecycle createArticle: PATCH updateArticle changed or lost')),
      errors.join('\n'),
    ).toBe(true);
  });

  it('follows links.next written as a link object, and sees it lead back', async () => {
    const errors = findingTitles(await check(['next-repeats-page'], ['pagination-followed']), 'error');
    expect(
      errors.some((title) => title.startsWith('pagination-followed listArticles: the next link leads back')),
      errors.join('\n'),
    ).toBe(true);
  });

  it('has the mock answer an absolute Location, and merge a PATCH of some attributes into the others', async () => {
    const mock = await startTestMock({ specPath: BRACKET_PAGES_SPEC });
    try {
      const type = { 'content-type': 'application/vnd.api+json' };
      const body = { data: { type: 'articles', attributes: { title: 'First', summary: 'Kept' } } };
      const created = await mock.request('POST', '/articles', { headers: type, body });
      expect(created.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/articles\/\d+$/);
      const { id, attributes } = created.body.data as { id: string; attributes: Record<string, unknown> };
      const patch = { data: { type: 'articles', id, attributes: { title: 'Second' } } };
      await mock.request('PATCH', `/articles/${id}`, { headers: type, body: patch });
      const read = await mock.request('GET', `/articles/${id}`);
      expect(read.body.data.attributes).toEqual({ ...attributes, title: 'Second' });
    } finally {
      await mock.close();
    }
  });

  it('has the mock seed distinct keys that fit a key pattern of digits', async () => {
    const mock = await startTestMock({ specPath: BRACKET_PAGES_SPEC });
    try {
      const listed = await mock.request('GET', '/articles');
      const ids = (listed.body.data as { id: string }[]).map((article) => article.id);
      expect(ids.length).toBeGreaterThan(1);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.every((id) => /^[1-9][0-9]*$/.test(id))).toBe(true);
    } finally {
      await mock.close();
    }
  });

  it('sees a deleted article still listed', async () => {
    const errors = findingTitles(await check(['deleted-still-listed'], ['resource-lifecycle']), 'error');
    expect(
      errors.some((title) =>
        /^resource-lifecycle createArticle: deleted "\d+" is still listed by listArticles/.test(title),
      ),
      errors.join('\n'),
    ).toBe(true);
  });
});
