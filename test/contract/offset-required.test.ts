// A list whose offset is required (fixtures/contract/offset-required.yaml): kennel check walks its
// pages from the first item, so a correct deployment (kennel serve) is not told that its pages
// show fewer items than its total, and a total that miscounts the list is still caught.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runContract, type RunSummary } from '../../src/contract/run/runner.js';
import { startMock } from '../../src/serve/server.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback.js';
import { findingTitles } from './helpers.js';

const KEY = 'offset-key';
const DOCUMENT = fileURLToPath(new URL('../fixtures/contract/offset-required.yaml', import.meta.url));

/** kennel serve of the document behind a proxy that counts one client too many in every page's total. */
async function overcounting(upstream: string): Promise<LoopbackServer> {
  return listenOnLoopback(
    createServer((request, response) => {
      void fetch(`${upstream}${request.url ?? '/'}`, {
        method: request.method,
        headers: { authorization: `Bearer ${KEY}` },
      })
        .then(async (answer) => {
          const page = (await answer.json()) as { totalElements?: number };
          if (typeof page.totalElements === 'number') page.totalElements += 1;
          response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(page));
        })
        .catch(() => response.writeHead(502).end());
    }),
  );
}

async function walk(seed: number, fault: boolean): Promise<RunSummary> {
  const mock = await startMock({ specPath: DOCUMENT, port: 0, apiKeys: [KEY], world: false });
  const proxy = fault ? await overcounting(mock.url) : undefined;
  try {
    return await runContract({
      baseUrl: proxy?.url ?? mock.url,
      apiKey: KEY,
      specPath: DOCUMENT,
      seed,
      checks: ['pagination-followed'],
    });
  } finally {
    await proxy?.close();
    await mock.close();
  }
}

describe('pagination-followed on a list with a required offset', () => {
  it.each([1, 2, 7])('passes kennel serve of it (seed %i)', async (seed) => {
    const summary = await walk(seed, false);
    expect(findingTitles(summary, 'error')).toEqual([]);
    expect(summary.cases.find((result) => result.check === 'pagination-followed')?.status).toBe('passed');
  });

  it('reports a total one more than the pages show', async () => {
    const summary = await walk(7, true);
    expect(findingTitles(summary, 'error')).toEqual([
      expect.stringMatching(
        /^pagination-followed findClients: the pages show (\d+) item\(s\) where the first page's total says \d+$/,
      ),
    ]);
  });
});
