// list-freshness on a list whose limit documents neither a maximum nor a default
// (fixtures/contract/unbounded-limit.yaml): it asks for a large explicit limit and calls created
// notes missing only when other reads prove the short answer was no silent cap. A deployment
// that caps, or answers its default above an undocumented maximum, gets a warning at most.
import { describe, expect, it } from 'vitest';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { findingTitles } from './helpers.js';
import { startUnboundedLimit, UNBOUNDED_LIMIT_SPEC, type UnboundedLimitServer } from './unbounded-limit-server.js';

async function check(server: UnboundedLimitServer): Promise<RunSummary> {
  const running = await startUnboundedLimit(server);
  try {
    // list-freshness alone: it meets the five seeded notes, so a default page of 5 cuts the new one.
    return await runContract({
      baseUrl: running.url,
      apiKey: '',
      specPath: UNBOUNDED_LIMIT_SPEC,
      seed: 3,
      checks: ['list-freshness'],
    });
  } finally {
    await running.close();
  }
}

function freshness(summary: RunSummary): string[] {
  return summary.cases.filter((c) => c.check === 'list-freshness').map((c) => `${c.operationId} ${c.status}`);
}

describe('list-freshness where the limit has no documented bound', { timeout: 60_000 }, () => {
  it('passes a deployment that honours any limit', async () => {
    const summary = await check('correct');
    expect(findingTitles(summary, 'error')).toEqual([]);
    expect(freshness(summary)).toContain('listNotes passed');
    expect(findingTitles(summary, 'warning').filter((title) => title.startsWith('list-freshness'))).toEqual([]);
  });

  it.each(['silent-cap', 'default-above-max'] as const)('only warns about a deployment with a %s', async (server) => {
    const summary = await check(server);
    expect(findingTitles(summary, 'error')).toEqual([]);
    expect(findingTitles(summary, 'warning')).toContain(
      'list-freshness listNotes: 1 created resource(s) missing from listNotes',
    );
  });

  it('catches a deployment whose large lists never show new items', async () => {
    const titles = findingTitles(await check('cached-large-lists'), 'error');
    expect(titles).toEqual(['list-freshness listNotes: 1 created resource(s) never appear in listNotes']);
  });
});
