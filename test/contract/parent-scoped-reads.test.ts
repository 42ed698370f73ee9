// reads-scoped-to-parent: a note read under an owner that does not hold it is not served. The
// deployment numbers notes once for all owners (the faulty lookup finds a note by its id alone) or
// per owner (note 1 of each owner: a read under another owner is another note, no fault).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';
import { jsonBody, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

const NOTES = fileURLToPath(new URL('../fixtures/contract/notes-per-owner.yaml', import.meta.url));
const CHECKS = ['positive-data-acceptance', 'reads-scoped-to-parent'];

interface NotesOptions {
  numbering: 'global' | 'per-owner';
  /** The fault: a note is found by its id whichever owner the path names. */
  ignoresParent?: boolean;
  /** Notes show `ownerId`: their own owner's, or (the fault) the first owner's. */
  showsOwner?: 'own' | 'first';
}

interface Note {
  id: number;
  owner: string;
  text: string;
}

function startNotes({ numbering, ignoresParent = false, showsOwner }: NotesOptions): Promise<LoopbackServer> {
  const owners = new Map([
    ['o1', { id: 'o1', name: 'Ada' }],
    ['o2', { id: 'o2', name: 'Grace' }],
  ]);
  const notes: Note[] = [
    { id: 1, owner: 'o1', text: 'first of Ada' },
    { id: numbering === 'global' ? 2 : 1, owner: 'o2', text: 'first of Grace' },
  ];
  const shown = ({ id, text, owner }: Note) =>
    showsOwner === undefined ? { id, text } : { id, text, ownerId: showsOwner === 'own' ? owner : 'o1' };

  function owner(id: string): string {
    if (!owners.has(id)) throw new Refusal(404, `no owner ${id}`);
    return id;
  }

  function note(ownerId: string, raw: string): Note {
    const found = notes.find(
      (candidate) => String(candidate.id) === raw && (ignoresParent || candidate.owner === ownerId),
    );
    if (!found) throw new Refusal(404, `no note ${raw} of ${ownerId}`);
    return found;
  }

  function createNote(ownerId: string, body: unknown): Answer {
    const text = (body as { text?: unknown } | null)?.text;
    if (typeof text !== 'string') throw new Refusal(400, 'text is a string');
    const mine = notes.filter((candidate) => numbering === 'global' || candidate.owner === ownerId);
    const created = { id: Math.max(0, ...mine.map((candidate) => candidate.id)) + 1, owner: ownerId, text };
    notes.push(created);
    return { status: 201, body: shown(created) };
  }

  function route(request: ReceivedRequest): Answer {
    const { method, url } = request;
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== 'owners') throw new Refusal(404, 'no such path');
    if (parts.length === 1 && method === 'GET') return { status: 200, body: [...owners.values()] };
    if (parts.length === 1 && method === 'POST') {
      const name = (jsonBody(request) as { name?: unknown } | null)?.name;
      if (typeof name !== 'string') throw new Refusal(400, 'name is a string');
      const created = { id: `o${owners.size + 1}`, name };
      owners.set(created.id, created);
      return { status: 201, body: created };
    }
    const ownerId = owner(parts[1]!);
    if (parts.length === 2 && method === 'GET') return { status: 200, body: owners.get(ownerId) };
    if (parts[2] !== 'notes') throw new Refusal(404, 'no such path');
    if (parts.length === 3 && method === 'GET')
      return { status: 200, body: notes.filter((candidate) => candidate.owner === ownerId).map(shown) };
    if (parts.length === 3 && method === 'POST') return createNote(ownerId, jsonBody(request));
    if (parts.length === 4 && method === 'GET') return { status: 200, body: shown(note(ownerId, parts[3]!)) };
    throw new Refusal(405, 'not allowed');
  }

  return startJsonServer(route, (refusal) => ({ status: refusal.status, body: { message: refusal.message } }));
}

async function check(baseUrl: string): Promise<RunSummary> {
  return runContract({ baseUrl, apiKey: '', specPath: NOTES, seed: 3, checks: CHECKS });
}

function verdict(summary: RunSummary): { statuses: string[]; titles: string[] } {
  const cases = summary.cases.filter((found) => found.check === 'reads-scoped-to-parent' && found.status !== 'skipped');
  return {
    statuses: cases.map((found) => found.status),
    titles: cases.flatMap((found) => found.failures.map((failure) => `${failure.severity}: ${failure.title}`)),
  };
}

describe('reads-scoped-to-parent', { timeout: 60_000 }, () => {
  it.each(['global', 'per-owner'] as const)('passes a deployment numbering notes %s', async (numbering) => {
    const server = await startNotes({ numbering });
    try {
      expect(verdict(await check(server.url))).toEqual({ statuses: ['passed'], titles: [] });
    } finally {
      await server.close();
    }
  });

  it('catches a lookup that finds a note by its id under any owner', async () => {
    const server = await startNotes({ numbering: 'global', ignoresParent: true });
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
    const server = await startNotes({ numbering: 'per-owner', showsOwner: 'own' });
    try {
      expect(verdict(await check(server.url))).toEqual({ statuses: ['passed'], titles: [] });
    } finally {
      await server.close();
    }
  });

  it('catches notes that name the first owner whichever owner holds them', async () => {
    const server = await startNotes({ numbering: 'per-owner', showsOwner: 'first' });
    try {
      const { statuses, titles } = verdict(await check(server.url));
      expect(statuses).toEqual(['failed']);
      expect(titles).toEqual([expect.stringMatching(/^error: an item created under ownerId o\d names ownerId "o1"$/)]);
    } finally {
      await server.close();
    }
  });

  it('passes kennel serve, which numbers each owner’s notes from 1', async () => {
    const mock = await startMock({ specPath: NOTES, port: 0, apiKeys: ['k'], world: false });
    try {
      const summary = await runContract({ baseUrl: mock.url, apiKey: 'k', specPath: NOTES, seed: 3, checks: CHECKS });
      expect(verdict(summary).titles).toEqual([]);
      expect(verdict(summary).statuses).toEqual(['passed']);
    } finally {
      await mock.close();
    }
  });
});
