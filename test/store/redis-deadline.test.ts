// Issue 18, item 5: a slow or frozen Redis. A real redis-server made slow (DEBUG SLEEP) or frozen
// (SIGSTOP): every request that needs the store answers 503 store_unavailable with Retry-After
// within the documented 3 s bound, and once Redis answers again every reply belongs to its request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMock, type TestMock } from '../helpers/mock-client.js';
import { NO_REDIS, startRedis, type TestRedis } from '../helpers/redis-server.js';
import { runCli } from '../helpers/cli.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitUntil } from '../helpers/wait.js';

/** The documented bound (docs/hardening.md) and what a loaded machine may add to it. */
const BOUND_MS = 3_000;
const SLACK_MS = 1_000;

interface Timed {
  status: number;
  retryAfter: string | null;
  body: { code?: string; id?: number; name?: string } | undefined;
  ms: number;
}

async function timed(mock: TestMock, method: string, path: string, body?: object): Promise<Timed> {
  const started = performance.now();
  const answer = await mock.request(method, path, { body });
  return {
    status: answer.status,
    retryAfter: answer.headers.get('retry-after'),
    body: answer.body as Timed['body'],
    ms: performance.now() - started,
  };
}

/** Waits until the mock reads the store again (Redis back, the link reconnected). */
async function untilServing(mock: TestMock): Promise<void> {
  await waitUntil(
    async () => (await mock.request('GET', '/pets?limit=1')).status === 200,
    () => 'the mock to serve again once Redis is back',
  );
}

/** Creates then reads pets one after the other: a desynchronised link answers one with another's reply. */
async function expectRepliesInStep(mock: TestMock): Promise<void> {
  for (let index = 0; index < 10; index += 1) {
    const name = `InStep${index}`;
    const made = await mock.request('POST', '/pets', { body: { name, categoryId: 1 } });
    expect(made.status).toBe(201);
    expect(made.body.name).toBe(name);
    const read = await mock.request('GET', `/pets/${made.body.id}`);
    expect([read.status, read.body.id, read.body.name]).toEqual([200, made.body.id, name]);
    const seeded = await mock.request('GET', `/pets/${1 + index}`);
    expect(seeded.body.id).toBe(1 + index);
  }
}

describe.skipIf(NO_REDIS)('a slow or frozen Redis', () => {
  let redis: TestRedis;
  let mock: TestMock;

  beforeAll(async () => {
    redis = await startRedis();
    mock = await startTestMock({ world: false, store: redis.url });
    await untilServing(mock);
  });
  afterAll(async () => {
    redis?.resume();
    await mock?.close();
    await redis?.dispose();
  });

  it('a command Redis holds (DEBUG SLEEP 6) is a 503 with Retry-After within the bound, then all is in step', async () => {
    void redis.send('DEBUG SLEEP 6').catch(() => undefined);
    await waitUntil(
      () => redis.busy(),
      () => 'DEBUG SLEEP to hold Redis',
    );
    const answers = await Promise.all([
      timed(mock, 'GET', '/pets?limit=5'),
      timed(mock, 'POST', '/pets', { name: 'Slow', categoryId: 1 }),
      timed(mock, 'GET', '/pets/1'),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.body?.code).toBe('store_unavailable');
      expect(answer.retryAfter).toMatch(/^\d+$/);
      expect(answer.ms).toBeLessThan(BOUND_MS + SLACK_MS);
    }
    // While Redis still sleeps, later requests do not queue behind the held ones.
    const meanwhile = await timed(mock, 'GET', '/pets/2');
    expect([meanwhile.status, meanwhile.ms < BOUND_MS + SLACK_MS]).toEqual([503, true]);
    await untilServing(mock);
    await expectRepliesInStep(mock);
  }, 30_000);

  it('a frozen Redis (SIGSTOP) stalls nothing past the bound, and the mock recovers when it wakes', async () => {
    redis.pause();
    try {
      for (let round = 0; round < 3; round += 1) {
        const answer = await timed(mock, 'GET', `/pets/${round + 1}`);
        expect(answer.status).toBe(503);
        expect(answer.body?.code).toBe('store_unavailable');
        expect(answer.ms).toBeLessThan(BOUND_MS + SLACK_MS);
      }
      const health = await fetch(`${mock.running.origin}/__kennel/health`, { signal: AbortSignal.timeout(5_000) });
      expect(health.status).toBe(503);
    } finally {
      redis.resume();
    }
    await untilServing(mock);
    await expectRepliesInStep(mock);
  }, 40_000);
});

describe('no credential of a store URL is ever printed', () => {
  it.each([
    ['an unparsable URL', 'redis://:S3cret@127.0.0.1:99999'],
    ['an unparsable URL with a user', 'redis://admin:S3cret@[::1:6379'],
    ['an unknown scheme', 'http://admin:S3cret@127.0.0.1:6379'],
    ['a path that is not a database', 'redis://admin:S3cret@127.0.0.1:6379/abc'],
    ['a unix URL without a path', 'unix://admin:S3cret@'],
    ['a server that cannot be reached', 'redis://admin:S3cret@127.0.0.1:1'],
    ['a password only', 'rediss://:S3cret@127.0.0.1:1'],
  ])('%s', async (_name, url) => {
    const cli = runCli(['serve', '--port', '0', '--no-world', '--store', url]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toMatch(/^kennel: /);
    expect(cli.stderr()).not.toContain('S3cret');
    const env = runCli(['serve', '--port', '0', '--no-world'], { KENNEL_STORE: url });
    expect(await env.code).toBe(2);
    expect(env.stderr()).not.toContain('S3cret');
  });

  it.each([
    ['--proxy', ['serve', '--port', '0', '--no-world', '--proxy', 'http://admin:S3cret@127.0.0.1:99999']],
    ['--proxy, parsable', ['serve', '--port', '0', '--no-world', '--proxy', 'http://admin:S3cret@127.0.0.1:9']],
    ['kennel check', ['check', '--base-url', 'http://admin:S3cret@127.0.0.1:99999']],
    ['kennel check, parsable', ['check', '--base-url', 'http://admin:S3cret@127.0.0.1:9']],
    ['kennel check, a stray argument', ['check', 'http://admin:S3cret@127.0.0.1:9']],
  ])('%s', async (_name, argv) => {
    const cli = runCli(argv);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).not.toContain('S3cret');
  });

  it('kennel check --json of a run that could not start', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'kennel-url-'));
    try {
      const report = path.join(folder, 'report.json');
      for (const url of ['http://admin:S3cret@127.0.0.1:99999', 'http://admin:S3cret@127.0.0.1:9']) {
        const cli = runCli(['check', '--base-url', url, '--json', report]);
        expect(await cli.code).toBe(2);
        expect(readFileSync(report, 'utf8')).not.toContain('S3cret');
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
