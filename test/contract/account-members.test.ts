// Members are numbered per account (fixtures/contract/account-members.yaml): collection-consistency
// reads a listed member back under the account its list was read under. Read under the account
// where that id was first seen, a correct server looks inconsistent (member 1 of one account is
// not member 1 of another); a server that ignores the account on a read is still caught.
import { describe, expect, it } from 'vitest';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { findingTitles } from './helpers.js';
import { ACCOUNT_MEMBERS_SPEC, startAccountMembers, type AccountMembersFault } from './account-members-server.js';

async function check(seed: number, fault?: AccountMembersFault): Promise<RunSummary> {
  const server = await startAccountMembers(fault);
  try {
    return await runContract({ baseUrl: server.url, apiKey: '', specPath: ACCOUNT_MEMBERS_SPEC, seed });
  } finally {
    await server.close();
  }
}

function consistency(summary: RunSummary): string[] {
  return summary.cases.filter((c) => c.check === 'collection-consistency').map((c) => `${c.operationId} ${c.status}`);
}

describe('members numbered per account', { timeout: 60_000 }, () => {
  it.each([1, 2])('are read back under the account they were listed under (seed %i)', async (seed) => {
    const summary = await check(seed);
    expect(findingTitles(summary, 'error')).toEqual([]);
    expect(consistency(summary)).toContain('listMembers passed');
  });

  it('a read that ignores the account is caught', async () => {
    const titles = findingTitles(await check(1, 'member-read-ignores-account'), 'error');
    expect(titles.filter((title) => title.startsWith('collection-consistency listMembers:'))).toEqual([
      expect.stringMatching(/^collection-consistency listMembers: a listed item differs from the same item read by id/),
    ]);
  });
});
