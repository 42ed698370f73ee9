// Memory stays flat whatever the deployment sends: the peak RSS of a `kennel check` process against
// 50 MB bodies and gzip bombs on every response, compared with a run against kennel serve. The
// bound is generous (200 MB over the baseline; 50-100 MB measured on a quiet machine, up to 160 MB
// in a full suite on 2 busy cores): it catches a body read whole (a 1 GB bomb) or many large
// bodies held at once, not noise. A peak includes garbage the collector has not reclaimed yet,
// which grows when the machine is busy, so a run over the bound is repeated once and the lower
// peak judged: a real leak or a body read whole exceeds the bound on every run. Uses dist/.
// Three examples per check (33 requests, each cut off at 10 MB) are enough: 33 bodies kept after
// their cut-off are 330 MB, past the bound; the default 30 (90 requests) only tripled the CPU.
// `node bench/check-memory.js` prints the same figures for a full default run.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/serve/server.js';
import { gzipBombServer, streamingServer, type TestServer } from '../contract/hostile-servers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KENNEL = path.join(ROOT, 'bin', 'kennel.js');
const MAX_RSS = path.join(ROOT, 'bench', 'lib', 'max-rss.js');
const GROWTH_LIMIT_MB = 200;
const SHORT_RUN = ['--seed', '1', '--operation', 'createPet', '--max-examples', '3'];

/** A short `kennel check` of createPet (its checks send 10 requests at once) with its peak RSS in MB. */
function check(url: string, apiKey: string): Promise<{ code: number | null; peakMb: number; output: string }> {
  return new Promise((resolve) => {
    const args = ['check', '--base-url', url, '--api-key', apiKey, ...SHORT_RUN];
    const child = spawn(process.execPath, ['--max-semi-space-size=16', '--import', MAX_RSS, KENNEL, ...args], {
      cwd: ROOT,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => {
      const kilobytes = Number(/kennel-max-rss-kb=(\d+)/.exec(output)?.[1]);
      resolve({ code, peakMb: kilobytes / 1024, output });
    });
  });
}

describe('kennel check memory against deployments that send too much', () => {
  let mock: RunningMock;
  let baselineMb: number;
  beforeAll(async () => {
    mock = await startMock({ apiKeys: ['memory-key'] });
    const baseline = await check(mock.url, 'memory-key');
    expect(baseline.code, baseline.output).toBe(0);
    baselineMb = baseline.peakMb;
  }, 60_000);
  afterAll(() => mock.close());

  it.each([
    ['50 MB bodies, streamed', () => streamingServer(50), 'streamed'],
    ['gzip bombs of 1 GB', () => gzipBombServer(1), 'decompressed'],
  ] as const)(
    '%s: every body is cut off at 10 MB and reported; the peak stays within 200 MB of the baseline',
    async (_label, start, how) => {
      const server: TestServer = await start();
      try {
        const first = await check(server.url, 'k');
        const again = first.peakMb - baselineMb < GROWTH_LIMIT_MB ? first : await check(server.url, 'k');
        const run = again.peakMb < first.peakMb ? again : first;
        expect(run.code, run.output).toBe(1);
        expect(run.output).toContain(`but the body is larger than 10 MB (${how}): kennel stopped reading it`);
        expect(Number.isFinite(run.peakMb)).toBe(true);
        expect(run.peakMb - baselineMb, `peak ${run.peakMb} MB, baseline ${baselineMb} MB`).toBeLessThan(
          GROWTH_LIMIT_MB,
        );
      } finally {
        await server.close();
      }
    },
    60_000,
  );
});
