// kennel check pages through the Library (fixtures/explore/library.yaml) as a client would: at
// least two pages (a smaller page size, items created when the list holds too few), every
// documented link followed, the page after the last asked for; a book naming no shelf must get the
// documented 422. A correct server and kennel's own mock pass; each fault is caught.
import { describe, expect, it } from 'vitest';

/** A full run each, run concurrently: generous, for a loaded machine. */
const RUN_MS = 120_000;
import { runContract, type ContractOptions, type RunSummary } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';
import { checkNamedBy, findingTitles, onlyChecks, statusesOf } from './helpers.js';
import { LIBRARY_SPEC, LIBRARY_TOKEN, startLibrary, type LibraryFault, type LibraryOptions } from './library-server.js';

async function check(options: LibraryOptions, run: Partial<ContractOptions> = {}): Promise<RunSummary> {
  const server = await startLibrary(options);
  try {
    return await runContract({
      baseUrl: `${server.url}/api`,
      apiKey: LIBRARY_TOKEN,
      specPath: LIBRARY_SPEC,
      seed: 3,
      ...run,
    });
  } finally {
    await server.close();
  }
}

describe.concurrent('a correct Library passes, over at least two pages', () => {
  it.each([3, 1, 0])(
    'with %i book(s) at start',
    async (books) => {
      const summary = await check({ books });
      expect(findingTitles(summary, 'error')).toEqual([]);
      expect(statusesOf(summary, 'pagination-followed')).toContain('passed');
      const paging = summary.cases.filter(
        (result) => result.check === 'pagination-followed' && result.operationId !== 'listShelves',
      );
      expect(paging.find((result) => result.operationId === 'listBooks')?.status).toBe('passed');
      // A loan naming a book that does not exist: the document gives createLoan no status for it.
      const loan = summary.cases.find(
        (result) => result.check === 'unknown-reference-refused' && result.operationId === 'createLoan',
      );
      expect(loan?.status).toBe('warned');
    },
    RUN_MS,
  );
});

// A fault's run has the check its finding names, the producers (helpers.ts) and the checks whose
// requests show it where those differ: the rows assert that check catches it; the correct
// Libraries above run everything, so no check cries wolf.
describe.concurrent('each fault is caught', () => {
  it.each<[LibraryFault, string, string[]?]>([
    ['prev-on-first-page', 'pagination-followed listShelves: the first page has a prev link'],
    // The page after the last is asked for by pagination-followed.
    ['page-past-last-500', 'not-a-server-error listShelves: server error 500', ['pagination-followed']],
    ['self-elsewhere', 'pagination-followed listShelves: the self link of page 1 does not lead to page 1 itself'],
    ['first-elsewhere', 'pagination-followed listShelves: the first link of page 1 does not lead to page 1 itself'],
    ['prev-elsewhere', 'pagination-followed listShelves: the prev link of page 2 does not lead to page 1'],
    ['last-not-last', 'pagination-followed listShelves: the last link of page 1 leads to a page that has a next link'],
    ['total-off-by-one', 'pagination-followed listShelves: the pages show'],
    ['books-page-ignored', 'pagination-followed listBooks: the next page number leads back to a page already read'],
    // list-freshness's creates make the pages this finding describes (fewer books: another finding).
    [
      'books-past-last-repeats',
      'pagination-followed listBooks: the page after the last (page=N) lists',
      ['list-freshness'],
    ],
    ['unknown-shelf-accepted', 'unknown-reference-refused createBook: accepted shelf_id'],
    // Authors are search-only, so the mock keeps none: the deployment's own 404 for the author says it is unknown.
    ['unknown-author-accepted', 'unknown-reference-refused createBook: accepted author_id'],
  ])(
    '%s',
    async (fault, title, traffic = []) => {
      const summary = await check({ fault }, onlyChecks(checkNamedBy(title), ...traffic));
      const errors = findingTitles(summary, 'error').map((text) => text.replace(/page=\d+/, 'page=N'));
      expect(errors.join('\n')).toContain(title);
    },
    RUN_MS,
  );
});

describe('kennel serve of the Library passes kennel check', () => {
  it(
    'agrees with itself',
    async () => {
      const mock = await startMock({ specPath: LIBRARY_SPEC, apiKeys: [LIBRARY_TOKEN] });
      try {
        const summary = await runContract({
          baseUrl: mock.url,
          apiKey: LIBRARY_TOKEN,
          specPath: LIBRARY_SPEC,
          seed: 3,
        });
        expect(findingTitles(summary, 'error')).toEqual([]);
        expect(statusesOf(summary, 'pagination-followed')).not.toContain('unexercised');
      } finally {
        await mock.close();
      }
    },
    RUN_MS,
  );
});
