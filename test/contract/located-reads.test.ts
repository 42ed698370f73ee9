// A create answered with no body names its item only by the Location
// (fixtures/contract/located-reads.yaml): location-resolves follows it and expects the note it
// sent there. A deployment whose Location names the note created before is caught; a correct one
// passes.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/runner.js';
import { jsonBody, Refusal, startJsonServer } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';
import { findingTitles } from './helpers.js';

const KEY = 'located-key';
const DOCUMENT = fileURLToPath(new URL('../fixtures/contract/located-reads.yaml', import.meta.url));

/** The notes API; `previousLocation` answers each create with the Location of the one before it. */
function notesServer(previousLocation: boolean): Promise<LoopbackServer> {
  const notes = new Map<string, { id: string; text: string }>();
  let next = 1;
  return startJsonServer(
    (request) => {
      if (request.url.pathname === '/notes' && request.method === 'POST') {
        const body = jsonBody(request) as { text?: unknown };
        if (typeof body?.text !== 'string' || body.text.length === 0 || body.text.length > 40)
          throw new Refusal(400, 'text');
        const id = `n-${next++}`;
        notes.set(id, { id, text: body.text });
        const named = previousLocation && next > 2 ? `n-${next - 2}` : id;
        return { status: 201, headers: { location: `/notes/${named}` } };
      }
      const item = /^\/notes\/([^/]+)$/.exec(request.url.pathname);
      const note = item && request.method === 'GET' ? notes.get(decodeURIComponent(item[1]!)) : undefined;
      if (note) return { status: 200, body: note };
      throw new Refusal(404, 'no such note');
    },
    (refusal) => ({ status: refusal.status, body: { message: refusal.message } }),
  );
}

let server: LoopbackServer | undefined;
afterEach(() => server?.close());

async function located(previousLocation: boolean): Promise<string[]> {
  server = await notesServer(previousLocation);
  const summary = await runContract({
    baseUrl: server.url,
    apiKey: KEY,
    specPath: DOCUMENT,
    seed: 3,
    checks: ['location-resolves'],
  });
  expect(summary.cases.find((result) => result.check === 'location-resolves')?.status).not.toBe('skipped');
  return findingTitles(summary, 'error');
}

describe('location-resolves for a create answered only by its Location', () => {
  it('passes a Location that names the note created', async () => {
    expect(await located(false)).toEqual([]);
  });

  it('reports a Location that names the note created before', async () => {
    expect(await located(true)).toEqual([
      expect.stringMatching(/^location-resolves createNote: the Location of a 201 leads to another item: \/text sent/),
    ]);
  });
});
