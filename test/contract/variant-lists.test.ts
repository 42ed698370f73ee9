// A list whose items are variants (fixtures/agreement/variant-list-items.yaml: beverages and
// desserts, a oneOf keyed by the id both declare) is a list to the checker, as it is to the mock
// (serve-check-agreement.test.ts serves and checks the same document): list-freshness and
// collection-consistency judge it, so a list that never shows new items is caught.
import { describe, expect, it } from 'vitest';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { findingTitles, statusesOf } from './helpers.js';
import { MENU_SPEC, startMenu, type MenuFault } from './menu-server.js';

async function check(fault?: MenuFault): Promise<RunSummary> {
  const server = await startMenu(fault);
  try {
    return await runContract({ baseUrl: server.url, apiKey: '', specPath: MENU_SPEC, seed: 6 });
  } finally {
    await server.close();
  }
}

describe('a list of variants', { timeout: 60_000 }, () => {
  it('is judged as a list, with no finding on a correct server', async () => {
    const summary = await check();
    expect(findingTitles(summary, 'error')).toEqual([]);
    expect(statusesOf(summary, 'list-freshness')).toContain('passed');
    expect(statusesOf(summary, 'collection-consistency')).toContain('passed');
  });

  it('catches a list that never shows new items', async () => {
    const titles = findingTitles(await check('list-misses-new'), 'error');
    expect(titles).toEqual([
      expect.stringMatching(/^list-freshness listMenu: \d+ created resource\(s\) never appear in listMenu$/),
    ]);
  });
});
