// Sub-paths of an item path written with a trailing slash (fixtures/contract/slashed-notes.yaml:
// `/notes/{noteId}/` and its action `/notes/{noteId}/archive/`) are under it, as they are without
// the slash: resource-lifecycle sends the action to a deleted note, and negative-data-rejection
// sends its invalid bodies to a fresh note (an archived one answers 409 before reading a body).
import { describe, expect, it } from 'vitest';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { findingTitles } from './helpers.js';
import { SLASHED_NOTES_SPEC, startSlashedNotes, type SlashedNotesFault } from './slashed-notes-server.js';

async function check(fault?: SlashedNotesFault): Promise<RunSummary> {
  const server = await startSlashedNotes(fault);
  try {
    return await runContract({ baseUrl: server.url, apiKey: '', specPath: SLASHED_NOTES_SPEC, seed: 2 });
  } finally {
    await server.close();
  }
}

describe('actions under an item path that ends in a slash', { timeout: 60_000 }, () => {
  it('passes the correct server with no finding', async () => {
    expect(findingTitles(await check())).toEqual([]);
  });

  it.each([
    ['archive-deleted', /^resource-lifecycle createNote: archiveNote acted on deleted \d+$/],
    ['archive-unvalidated', /^negative-data-rejection archiveNote: accepted malformed JSON \(status 204\)$/],
  ] as const)('catches %s', async (fault, title) => {
    expect(findingTitles(await check(fault), 'error')).toEqual([expect.stringMatching(title)]);
  });
});
