// kennel check reads four conventions of a strict deployment as a careful client would
// (fixtures/contract/tasklists.yaml): a merge-patch-only PATCH is sent as
// application/merge-patch+json, a cursor is never made up, a filter is judged by the state a
// resource has now (after an action changed it), and a list of another collection's keys that
// kennel invented may be refused. No false alarm on the correct deployment.
import { describe, expect, it } from 'vitest';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { findingTitles } from './helpers.js';
import { startTasklists, TASKLISTS_SPEC, type TasklistsOptions } from './tasklists-server.js';

async function check(options?: TasklistsOptions): Promise<RunSummary> {
  const server = await startTasklists(options);
  try {
    return await runContract({ baseUrl: server.url, apiKey: '', specPath: TASKLISTS_SPEC, seed: 5 });
  } finally {
    await server.close();
  }
}

describe('a strict task-list deployment', { timeout: 60_000 }, () => {
  it('gets no error finding when correct', async () => {
    const summary = await check();
    expect(findingTitles(summary, 'error')).toEqual([]);
    const patched = summary.cases.find(
      (result) => result.check === 'positive-data-acceptance' && result.operationId === 'updateList',
    );
    expect(patched?.status).toBe('passed');
    const conditional = summary.cases.filter((result) => result.check === 'conditional-requests');
    expect(
      conditional
        .filter((result) => result.status === 'passed')
        .map((result) => result.operationId)
        .sort(),
    ).toEqual(['getList', 'updateList']);
  });

  it('gets no error finding when closing a list answers nothing (204)', async () => {
    expect(findingTitles(await check({ closeAnswers: 'nothing' }), 'error')).toEqual([]);
  });

  it('catches a PATCH that refuses its documented application/merge-patch+json', async () => {
    const titles = findingTitles(await check({ closeAnswers: 'list', patchTakesPlainJson: true }), 'error');
    expect(titles).toContain(
      'positive-data-acceptance updateList: rejected a valid body (required properties only) with 415',
    );
  });

  it.each([
    ['if-none-match', 'conditional-requests getList: a read with If-None-Match naming its current ETag answered 200'],
    ['if-match', 'conditional-requests updateList: an update with a stale If-Match answered 200'],
  ] as const)('catches a deployment that ignores %s', async (ignores, title) => {
    expect(findingTitles(await check({ closeAnswers: 'list', ignores }), 'error')).toEqual([title]);
  });

  it('catches a merge patch whose null keeps the member', async () => {
    const titles = findingTitles(await check({ closeAnswers: 'list', mergeNullKept: true }), 'error');
    expect(titles).toEqual([
      expect.stringMatching(/^resource-lifecycle createList: PATCH updateList with due_at: null kept due_at$/),
    ]);
  });

  it('catches a PUT that creates a tag under a new key and answers 200', async () => {
    const titles = findingTitles(await check({ closeAnswers: 'list', tagCreated200: true }), 'error');
    expect(titles).toEqual(['positive-data-acceptance putTag: a PUT at a new tag answered 200, not 201 (created)']);
  });
});
