// resource-lifecycle on a collection nothing reads or lists (fixtures/contract/unread-hooks.yaml):
// a second DELETE of the deleted hook is the only sign of the first. 404 shows it gone; a 2xx is
// a warning where DELETE documents 404, since RFC 9110 lets a repeated DELETE succeed (a server
// keeping tombstones) as well as a lost delete would (docs/decisions/honest-verdicts.md).
import { describe, expect, it } from 'vitest';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { findingTitles } from './helpers.js';
import {
  startUnreadHooks,
  UNREAD_HOOKS_NO_404_SPEC,
  UNREAD_HOOKS_SPEC,
  type UnreadHooksServer,
} from './unread-hooks-server.js';

async function check(server: UnreadHooksServer, specPath = UNREAD_HOOKS_SPEC): Promise<RunSummary> {
  const running = await startUnreadHooks(server);
  try {
    return await runContract({ baseUrl: running.url, apiKey: '', specPath, seed: 4 });
  } finally {
    await running.close();
  }
}

/** resource-lifecycle's verdicts on the create (the check runs from the create). */
function lifecycle(summary: RunSummary): string[] {
  const cases = summary.cases.filter((c) => c.check === 'resource-lifecycle' && c.operationId === 'createHook');
  return cases.map((c) => c.status);
}

const SECOND_DELETE = /^resource-lifecycle createHook: a second DELETE of deleted \d+ answered 204$/;

describe('a lost DELETE where nothing reads or lists the items', { timeout: 60_000 }, () => {
  it('passes a deployment whose second DELETE answers 404', async () => {
    const summary = await check('correct');
    expect(findingTitles(summary)).toEqual([]);
    expect(lifecycle(summary)).toEqual(['passed']);
  });

  it.each(['tombstones', 'delete-lost'] as const)(
    'warns, never fails, when a repeat answers 204 (%s)',
    async (server) => {
      const summary = await check(server);
      expect(findingTitles(summary, 'error')).toEqual([]);
      expect(findingTitles(summary, 'warning')).toEqual([expect.stringMatching(SECOND_DELETE)]);
      expect(lifecycle(summary)).toEqual(['warned']);
    },
  );

  it('leaves the delete undecided where DELETE documents no 404 and a repeat answers 204', async () => {
    const summary = await check('delete-lost', UNREAD_HOOKS_NO_404_SPEC);
    expect(findingTitles(summary, 'error')).toEqual([]);
    expect(lifecycle(summary)).toEqual(['unexercised']);
  });
});
