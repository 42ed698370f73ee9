// Issue 11, item 5: two real kennel processes share one real redis-server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../src/serve/server.js';
import { runCli } from '../helpers/cli.js';
import { spawnKennel, type KennelProcess } from '../helpers/kennel-process.js';
import { NO_REDIS, startRedis, type TestRedis } from '../helpers/redis-server.js';
import { waitUntil } from '../helpers/wait.js';

const KEY = 'replica-key';
const OTHER = 'other-key';
const headers = (key = KEY) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

interface Pet {
  id: number;
  name: string;
}

async function call(origin: string, path: string, init: RequestInit = {}, key = KEY) {
  const response = await fetch(`${origin}${path}`, { ...init, headers: headers(key) });
  return { status: response.status, body: await response.json() };
}

/** Runs `tasks` with at most `width` in flight. */
async function pooled<T>(count: number, width: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

describe.skipIf(NO_REDIS)('two kennel replicas, one Redis (--store)', () => {
  let redis: TestRedis;
  let replicas: KennelProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    const args = ['--no-world', '--store', redis.url, '--api-key', KEY, '--api-key', OTHER, '--max-pets', '5000'];
    replicas = await Promise.all([spawnKennel(args), spawnKennel(args)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await redis?.dispose();
  });

  it('starts every tenant with the same seeded pets as the memory store', async () => {
    const memory = await startMock({ apiKeys: [KEY], world: false });
    try {
      const expected = await call(memory.origin, '/v1/pets?limit=100');
      for (const replica of replicas) expect(await call(replica.origin, '/v1/pets?limit=100')).toEqual(expected);
      expect((expected.body as Pet[]).length).toBe(30);
    } finally {
      await memory.close();
    }
  });

  it('1,000 concurrent creates spread over both replicas get 1,000 distinct ids, each readable from either', async () => {
    await fetch(`${replicas[0]!.origin}/__kennel/reset`, { method: 'POST' });
    const created = await pooled(1000, 100, async (index) => {
      const origin = replicas[index % 2]!.origin;
      const body = JSON.stringify({ name: `Pet ${index}`, categoryId: 1 });
      return call(origin, '/v1/pets', { method: 'POST', body });
    });
    expect(created.filter((answer) => answer.status !== 201)).toEqual([]);
    const ids = created.map((answer) => (answer.body as Pet).id);
    expect(new Set(ids).size).toBe(1000);
    // The seeded pets hold 1..30: the sequence goes on from there with no gap and no repeat.
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, index) => index + 31));
    const reads = await pooled(2000, 100, async (index) => {
      const pet = created[index >> 1]!.body as Pet;
      const answer = await call(replicas[index % 2]!.origin, `/v1/pets/${pet.id}`);
      return answer.status === 200 && (answer.body as Pet).name === pet.name;
    });
    expect(reads.filter((ok) => !ok)).toHaveLength(0);
    // The other tenant saw none of it.
    expect(await call(replicas[1]!.origin, '/v1/pets/31', {}, OTHER)).toMatchObject({ status: 404 });
  }, 60_000);

  it('a reset through one replica is seen by the other; a reset with a seed re-seeds both', async () => {
    const body = JSON.stringify({ name: 'Before reset', categoryId: 1 });
    const made = await call(replicas[0]!.origin, '/v1/pets', { method: 'POST', body });
    const id = (made.body as Pet).id;
    expect((await call(replicas[1]!.origin, `/v1/pets/${id}`)).status).toBe(200);
    const reset = await fetch(`${replicas[1]!.origin}/__kennel/reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    expect((await call(replicas[0]!.origin, `/v1/pets/${id}`)).status).toBe(404);
    const first = await call(replicas[0]!.origin, '/v1/pets?limit=1');
    await fetch(`${replicas[0]!.origin}/__kennel/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seed: 7 }),
    });
    const reseeded = await call(replicas[1]!.origin, '/v1/pets?limit=1');
    expect(reseeded.body).not.toEqual(first.body);
    const memory = await startMock({ apiKeys: [KEY], world: false, seed: 7 });
    try {
      expect(reseeded).toEqual(await call(memory.origin, '/v1/pets?limit=1'));
    } finally {
      await memory.close();
    }
    const health = await fetch(`${replicas[1]!.origin}/__kennel/health`);
    expect(await health.json()).toMatchObject({ seed: 7, store: 'redis' });
  }, 30_000);

  it('answers 503 while Redis is down, without crashing, and recovers when it is back', async () => {
    await redis.stop();
    const down = await call(replicas[0]!.origin, '/v1/pets?limit=1');
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: 'store_unavailable', status: 503 });
    expect(JSON.stringify(down.body)).not.toMatch(/at .*\.js/);
    await redis.start();
    // An empty Redis (no persistence): the replica seeds it again on first use.
    await waitUntil(
      async () => (await call(replicas[0]!.origin, '/v1/pets?limit=1')).status === 200,
      () => 'the replica to answer 200 again once Redis is back',
    );
    expect(replicas.every((replica) => replica.child.exitCode === null)).toBe(true);
  }, 30_000);
});

describe('--store at start-up', () => {
  it('exits 2 naming the server and the reason when Redis cannot be reached', async () => {
    const cli = runCli(['serve', '--port', '0', '--no-world', '--store', 'redis://127.0.0.1:1']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toBe('kennel: cannot reach redis://127.0.0.1:1: ECONNREFUSED\n');
  });

  it.each([
    ['http://example.test', 'unknown scheme http:'],
    ['not a url', 'not a URL'],
    ['redis://127.0.0.1:6379/abc', '--store redis://127.0.0.1:6379/abc: the path is a database number'],
  ])('exits 2 for --store %s', async (url, message) => {
    const cli = runCli(['serve', '--port', '0', '--no-world', '--store', url]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain(message);
  });

  it('never prints a password from the URL', async () => {
    const cli = runCli(['serve', '--port', '0', '--no-world', '--store', 'redis://user:s3cret@127.0.0.1:1']);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).not.toContain('s3cret');
  });
});
