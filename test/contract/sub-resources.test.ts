// Sub-resources belong to their parent. reads-scoped-to-parent: a note read under an owner that
// does not hold it is not served, and a note names its own owner. The deployment numbers notes
// once for all owners (the faulty lookup finds a note by its id alone) or per owner (note 1 of
// each owner: a read under another owner is another note, no fault). resource-lifecycle: no note
// is created under a deleted owner.
import { describe, expect, it } from 'vitest';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';
import { OWNER_NOTES, startOwnerNotes } from './owner-notes-server.js';

const CHECKS = ['positive-data-acceptance', 'reads-scoped-to-parent'];

async function check(baseUrl: string): Promise<RunSummary> {
  return runContract({ baseUrl, apiKey: '', specPath: OWNER_NOTES, seed: 3, checks: CHECKS });
}

function verdict(summary: RunSummary): { statuses: string[]; titles: string[] } {
  const cases = summary.cases.filter((found) => found.check === 'reads-scoped-to-parent' && found.status !== 'skipped');
  return {
    statuses: cases.map((found) => found.status),
    titles: cases.flatMap((found) => found.failures.map((failure) => `${failure.severity}: ${failure.title}`)),
  };
}

describe('resource-lifecycle under a parent', { timeout: 60_000 }, () => {
  const lifecycle = async (options: Parameters<typeof startOwnerNotes>[0]) => {
    const server = await startOwnerNotes(options);
    try {
      const summary = await runContract({
        baseUrl: server.url,
        apiKey: '',
        specPath: OWNER_NOTES,
        seed: 3,
        checks: ['resource-lifecycle'],
      });
      return summary.cases
        .filter((found) => found.check === 'resource-lifecycle' && found.status !== 'skipped')
        .flatMap((found) => [
          found.status,
          ...found.failures.map((failure) => `${failure.severity}: ${failure.title}`),
        ]);
    } finally {
      await server.close();
    }
  };

  it('passes a deployment that refuses notes under a deleted owner', async () => {
    expect(await lifecycle({ numbering: 'global' })).toEqual(['passed']);
  });

  it('catches a note created under a deleted owner', async () => {
    expect(await lifecycle({ numbering: 'global', keepsNotesOfDeleted: true })).toEqual([
      'failed',
      expect.stringMatching(/^error: createNote acted on deleted "o\d+"$/),
    ]);
  });
});

describe('reads-scoped-to-parent', { timeout: 60_000 }, () => {
  it.each(['global', 'per-owner'] as const)('passes a deployment numbering notes %s', async (numbering) => {
    const server = await startOwnerNotes({ numbering });
    try {
      expect(verdict(await check(server.url))).toEqual({ statuses: ['passed'], titles: [] });
    } finally {
      await server.close();
    }
  });

  it('catches a lookup that finds a note by its id under any owner', async () => {
    const server = await startOwnerNotes({ numbering: 'global', ignoresParent: true });
    try {
      const { statuses, titles } = verdict(await check(server.url));
      expect(statuses).toEqual(['failed']);
      expect(titles).toHaveLength(1);
      expect(titles[0]).toMatch(/^error: an item of ownerId \S+ was served under ownerId \S+$/);
    } finally {
      await server.close();
    }
  });

  it('passes notes that name their own owner', async () => {
    const server = await startOwnerNotes({ numbering: 'per-owner', showsOwner: 'own' });
    try {
      expect(verdict(await check(server.url))).toEqual({ statuses: ['passed'], titles: [] });
    } finally {
      await server.close();
    }
  });

  it('catches notes that name the first owner whichever owner holds them', async () => {
    const server = await startOwnerNotes({ numbering: 'per-owner', showsOwner: 'first' });
    try {
      const { statuses, titles } = verdict(await check(server.url));
      expect(statuses).toEqual(['failed']);
      expect(titles).toEqual([expect.stringMatching(/^error: an item created under ownerId o\d names ownerId "o1"$/)]);
    } finally {
      await server.close();
    }
  });

  it('passes kennel serve, which numbers each owner’s notes from 1 and refuses notes of a deleted owner', async () => {
    const mock = await startMock({ specPath: OWNER_NOTES, port: 0, apiKeys: ['k'], world: false });
    try {
      const summary = await runContract({
        baseUrl: mock.url,
        apiKey: 'k',
        specPath: OWNER_NOTES,
        seed: 3,
        checks: [...CHECKS, 'resource-lifecycle'],
      });
      expect(verdict(summary).titles).toEqual([]);
      expect(verdict(summary).statuses).toEqual(['passed']);
      const lifecycle = summary.cases.filter((found) => found.check === 'resource-lifecycle');
      expect(lifecycle.flatMap((found) => found.failures.map((failure) => failure.title))).toEqual([]);
      expect(lifecycle.map((found) => found.status)).toContain('passed');
    } finally {
      await mock.close();
    }
  });
});
